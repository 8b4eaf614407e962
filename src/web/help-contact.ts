// The faculty's help contact, kept in this browser so that the offline shell still shows
// whom to call (decisions §18): it is the same for everyone and personal to no one, so it
// is kept in localStorage, read again whenever the app starts online and whenever a page
// shows it.
import { api } from "./api";
import type { HelpContact } from "../content/help";

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
