import type { Database } from "bun:sqlite";
import type { DatabaseClient } from "../../db";
import type { TindakLanjutStatus } from "../../db/schema";
import type { Principal } from "../../requests/principal";
import { NewReplies } from "../catatan/new-replies";
import { daysBefore, episodeOpening, isContactAttempt, isOverdue, isUrgent } from "./figures";
import type { CaseReason, ClosingReason, ContactOutcome } from "./moves";

// A follow-up case as the lecturers' routes read it (decisions §13 and §19): its row with
// the student, the handler and the advisor, what the caller sees of it (may change it, late,
// newly closed, new replies), and its timeline with the people's names.

const dayMilliseconds = 24 * 3600 * 1000;

export interface CaseRow {
  id: number;
  nim: string;
  namaMahasiswa: string | null;
  /** The handler (penangan). */
  nip: string | null;
  namaDosen: string | null;
  /** The student's advisor (dosen wali) now. */
  advisorNip: string | null;
  advisorName: string | null;
  early: number;
  sudden: number;
  veryHigh: number;
  studentRequest: number;
  reliablyWorse: number;
  critical: number;
  /** Decisions §20: the same-day contact target still owed. */
  batasKontakSegera: string | null;
  status: TindakLanjutStatus;
  dibukaPada: string;
  pertamaDihubungiPada: string | null;
  ditutupPada: string | null;
  diperbaruiPada: string;
  alasanSelesai: ClosingReason | null;
  perluDukungan: number | null;
  restrictedAt: string | null;
  /** Computed for the moment and the caller the query was given (`cutoff`, `now`, `nip`). */
  overdue: number;
  urgent: number;
  newlyClosed: number;
  attempts: number;
  requestWaiting: number;
}

/** The parameters every case query takes: the caller as a lecturer (null for an admin), the moment and the contact target's cutoff. */
export type CaseParameters = { nip: string | null; cutoff: string; now: string } & Record<string, string | number | null>;

/**
 * Decisions §19: an open case whose student asked to be contacted and on which nobody on the
 * staff has written since (a lecturer's or an admin's entry; the service's own are none).
 */
export const requestWaiting = `(follow_up.status <> 'selesai' AND EXISTS (
    SELECT 1 FROM permintaan_kontak AS request WHERE request.NIM = follow_up.NIM AND request.Id_tindak_lanjut = follow_up.Id_tindak_lanjut
      AND NOT EXISTS (SELECT 1 FROM tindak_lanjut_riwayat AS answer JOIN users AS staff ON staff.Id_User = answer.Id_User AND staff.role <> 'mahasiswa'
        WHERE answer.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND answer.waktu >= request.waktu)))`;

export const caseColumns = `
  follow_up.Id_tindak_lanjut AS id, follow_up.NIM AS nim, student.nama_mahasiswa AS namaMahasiswa,
  follow_up.NIP AS nip, lecturer.nama_dosen AS namaDosen, student.NIP_doswal AS advisorNip, advisor.nama_dosen AS advisorName,
  follow_up.alasan_early_warning AS early, follow_up.alasan_perubahan_mendadak AS sudden, follow_up.alasan_stres_sangat_tinggi AS veryHigh,
  follow_up.alasan_permintaan_mahasiswa AS studentRequest, follow_up.alasan_memburuk_andal AS reliablyWorse, follow_up.alasan_butir_kritis AS critical,
  follow_up.batas_kontak_segera AS batasKontakSegera, follow_up.status AS status,
  follow_up.dibuka_pada AS dibukaPada, follow_up.pertama_dihubungi_pada AS pertamaDihubungiPada,
  follow_up.ditutup_pada AS ditutupPada, follow_up.diperbarui_pada AS diperbaruiPada,
  follow_up.alasan_selesai AS alasanSelesai, follow_up.perlu_dukungan AS perluDukungan, student.dibatasi_sejak AS restrictedAt,
  ${isOverdue("follow_up", "$cutoff", "$now")} AS overdue,
  ${isUrgent("follow_up")} AS urgent,
  ${newlyClosedFor("$nip")} AS newlyClosed,
  (SELECT count(*) FROM tindak_lanjut_riwayat AS entry
   WHERE entry.Id_tindak_lanjut = follow_up.Id_tindak_lanjut AND ${isContactAttempt("entry")}
     AND entry.id > ${episodeOpening("follow_up.Id_tindak_lanjut", null)}) AS attempts,
  ${requestWaiting} AS requestWaiting`;

