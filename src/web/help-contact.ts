// The faculty's help contact, kept in this browser so that the offline shell still shows
// whom to call (decisions §18): it is the same for everyone and personal to no one, so it
// is kept in localStorage, read again at each sign-in and session resumed, and whenever a
// page shows it.
import { api } from "./api";
import type { HelpContact } from "../konten/help";

const keptKey = "skrining.bantuan";
export const helpContactPath = "/api/konten/bantuan";

/** The help contact from the server, kept for the offline shell. */
export async function fetchHelpContact(): Promise<HelpContact> {
  const help = await api.get<HelpContact>(helpContactPath);
  try {
    localStorage.setItem(keptKey, JSON.stringify(help));
  } catch {
    // A full or refused storage keeps the one kept before.
  }
  return help;
}

/**
 * Fetches the help contact to keep it, failing quietly; awaited beside the session's own
 * requests (src/web/session.ts), so that no request of it is still under way once the
 * first page shows.
 */
export const keepHelpContact = (): Promise<void> => fetchHelpContact().then(
  () => undefined,
  () => undefined,
);

/** The help contact as last fetched, or null when this browser has none (or a damaged copy). */
export function keptHelpContact(): HelpContact | null {
  try {
    const kept = JSON.parse(localStorage.getItem(keptKey) ?? "null") as Partial<HelpContact> | null;
    if (!kept || typeof kept.title !== "string" || typeof kept.text !== "string" || !Array.isArray(kept.telepon)) return null;
    return kept as HelpContact;
  } catch {
    return null;
  }
}
