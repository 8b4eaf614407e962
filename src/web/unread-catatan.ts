// How many of the lecturers' notes the signed-in student has not opened yet (decisions §13):
// shown in the menu and on Beranda, and counted again when the Catatan page opens them.
import { useEffect, useState } from "preact/hooks";
import { api } from "./api";
import type { Catatan } from "./types";

/** Whose count it is: another student may sign in on the same tab. */
type Count = { user: number; unread: number };

let latest: Count | null = null;
const listeners = new Set<(count: Count) => void>();

/** Counts again from the server; a failure leaves the last count (the menu is no place for an error). */
export async function countUnreadNotes(user: number): Promise<void> {
  try {
    const notes = await api.get<Catatan[]>("/api/mahasiswa/catatan");
    latest = { user, unread: notes.filter((note) => note.dibaca_mahasiswa_pada === null).length };
    for (const listener of listeners) listener(latest);
  } catch {
    // Offline or signed out: the count waits for the next page.
  }
}

/** The student `user`'s count as state of a component; null until known, and for staff (null `user`), who have no notes of their own. */
export function useUnreadNotes(user: number | null): number | null {
  const [count, setCount] = useState(latest);
  useEffect(() => {
    if (user === null) return;
    listeners.add(setCount);
    void countUnreadNotes(user);
    return () => void listeners.delete(setCount);
  }, [user]);
  return user !== null && count?.user === user ? count.unread : null;
}
