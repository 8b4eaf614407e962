// Whether the admin console answers this browser (serve --admin-web, issue 44 item 11):
// under `local` an admin signed in at a LAN PC would otherwise see "Konsol admin" in the
// menu and console pages whose every form fails. Asked once per admin and page load; the
// server's refusal names the console's whole address on the campus PC.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "./api";

/** `open`, or closed with the server's reason; null until known (and for other roles). */
export type ConsoleReach = { open: true } | { open: false; reason: string };

let known: { user: number; reach: ConsoleReach } | null = null;

export function useConsoleReach(user: { Id_User: number; role: string } | undefined): ConsoleReach | null {
  const admin = user?.role === "admin" ? user.Id_User : null;
  const [reach, setReach] = useState<ConsoleReach | null>(known && known.user === admin ? known.reach : null);
  useEffect(() => {
    if (admin === null || (known && known.user === admin)) return;
    let current = true;
    api.get<{ alamat: string }>("/api/admin/konsol").then(
      () => {
        known = { user: admin, reach: { open: true } };
        if (current) setReach(known.reach);
      },
      (error: unknown) => {
        // Only the console's own refusal closes it; offline, the menu keeps its link.
        if (!(error instanceof ApiError) || error.status !== 403 || typeof error.body.error !== "string") return;
        known = { user: admin, reach: { open: false, reason: error.body.error } };
        if (current) setReach(known.reach);
      },
    );
    return () => {
      current = false;
    };
  }, [admin]);
  return admin === null ? null : reach;
}
