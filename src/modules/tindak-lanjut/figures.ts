import type { Database } from "bun:sqlite";
import { closingReasons, contactOutcomes } from "./moves";

// The follow-up figures (decisions: Follow-up cases), one definition for the API's
// ringkasan, `stats export` and `followup report`. Every figure counts a case under its
// current owner and leaves out the cases of students whose processing is restricted. They
// are read from the timeline, so a reopened case keeps its earlier episodes:
// - an episode opens with an entry into `baru` from nothing or from `selesai`;
// - a contact attempt is an entry into `dihubungi` with its outcome (decisions §19), or a
//   move into `dihubungi` recorded before outcomes were asked for (its form said "saya
//   sudah berbicara dengan mahasiswa");
// - its first contact is its first attempt that reached the student (`berhasil`,
//   `dijadwalkan`, or such an earlier move); a referral or a closing is none;
// - days to first contact are the time between the opening and the first contact, in days;
// - an open case is late (`terlambat`) when its episode has had no first contact for the
//   contact target's days (`serve --follow-up-contact-days`, 3 by default), or (decisions
//   §20) when a critical answer asked for a contact the same day and none that reached the
//   student followed before that day ended.

const dayMilliseconds = 24 * 3600 * 1000;

/** A case open longer than this many days counts in `lebih_dari_7_hari`. */
export const overdueDays = 7;

export interface TindakLanjutFigures {
  terbuka: number;
  baru: number;
  lebih_dari_7_hari: number;
  terlambat: number;
  median_hari_ke_kontak_pertama: number | null;
}

/** A week's counts of each contact outcome and each closing reason (null reasons: closings recorded before reasons were asked for). */
export const weeklyOutcomeKeys = [
  "kontak_berhasil",
  "kontak_tidak_merespons",
  "kontak_dijadwalkan",
  "selesai_teratasi",
  "selesai_dirujuk_layanan_konseling",
  "selesai_tidak_merespons",
  "selesai_mahasiswa_menolak",
  "selesai_lainnya",
  "selesai_tidak_dicatat",
] as const;
type WeeklyOutcomes = Record<(typeof weeklyOutcomeKeys)[number], number>;

export interface WeeklyFigures extends WeeklyOutcomes {
  dibuka: number;
  dihubungi: number;
  dirujuk: number;
  selesai: number;
  terbuka_lebih_dari_7_hari: number;
  terlambat: number;
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
export const opensEpisode = (entry: string) => `${entry}.status_ke = 'baru' AND ${entry}.status_dari IS NOT 'baru'`;

/** A contact attempt: an entry into `dihubungi` with its outcome, or a move into it recorded before outcomes were. */
export const isContactAttempt = (entry: string) =>
  `(${entry}.status_ke = 'dihubungi' AND (${entry}.hasil_kontak IS NOT NULL OR ${entry}.status_dari IS NOT 'dihubungi'))`;

/** An attempt that reached the student: the first of an episode is its first contact. */
export const reachesStudent = (entry: string) =>
  `(${entry}.status_ke = 'dihubungi' AND (${entry}.hasil_kontak IN ('berhasil', 'dijadwalkan') OR (${entry}.hasil_kontak IS NULL AND ${entry}.status_dari IS NOT 'dihubungi')))`;

/** The id of the entry that opened the episode of `entry` (or of the case's current episode, with no upper bound). */
export const episodeOpening = (caseId: string, before: string | null) =>
  `coalesce((SELECT opening.id FROM tindak_lanjut_riwayat AS opening WHERE opening.Id_tindak_lanjut = ${caseId}${before === null ? "" : ` AND opening.id < ${before}`} AND ${opensEpisode("opening")} ORDER BY opening.id DESC LIMIT 1), 0)`;

/**
 * A case late at the moment `now` (ISO) whose cutoff (that moment less the target's days) is
 * `cutoff`: not reached in its episode by the target, or (decisions §20) its same-day target
 * passed without a contact that reached the student (a reaching contact clears the target).
 */
export const isOverdue = (followUp: string, cutoff: string, now: string) =>
  `(${followUp}.status <> 'selesai' AND ((${followUp}.pertama_dihubungi_pada IS NULL AND ${followUp}.dibuka_pada <= ${cutoff}) OR coalesce(${followUp}.batas_kontak_segera <= ${now}, 0)))`;

/** Decisions §20: an open case with a same-day contact still owed (a critical answer). */
export const isUrgent = (followUp: string) => `(${followUp}.status <> 'selesai' AND ${followUp}.batas_kontak_segera IS NOT NULL)`;

/** The moment `days` before `now` (Unix milliseconds), as stored timestamps compare with it. */
export const daysBefore = (now: number, days: number) => new Date(now - days * dayMilliseconds).toISOString();

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

export class TindakLanjutFiguresReader {
  /** `contactDays`: the contact target (decisions §19), after which an open case not reached is late. */
  constructor(
    private readonly sqlite: Database,
    private readonly contactDays: number,
  ) {}