export const caseSource = `
  FROM tindak_lanjut AS follow_up
  JOIN mahasiswa AS student ON student.NIM = follow_up.NIM
  LEFT JOIN dosen AS lecturer ON lecturer.NIP = follow_up.NIP
  LEFT JOIN dosen AS advisor ON advisor.NIP = student.NIP_doswal`;

/** Decisions §19: a closed case is news for the student's advisor, when someone else handled it, until they open it. */
export function newlyClosedFor(nip: string): string {
  return `coalesce(follow_up.status = 'selesai' AND student.NIP_doswal = ${nip} AND follow_up.NIP IS NOT ${nip} AND follow_up.ditutup_dilihat_doswal_pada IS NULL, 0)`;
}

/**
 * Decisions §13: an open case is changed by its handler, a closed one reopened by the
 * student's current advisor; admins do both. Nobody changes a restricted student's case.
 */
export function mayChange(principal: Principal, row: CaseRow): boolean {
  if (row.restrictedAt !== null) return false;
  if (principal.role === "admin") return true;
  const responsible = row.status === "selesai" ? row.advisorNip : row.nip;
  return principal.role === "dosen" && principal.nip !== null && responsible === principal.nip;
}

/** The stored judgement (1, 0, null) in the words of the status body. */
const judgement = (value: number | null) => (value === null ? null : value === 1 ? "ya" : "tidak");

/**
 * A case as the API answers it to `principal`; of a restricted student's case the reasons
 * are withheld. `newReplies`: the student's replies new for the caller.
 */
export function serializeCase(row: CaseRow, now: number, principal: Principal, contactDays: number, newReplies: number) {
  const restricted = row.restrictedAt !== null;
  const reasons: [CaseReason, number][] = [
    ["early_warning", row.early],
    ["perubahan_mendadak", row.sudden],
    ["stres_sangat_tinggi", row.veryHigh],
    ["permintaan_mahasiswa", row.studentRequest],
    ["memburuk_andal", row.reliablyWorse],
    ["butir_kritis", row.critical],
  ];
  const end = row.ditutupPada === null ? now : Date.parse(row.ditutupPada);
  return {
    id: row.id,
    NIM: row.nim,
    nama_mahasiswa: row.namaMahasiswa,
    NIP: row.nip,
    nama_dosen: row.namaDosen,
    alasan: restricted ? [] : reasons.filter(([, flag]) => flag === 1).map(([reason]) => reason),
    status: row.status,
    dibuka_pada: row.dibukaPada,
    pertama_dihubungi_pada: row.pertamaDihubungiPada,
    ditutup_pada: row.ditutupPada,
    diperbarui_pada: row.diperbaruiPada,
    hari_terbuka: Math.max(0, Math.floor((end - Date.parse(row.dibukaPada)) / dayMilliseconds)),
    dibatasi: restricted,
    NIP_doswal: row.advisorNip,
    nama_doswal: row.advisorName,
    dapat_diubah: mayChange(principal, row),
    batas_kontak_pada: row.urgent === 1 ? row.batasKontakSegera! : new Date(Date.parse(row.dibukaPada) + contactDays * dayMilliseconds).toISOString(),
    terlambat: row.overdue === 1,
    segera: row.urgent === 1,
    percobaan_kontak: row.attempts,
    alasan_selesai: row.alasanSelesai,
    perlu_dukungan: judgement(row.perluDukungan),
    baru_ditutup: row.newlyClosed === 1,
    balasan_baru: newReplies,
    permintaan_menunggu: row.requestWaiting === 1,
  };
}

