import type { AdminWeb } from "../config";
import { forbidden } from "../errors";
import { isLoopback } from "../machine";

// Where the admin console answers (`serve --admin-web`, decisions: Admin console): by
// default only to the PC that runs skrining, so that a password guessed or read on the
// campus network does not open the faculty's administration to the whole LAN.

/** The console's routes; its pages are those of src/web/routes.ts with the role `admin`. */
export const adminApiPrefix = "/api/admin";

export const adminWebMessages = {
  local:
    "Konsol admin hanya dapat dibuka dari PC tempat skrining berjalan (serve --admin-web local). Bukalah di PC itu lewat http://127.0.0.1, " +
    "atau jalankan ulang serve dengan --admin-web lan agar konsol dapat dibuka dari jaringan kampus.",
  off: "Konsol admin dimatikan (serve --admin-web off). Pakai perintah skrining di PC server, atau jalankan ulang serve dengan --admin-web local.",
} as const;

/** Why a client at `address` may not use the console under `mode`; null when it may. */
export function adminWebRefusal(mode: AdminWeb, address: string): string | null {
  if (mode === "off") return adminWebMessages.off;
  if (mode === "local" && !isLoopback(address)) return adminWebMessages.local;
  return null;
}

/** The refusal as the one error type (403), for the console's routes. */
export function assertAdminWeb(mode: AdminWeb, address: string): void {
  const refusal = adminWebRefusal(mode, address);
  if (refusal !== null) throw forbidden(refusal);
}