  /** Days from each episode's opening to its first contact, for first contacts in [from, to) (ISO timestamps; null: unbounded). */
  private firstContactDays(from: string | null, to: string | null): Map<string | null, number[]> {
    const rows = this.sqlite
      .query<{ nip: string | null; days: number }, [string | null, string | null]>(
        `SELECT contact.nip AS nip, julianday(contact.waktu) - julianday(opening.waktu) AS days FROM (
           SELECT follow_up.NIP AS nip, entry.id AS id, entry.Id_tindak_lanjut AS caseId, entry.waktu AS waktu, ${episodeOpening("entry.Id_tindak_lanjut", "entry.id")} AS openingId
           ${countedEntries}
           WHERE ${reachesStudent("entry")} AND (?1 IS NULL OR entry.waktu >= ?1) AND (?2 IS NULL OR entry.waktu < ?2)
         ) AS contact
         -- An episode's opening is always written before its contact; a timeline edited by hand may lack it.
         JOIN tindak_lanjut_riwayat AS opening ON opening.id = contact.openingId
         WHERE NOT EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS earlier
           WHERE earlier.Id_tindak_lanjut = contact.caseId AND earlier.id > contact.openingId AND earlier.id < contact.id AND ${reachesStudent("earlier")})`,
      )
      .all(from, to);
    return groupDays(rows);
  }

  /** The current figures per owner at `now` (Unix milliseconds): open, new, open longer than 7 days, late, median days to first contact over all time. */
  current(now: number): ByOwner<TindakLanjutFigures> {
    const counts = this.sqlite
      .query<{ nip: string | null; terbuka: number; baru: number; lama: number; terlambat: number }, [string, string, string]>(
        `SELECT follow_up.NIP AS nip,
           sum(follow_up.status <> 'selesai') AS terbuka,
           sum(follow_up.status = 'baru') AS baru,
           sum(follow_up.status <> 'selesai' AND follow_up.dibuka_pada < ?1) AS lama,
           sum(${isOverdue("follow_up", "?2", "?3")}) AS terlambat
         FROM tindak_lanjut AS follow_up
         JOIN mahasiswa AS student ON student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NULL
         GROUP BY follow_up.NIP`,
      )
      .all(daysBefore(now, overdueDays), daysBefore(now, this.contactDays), new Date(now).toISOString());
    const contacts = this.firstContactDays(null, null);
    const figures: ByOwner<TindakLanjutFigures> = new Map();
    for (const row of counts) {
      figures.set(row.nip, {
        terbuka: row.terbuka,
        baru: row.baru,
        lebih_dari_7_hari: row.lama,
        terlambat: row.terlambat,
        median_hari_ke_kontak_pertama: medianDays(contacts.get(row.nip) ?? []),
      });
    }
    return figures;
  }

  /** The same figures over every owner together. */
  currentTotal(now: number): TindakLanjutFigures {
    return total([...this.current(now).values()], medianDays([...this.firstContactDays(null, null).values()].flat()));
  }