export type SerializedCase = ReturnType<typeof serializeCase>;

/** One timeline entry as stored, with its author's name now and what kind of entry it is. */
export interface TimelineEntry {
  jenis: "dibuka" | "status" | "percobaan_kontak" | "permintaan_mahasiswa" | "penangan" | "butir_kritis";
  status_dari: TindakLanjutStatus | null;
  status_ke: TindakLanjutStatus;
  catatan: string;
  oleh: string;
  waktu: string;
  hasil_kontak: ContactOutcome | null;
  alasan_selesai: ClosingReason | null;
  perlu_dukungan: "ya" | "tidak" | null;
}

/** How the timeline names an admin: an account without a profile has no name of its own. */
export const adminAuthor = "Admin fakultas";

/**
 * The cases as a caller reads them: by id, a student's open one, a page; each serialized with
 * the replies new for the caller (one query per answer, whatever its size).
 */
export class CaseReader {
  private readonly caseById;
  private readonly openCaseOf;
  private readonly timelineOf;
  private readonly needing;
  private readonly needingCount;
  private readonly closedNews;
  private readonly newReplies: NewReplies;

  constructor(
    db: DatabaseClient,
    private readonly contactDays: number,
  ) {
    const sqlite: Database = db.$client;
    this.caseById = sqlite.prepare<CaseRow, [CaseParameters & { id: number }]>(`SELECT ${caseColumns} ${caseSource} WHERE follow_up.Id_tindak_lanjut = $id`);
    this.openCaseOf = sqlite.prepare<CaseRow, [CaseParameters & { nim: string }]>(
      `SELECT ${caseColumns} ${caseSource} WHERE follow_up.NIM = $nim AND follow_up.status <> 'selesai'`,
    );
    // Decisions §19: people by their names now (a lecturer's or a student's profile), an admin as the faculty's admin; the stored name when the account is gone.
    this.timelineOf = sqlite.prepare<Omit<TimelineEntry, "perlu_dukungan"> & { perlu_dukungan: number | null }, [number]>(
      `SELECT
         CASE WHEN entry.status_dari IS NULL THEN 'dibuka'
              WHEN entry.status_dari <> entry.status_ke THEN 'status'
              WHEN entry.hasil_kontak IS NOT NULL THEN 'percobaan_kontak'
              WHEN entry.batas_kontak_segera IS NOT NULL THEN 'butir_kritis'
              WHEN author.role = 'mahasiswa' THEN 'permintaan_mahasiswa'
              ELSE 'penangan' END AS jenis,
         entry.status_dari, entry.status_ke, entry.catatan, entry.waktu, entry.hasil_kontak, entry.alasan_selesai, entry.perlu_dukungan,
         CASE WHEN author.role = 'admin' THEN '${adminAuthor}'
              ELSE coalesce(nullif(lecturer.nama_dosen, ''), nullif(student.nama_mahasiswa, ''), 'Dosen ' || lecturer.NIP, 'Mahasiswa ' || student.NIM, entry.nama) END AS oleh
       FROM tindak_lanjut_riwayat AS entry
       LEFT JOIN users AS author ON author.Id_User = entry.Id_User
       LEFT JOIN dosen AS lecturer ON lecturer.Id_User = entry.Id_User
       LEFT JOIN mahasiswa AS student ON student.Id_User = entry.Id_User
       WHERE entry.Id_tindak_lanjut = ? ORDER BY entry.id`,
    );
    // Decisions §19, a lecturer's first page: the open cases they handle that wait for them (late, new, or a request waiting), the late first.
    const waiting = `FROM tindak_lanjut AS follow_up JOIN mahasiswa AS student ON student.NIM = follow_up.NIM
      WHERE follow_up.NIP = $nip AND follow_up.status <> 'selesai' AND student.dibatasi_sejak IS NULL
        AND (follow_up.status = 'baru' OR ${isOverdue("follow_up", "$cutoff", "$now")} OR ${isUrgent("follow_up")} OR ${requestWaiting})`;
    this.needing = sqlite.prepare<CaseRow, [CaseParameters]>(
      `SELECT ${caseColumns} ${caseSource} WHERE follow_up.Id_tindak_lanjut IN (SELECT follow_up.Id_tindak_lanjut ${waiting})
       ORDER BY overdue DESC, urgent DESC, requestWaiting DESC, follow_up.dibuka_pada, follow_up.Id_tindak_lanjut LIMIT $limit`,
    );
    this.needingCount = sqlite.prepare<{ n: number }, [CaseParameters]>(`SELECT count(*) AS n ${waiting}`);
    // The closed cases of their advisees that are news for them (the handler was someone else).
    this.closedNews = sqlite.prepare<CaseRow, [CaseParameters]>(
      `SELECT ${caseColumns} ${caseSource}
       WHERE student.NIP_doswal = $nip AND follow_up.status = 'selesai' AND student.dibatasi_sejak IS NULL AND ${newlyClosedFor("$nip")}
       ORDER BY follow_up.ditutup_pada DESC, follow_up.Id_tindak_lanjut`,
    );
    this.newReplies = new NewReplies(db);
  }

