// Data saya's "who opened your data": the audit trail's entries, one card per person per
// day (`Dr. Rina Kartika (dosen), Kamis, 26 November 2026:`), each thing they did said once
// in plain words with how often (`melihat hasil skrining Anda, 3 kali`); the times are
// folded away under each card. The downloaded document keeps every entry as the server gave it.
import { formatDay, formatTime, localDate } from "../../format";
import { privacy } from "../../strings";
import type { StudentData } from "../../types";
import "./access-list.css";

const text = privacy.dataSaya;

type Access = StudentData["dilihat_oleh"][number];

/** One person's accesses on one day: what they did (each once, counted), and every entry. */
interface DayOfPerson {
  day: string;
  role: string;
  name: string | null;
  actions: { action: string; target: string; times: number }[];
  entries: Access[];
}

/** Newest first, as the entries come: a person's day where its newest entry is, each action where it first appears. */
export function groupAccesses(accesses: readonly Access[]): DayOfPerson[] {
  const groups = new Map<string, DayOfPerson>();
  for (const access of accesses) {
    const day = localDate(new Date(access.waktu));
    const key = JSON.stringify([day, access.peran, access.nama]);
    let group = groups.get(key);
    if (!group) {
      group = { day, role: access.peran, name: access.nama, actions: [], entries: [] };
      groups.set(key, group);
    }
    group.entries.push(access);
    // Routes that say the same thing are one line: the history and the latest result are both "hasil skrining".
    const words = text.did(access.aksi, access.rute, 1);
    const same = group.actions.find((each) => text.did(each.action, each.target, 1) === words);
    if (same) same.times += access.kali;
    else group.actions.push({ action: access.aksi, target: access.rute, times: access.kali });
  }
  return [...groups.values()];
}

export function AccessList({ accesses }: { accesses: StudentData["dilihat_oleh"] }) {
  const groups = groupAccesses(accesses);
  return (
    <ul class="entry-list access-list" aria-label={text.accessCaption(accesses.reduce((sum, access) => sum + access.kali, 0))}>
      {groups.map((group) => (
        <li key={`${group.day}-${group.role}-${group.name}`} class="entry">
          <p class="access-who">{text.whoOnDay(group.role, group.name, formatDay(group.day))}</p>
          <ul class="access-actions">
            {group.actions.map((each) => (
              <li key={`${each.action} ${each.target}`}>{text.did(each.action, each.target, each.times)}</li>
            ))}
          </ul>
          <details>
            <summary>{text.times(group.entries.length)}</summary>
            <ul class="access-times">
              {group.entries.map((entry, index) => (
                <li key={index}>{text.at(formatTime(entry.waktu), entry.aksi, entry.rute, entry.kali)}</li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ul>
  );
}