  /**
   * One week [start, end) (Unix milliseconds) per owner: the episodes opened, the moves to
   * dihubungi, dirujuk and selesai in it, each contact outcome and closing reason, the cases
   * open longer than 7 days and those late for their first contact at its end (or at `now`
   * for the current week), and the median days to first contact of the first contacts in it.
   */
  week(start: number, end: number, now: number): { byOwner: ByOwner<WeeklyFigures>; contactDays: Map<string | null, number[]> } {
    const from = new Date(start).toISOString();
    const to = new Date(end).toISOString();
    const at = Math.min(end, now);
    const closing = "entry.status_ke = 'selesai' AND entry.status_dari IS NOT entry.status_ke";
    // A comparison with a null column is null, and so is the sum of nulls only: coalesced to a count.
    const closedAs = (reason: string) => `sum(coalesce(${closing} AND entry.alasan_selesai = '${reason}', 0)) AS selesai_${reason}`;
    const moves = this.sqlite
      .query<{ nip: string | null; dibuka: number; dihubungi: number; dirujuk: number; selesai: number } & WeeklyOutcomes, [string, string]>(
        `SELECT follow_up.NIP AS nip,
           sum(${opensEpisode("entry")}) AS dibuka,
           sum(entry.status_ke = 'dihubungi' AND entry.status_dari IS NOT entry.status_ke) AS dihubungi,
           sum(entry.status_ke = 'dirujuk' AND entry.status_dari IS NOT entry.status_ke) AS dirujuk,
           sum(${closing}) AS selesai,
           ${contactOutcomes.map((outcome) => `sum(coalesce(entry.hasil_kontak = '${outcome}', 0)) AS kontak_${outcome}`).join(", ")},
           ${closingReasons.map(closedAs).join(", ")},
           sum(${closing} AND entry.alasan_selesai IS NULL) AS selesai_tidak_dicatat
         ${countedEntries}
         WHERE entry.waktu >= ? AND entry.waktu < ?
         GROUP BY follow_up.NIP`,
      )
      .all(from, to);
    // A case was open at `at` when its last entry before then is not `selesai`; its episode
    // began at the last opening before then, and was reached when an attempt of it before
    // then reached the student. A same-day target set in the episode (decisions §20) was
    // missed when it passed before then with no reaching attempt after the entry that set it.
    const overdue = this.sqlite
      .query<{ nip: string | null; lama: number; terlambat: number }, [string, string, string]>(
        `SELECT nip, sum(opened < ?2) AS lama, sum((opened <= ?3 AND NOT reached) OR urgentMissed) AS terlambat FROM (
           SELECT nip, status, opening.waktu AS opened,
             EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS contact
               WHERE contact.Id_tindak_lanjut = caseId AND contact.id > openingId AND contact.waktu < ?1 AND ${reachesStudent("contact")}) AS reached,
             EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS urgent
               WHERE urgent.Id_tindak_lanjut = caseId AND urgent.id >= openingId AND urgent.waktu < ?1 AND urgent.batas_kontak_segera <= ?1
                 AND NOT EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS contact
                   WHERE contact.Id_tindak_lanjut = caseId AND contact.id > urgent.id AND contact.waktu < ?1 AND ${reachesStudent("contact")})) AS urgentMissed
           FROM (
             SELECT follow_up.NIP AS nip, follow_up.Id_tindak_lanjut AS caseId,
               (SELECT last.status_ke FROM tindak_lanjut_riwayat AS last
                WHERE last.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND last.waktu < ?1 ORDER BY last.id DESC LIMIT 1) AS status,
               (SELECT opening.id FROM tindak_lanjut_riwayat AS opening
                WHERE opening.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND opening.waktu < ?1 AND ${opensEpisode("opening")}
                ORDER BY opening.id DESC LIMIT 1) AS openingId
             FROM tindak_lanjut AS follow_up
             JOIN mahasiswa AS student ON student.NIM = follow_up.NIM AND student.dibatasi_sejak IS NULL
           ) JOIN tindak_lanjut_riwayat AS opening ON opening.id = openingId
         )
         WHERE status IS NOT NULL AND status <> 'selesai'
         GROUP BY nip`,
      )
      .all(new Date(at).toISOString(), daysBefore(at, overdueDays), daysBefore(at, this.contactDays));
    const contactDays = this.firstContactDays(from, to);
    const owners = new Set<string | null>([...moves.map((row) => row.nip), ...overdue.map((row) => row.nip), ...contactDays.keys()]);
    const byOwner: ByOwner<WeeklyFigures> = new Map();
    for (const nip of owners) {
      const { nip: _owner, ...counts } = moves.find((row) => row.nip === nip) ?? { nip };
      const late = overdue.find((row) => row.nip === nip);
      byOwner.set(nip, {
        ...emptyWeeklyFigures(),
        ...counts,
        terbuka_lebih_dari_7_hari: late?.lama ?? 0,
        terlambat: late?.terlambat ?? 0,
        median_hari_ke_kontak_pertama: medianDays(contactDays.get(nip) ?? []),
      });
    }
    return { byOwner, contactDays };
  }
}

export const emptyFigures = (): TindakLanjutFigures => ({ terbuka: 0, baru: 0, lebih_dari_7_hari: 0, terlambat: 0, median_hari_ke_kontak_pertama: null });

export const emptyWeeklyFigures = (): WeeklyFigures => ({
  dibuka: 0,
  dihubungi: 0,
  dirujuk: 0,
  selesai: 0,
  ...(Object.fromEntries(weeklyOutcomeKeys.map((key) => [key, 0])) as WeeklyOutcomes),
  terbuka_lebih_dari_7_hari: 0,
  terlambat: 0,
  median_hari_ke_kontak_pertama: null,
});

/** Each count of the rows added up; the median is the caller's (a median does not add up). */
function sums<Figures extends { median_hari_ke_kontak_pertama: number | null }>(rows: readonly Figures[], empty: Figures, median: number | null): Figures {
  const total: Record<string, unknown> = { ...empty };
  for (const key of Object.keys(empty)) if (key !== "median_hari_ke_kontak_pertama") total[key] = rows.reduce((sum, row) => sum + (row[key as keyof Figures] as number), 0);
  return { ...(total as Figures), median_hari_ke_kontak_pertama: median };
}

/** A week's figures of every owner added up, with the median of all the week's first contacts. */
export function weekTotal(rows: readonly WeeklyFigures[], contactDays: Map<string | null, number[]>): WeeklyFigures {
  return sums(rows, emptyWeeklyFigures(), medianDays([...contactDays.values()].flat()));
}

/** The counts of several owners added up, with the median of all their first contacts. */
function total(rows: readonly TindakLanjutFigures[], median: number | null): TindakLanjutFigures {
  return sums(rows, emptyFigures(), median);
}
