import type { Database } from "bun:sqlite";

// The follow-up figures (decisions: Follow-up cases), one definition for the API's
// ringkasan, `stats export` and `followup report`. Every figure counts a case under its
// current owner and leaves out the cases of students whose processing is restricted. They
// are read from the timeline, so a reopened case keeps its earlier episodes:
// - an episode opens with an entry into `baru` from nothing or from `selesai`;
// - its first contact is the entry that leaves `baru` (to any other status);
// - days to first contact are the time between the two, in days.

const dayMilliseconds = 24 * 3600 * 1000;

/** A case open longer than this many days counts in `lebih_dari_7_hari`. */
export const overdueDays = 7;

export interface FollowUpFigures {
  terbuka: number;
  baru: number;
  lebih_dari_7_hari: number;
  median_hari_ke_kontak_pertama: number | null;
}

export interface WeeklyFigures {
  dibuka: number;
  dihubungi: number;
  dirujuk: number;
  selesai: number;
  terbuka_lebih_dari_7_hari: number;
  median_hari_ke_kontak_pertama: number | null;
}

/** The figures of one owner (a NIP, or null for the cases without one). */
export type ByOwner<Figures> = Map<string | null, Figures>;

/** Timeline entries of cases whose students are not restricted, with the case's owner. */
const countedEntries = `
  FROM tindak_lanjut_riwayat AS entry
  JOIN tindak_lanjut AS follow_up ON follow_up.Id_tindak_lanjut = entry.Id_tindak_lanjut
  JOIN mahasiswa AS student ON student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NULL`;

/** An entry that opens an episode. */
const opensEpisode = (entry: string) => `${entry}.status_ke = 'baru' AND ${entry}.status_dari IS NOT 'baru'`;

/** The median of the numbers, in days with one decimal; null for none. */
export function medianDays(days: readonly number[]): number | null {
  if (days.length === 0) return null;
  const sorted = [...days].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.round(median * 10) / 10;
}

function groupDays(rows: readonly { nip: string | null; days: number }[]): Map<string | null, number[]> {
  const byOwner = new Map<string | null, number[]>();
  for (const row of rows) byOwner.set(row.nip, [...(byOwner.get(row.nip) ?? []), row.days]);
  return byOwner;
}

export class FollowUpFiguresReader {
  constructor(private readonly sqlite: Database) {}

  /** Days from each episode's opening to its first contact, for contacts in [from, to) (ISO timestamps; null: unbounded). */
  private contactDays(from: string | null, to: string | null): Map<string | null, number[]> {
    const rows = this.sqlite
      .query<{ nip: string | null; days: number | null }, [string | null, string | null]>(
        `SELECT follow_up.NIP AS nip,
           julianday(entry.waktu) - julianday((
             SELECT opening.waktu FROM tindak_lanjut_riwayat AS opening
             WHERE opening.Id_tindak_lanjut = entry.Id_tindak_lanjut AND opening.id < entry.id AND ${opensEpisode("opening")}
             ORDER BY opening.id DESC LIMIT 1
           )) AS days
         ${countedEntries}
         WHERE entry.status_dari = 'baru' AND entry.status_ke <> 'baru' AND (?1 IS NULL OR entry.waktu >= ?1) AND (?2 IS NULL OR entry.waktu < ?2)`,
      )
      .all(from, to);
    // An episode's opening is always written before its contact; a timeline edited by hand may lack it.
    return groupDays(rows.flatMap((row) => (row.days === null ? [] : [{ nip: row.nip, days: row.days }])));
  }

  /** The current figures per owner at `now` (Unix milliseconds): open, new, open longer than 7 days, median days to first contact over all time. */
  current(now: number): ByOwner<FollowUpFigures> {
    const cutoff = new Date(now - overdueDays * dayMilliseconds).toISOString();
    const counts = this.sqlite
      .query<{ nip: string | null; terbuka: number; baru: number; lama: number }, [string]>(
        `SELECT follow_up.NIP AS nip,
           sum(follow_up.status <> 'selesai') AS terbuka,
           sum(follow_up.status = 'baru') AS baru,
           sum(follow_up.status <> 'selesai' AND follow_up.dibuka_pada < ?) AS lama
         FROM tindak_lanjut AS follow_up
         JOIN mahasiswa AS student ON student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NULL
         GROUP BY follow_up.NIP`,
      )
      .all(cutoff);
    const contacts = this.contactDays(null, null);
    const figures: ByOwner<FollowUpFigures> = new Map();
    for (const row of counts) {
      figures.set(row.nip, { terbuka: row.terbuka, baru: row.baru, lebih_dari_7_hari: row.lama, median_hari_ke_kontak_pertama: medianDays(contacts.get(row.nip) ?? []) });
    }
    return figures;
  }

  /** The same figures over every owner together. */
  currentTotal(now: number): FollowUpFigures {
    return total([...this.current(now).values()], medianDays([...this.contactDays(null, null).values()].flat()));
  }

