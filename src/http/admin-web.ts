import type { AdminWeb } from "../config";
import { forbidden } from "../errors";
import { isLoopback } from "../machine";

// Where the admin console answers (`serve --admin-web`, decisions: Admin console): by
// default only to the PC that runs skrining, so that a password guessed or read on the
// campus network does not open the faculty's administration to the whole LAN.

/** The console's routes; its pages are those of src/web/routes.ts with the role `admin`. */
export const adminApiPrefix = "/api/admin";

export const adminWebMessages = {
  /** Names the console's whole address on that PC, port and scheme included (issue 44, item 11). */
  local: (consoleAddress: string) =>
    `Konsol admin hanya dapat dibuka dari PC tempat skrining berjalan (serve --admin-web local). Bukalah di PC itu lewat ${consoleAddress}, ` +
    "atau jalankan ulang serve dengan --admin-web lan agar konsol dapat dibuka dari jaringan kampus.",
  off: "Konsol admin dimatikan (serve --admin-web off). Pakai perintah skrining di PC server, atau jalankan ulang serve dengan --admin-web local.",
} as const;

/** The console's address on the PC that runs skrining: the service's scheme and port, on loopback. */
export const consoleAddressOn = (scheme: "http" | "https", port: number) => `${scheme}://127.0.0.1:${port}/admin`;

/** Where the console opens when nothing else is known (the default port, plain HTTP: tests under app.handle()). */
export const defaultConsoleAddress = consoleAddressOn("http", 5000);

/** Why a client at `address` may not use the console under `mode`; null when it may. */
export function adminWebRefusal(mode: AdminWeb, address: string, consoleAddress: string): string | null {
  if (mode === "off") return adminWebMessages.off;
  if (mode === "local" && !isLoopback(address)) return adminWebMessages.local(consoleAddress);
  return null;
}

/** The refusal as the one error type (403), for the console's routes. */
export function assertAdminWeb(mode: AdminWeb, address: string, consoleAddress: string): void {
  const refusal = adminWebRefusal(mode, address, consoleAddress);
  if (refusal !== null) throw forbidden(refusal);
}