  /** The open cases a lecturer handles that wait for them: the first `limit`, and how many there are. */
  waitingFor(principal: Principal, now: number, limit: number): { cases: SerializedCase[]; total: number } {
    const parameters = { ...this.parameters(principal, now), limit };
    return { cases: this.serialize(this.needing.all(parameters), principal, now), total: this.needingCount.get(parameters)!.n };
  }

  /** The closed cases that are news for a lecturer as the students' advisor, the last closed first. */
  closedNewsFor(principal: Principal, now: number): SerializedCase[] {
    return this.serialize(this.closedNews.all(this.parameters(principal, now)), principal, now);
  }

  /** The parameters of a case query for this caller at `now`. */
  parameters(principal: Principal, now: number): CaseParameters {
    return { nip: principal.role === "dosen" ? principal.nip : null, cutoff: daysBefore(now, this.contactDays), now: new Date(now).toISOString() };
  }

  byId(id: number, principal: Principal, now: number): CaseRow | undefined {
    return this.caseById.get({ ...this.parameters(principal, now), id }) ?? undefined;
  }

  openOf(nim: string, principal: Principal, now: number): CaseRow | undefined {
    return this.openCaseOf.get({ ...this.parameters(principal, now), nim }) ?? undefined;
  }

  /** The rows as the caller reads them, with the replies new for them counted in one query. */
  serialize(rows: readonly CaseRow[], principal: Principal, now: number): SerializedCase[] {
    const nip = principal.role === "dosen" ? principal.nip : null;
    const replies = this.newReplies.countsFor(nip, [...new Set(rows.map((row) => row.nim))]);
    return rows.map((row) => serializeCase(row, now, principal, this.contactDays, row.restrictedAt === null ? (replies.get(row.nim) ?? 0) : 0));
  }

  timeline(caseId: number): TimelineEntry[] {
    return this.timelineOf.all(caseId).map((entry) => ({ ...entry, perlu_dukungan: judgement(entry.perlu_dukungan) }));
  }
}

/** The student's open case, as the lecturer's detail of the student shows it. */
export class OpenCaseReader {
  constructor(private readonly cases: CaseReader) {}

  /** Null when the student has no open case, and while the student's processing is restricted. */
  of(nim: string, principal: Principal) {
    const now = Date.now();
    const row = this.cases.openOf(nim, principal, now);
    return row && row.restrictedAt === null ? this.cases.serialize([row], principal, now)[0]! : null;
  }
}
