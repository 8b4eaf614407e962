// A lecturer's first page (decisions §19, GET /api/dosen/hari-ini): what waits for them,
// shared by the page, the menu's counts and the landing (a lecturer with cases but no
// advisees lands on the cases). Asked again as the lecturer moves between pages.
import type { Static } from "elysia";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import type { TodayResponse } from "../modules/dosen/model";
import type { PageName } from "./routes";

export type Today = Static<typeof TodayResponse>;

/** Whose it is: another lecturer may sign in on the same tab. */
type Known = { user: number; today: Today | null };

let latest: Known | null = null;
const listeners = new Set<(known: Known) => void>();

/** Asks again; a failure keeps the last answer, or records that none came (the menu is no place for an error). */
export async function refreshToday(user: number): Promise<void> {
  let today: Today | null = latest?.user === user ? latest.today : null;
  try {
    today = await api.get<Today>("/api/dosen/hari-ini");
  } catch {
    // Offline or signed out: the counts wait for the next page.
  }
  latest = { user, today };
  for (const listener of listeners) listener(latest);
}

/**
 * The lecturer `user`'s page as state of a component, asked again whenever `round` changes
 * (the page shown); undefined until the first answer, null when none came. Null `user`: not
 * a lecturer (admins have no first page of their own).
 */
export function useToday(user: number | null, round: unknown = null): Today | null | undefined {
  const [known, setKnown] = useState(latest);
  useEffect(() => {
    if (user === null) return;
    listeners.add(setKnown);
    return () => void listeners.delete(setKnown);
  }, [user]);
  useEffect(() => {
    if (user !== null) void refreshToday(user);
  }, [user, round]);
  if (user === null || known?.user !== user) return undefined;
  return known.today;
}

/** What waits in the menu: on the first page everything to act on, on the cases the cases. */
export function waitingCounts(today: Today | null | undefined): { hariIni: number; tindakLanjut: number } {
  const jumlah = today?.jumlah;
  if (!jumlah) return { hariIni: 0, tindakLanjut: 0 };
  return { hariIni: jumlah.kasus + jumlah.baru_ditutup + jumlah.balasan, tindakLanjut: jumlah.kasus + jumlah.baru_ditutup };
}

/** Where a lecturer lands: their cases when they have cases but no advisees (a counsellor), else the first page. */
export function lecturerHome(today: Today | null | undefined): PageName {
  return today && today.jumlah.bimbingan === 0 && today.jumlah.ditangani > 0 ? "tindakLanjut" : "hariIni";
}