  /**
   * One week [start, end) (Unix milliseconds) per owner: the episodes opened, the moves to
   * dihubungi, dirujuk and selesai in it, the cases open longer than 7 days at its end (or
   * at `now` for the current week), and the median days to first contact of the contacts in it.
   */
  week(start: number, end: number, now: number): { byOwner: ByOwner<WeeklyFigures>; contactDays: Map<string | null, number[]> } {
    const from = new Date(start).toISOString();
    const to = new Date(end).toISOString();
    const at = Math.min(end, now);
    const moves = this.sqlite
      .query<{ nip: string | null; dibuka: number; dihubungi: number; dirujuk: number; selesai: number }, [string, string]>(
        `SELECT follow_up.NIP AS nip,
           sum(${opensEpisode("entry")}) AS dibuka,
           sum(entry.status_ke = 'dihubungi' AND entry.status_dari IS NOT entry.status_ke) AS dihubungi,
           sum(entry.status_ke = 'dirujuk' AND entry.status_dari IS NOT entry.status_ke) AS dirujuk,
           sum(entry.status_ke = 'selesai' AND entry.status_dari IS NOT entry.status_ke) AS selesai
         ${countedEntries}
         WHERE entry.waktu >= ? AND entry.waktu < ?
         GROUP BY follow_up.NIP`,
      )
      .all(from, to);
    // A case was open at `at` when its last entry before then is not `selesai`; its episode
    // began at the last opening before then.
    const overdue = this.sqlite
      .query<{ nip: string | null; lama: number }, [string, string]>(
        `SELECT nip, count(*) AS lama FROM (
           SELECT follow_up.NIP AS nip,
             (SELECT last.status_ke FROM tindak_lanjut_riwayat AS last
              WHERE last.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND last.waktu < ?1 ORDER BY last.id DESC LIMIT 1) AS status,
             (SELECT opening.waktu FROM tindak_lanjut_riwayat AS opening
              WHERE opening.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND opening.waktu < ?1 AND ${opensEpisode("opening")}
              ORDER BY opening.id DESC LIMIT 1) AS opened
           FROM tindak_lanjut AS follow_up
           JOIN mahasiswa AS student ON student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NULL
         )
         WHERE status IS NOT NULL AND status <> 'selesai' AND opened < ?2
         GROUP BY nip`,
      )
      .all(new Date(at).toISOString(), new Date(at - overdueDays * dayMilliseconds).toISOString());
    const contactDays = this.contactDays(from, to);
    const owners = new Set<string | null>([...moves.map((row) => row.nip), ...overdue.map((row) => row.nip), ...contactDays.keys()]);
    const byOwner: ByOwner<WeeklyFigures> = new Map();
    for (const nip of owners) {
      const move = moves.find((row) => row.nip === nip);
      byOwner.set(nip, {
        dibuka: move?.dibuka ?? 0,
        dihubungi: move?.dihubungi ?? 0,
        dirujuk: move?.dirujuk ?? 0,
        selesai: move?.selesai ?? 0,
        terbuka_lebih_dari_7_hari: overdue.find((row) => row.nip === nip)?.lama ?? 0,
        median_hari_ke_kontak_pertama: medianDays(contactDays.get(nip) ?? []),
      });
    }
    return { byOwner, contactDays };
  }
}

export const emptyFigures = (): FollowUpFigures => ({ terbuka: 0, baru: 0, lebih_dari_7_hari: 0, median_hari_ke_kontak_pertama: null });

export const emptyWeeklyFigures = (): WeeklyFigures => ({
  dibuka: 0,
  dihubungi: 0,
  dirujuk: 0,
  selesai: 0,
  terbuka_lebih_dari_7_hari: 0,
  median_hari_ke_kontak_pertama: null,
});

/** A week's figures of every owner added up, with the median of all the week's contacts. */
export function weekTotal(rows: readonly WeeklyFigures[], contactDays: Map<string | null, number[]>): WeeklyFigures {
  const sum = (key: Exclude<keyof WeeklyFigures, "median_hari_ke_kontak_pertama">) => rows.reduce((total, row) => total + row[key], 0);
  return {
    dibuka: sum("dibuka"),
    dihubungi: sum("dihubungi"),
    dirujuk: sum("dirujuk"),
    selesai: sum("selesai"),
    terbuka_lebih_dari_7_hari: sum("terbuka_lebih_dari_7_hari"),
    median_hari_ke_kontak_pertama: medianDays([...contactDays.values()].flat()),
  };
}

/** The counts of several owners added up, with the median of all their contacts (a median does not add up). */
function total(rows: readonly FollowUpFigures[], median: number | null): FollowUpFigures {
  return {
    terbuka: rows.reduce((sum, row) => sum + row.terbuka, 0),
    baru: rows.reduce((sum, row) => sum + row.baru, 0),
    lebih_dari_7_hari: rows.reduce((sum, row) => sum + row.lebih_dari_7_hari, 0),
    median_hari_ke_kontak_pertama: median,
  };
}
