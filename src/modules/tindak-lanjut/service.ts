import type { Database } from "bun:sqlite";
import type { DatabaseClient } from "../../db";
import { earlyWarning, spikeThreshold } from "../../db/summaries";
import { followUpStatuses, type FollowUpStatus } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { conflict, forbidden, invalid, notFound } from "../../errors";
import { type JsonObject, pathId, exceedsCharacters, readKey } from "../../requests/values";
import { accessMessages } from "../../requests/ownership";
import { AdvisorScope } from "../../privacy/advisor-scope";
import { readPagination, totalPages } from "../../requests/pagination";
import type { Principal } from "../../requests/principal";
import { restrictionMessages } from "../../privacy/restriction";
import { nowIso } from "../../records";
import type { Level } from "../../screening/scoring";
import { FollowUpFiguresReader, emptyFigures, type FollowUpFigures } from "./figures";
import { allowedMoves, caseNoteMaxLength } from "./moves";

export const followUpMessages = {
  caseUnknown: "Tindak lanjut tidak ditemukan.",
  badStatus: `status harus salah satu dari: ${followUpStatuses.join(", ")}.`,
  badStatusFilter: `Filter status hanya boleh berisi: ${followUpStatuses.join(", ")}.`,
  badMinHari: "min_hari harus bilangan bulat 0 atau lebih.",
  noteRequired: "catatan wajib diisi.",
  noteTooLong: "catatan paling banyak 2000 karakter.",
  moveRefused: (from: FollowUpStatus, to: FollowUpStatus) => `Status tidak dapat diubah dari ${from} ke ${to}.`,
  anotherOpen: "Mahasiswa ini sudah memiliki tindak lanjut lain yang masih terbuka; kasus ini tidak dapat dibuka kembali.",
  nipRequired: "NIP wajib diisi.",
  lecturerUnknown: "Dosen tidak ditemukan.",
  handlerOnly: "Hanya penangan tindak lanjut ini atau admin yang dapat mengubah statusnya.",
  reopenAdvisorOnly: "Hanya dosen wali mahasiswa ini atau admin yang dapat membuka kembali tindak lanjut yang sudah selesai.",
  closedNotMovable: "Tindak lanjut yang sudah selesai tidak dapat dipindahkan; buka kembali dahulu bila mahasiswa perlu ditindaklanjuti lagi.",
} as const;

const defaultPerPage = 20;
const dayMilliseconds = 24 * 3600 * 1000;
/** How many of the student's screenings a case shows. */
const recentScreenings = 5;

interface CaseRow {
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
  status: FollowUpStatus;
  dibukaPada: string;
  pertamaDihubungiPada: string | null;
  ditutupPada: string | null;
  diperbaruiPada: string;
  restrictedAt: string | null;
}

const caseColumns = `
  follow_up.Id_tindak_lanjut AS id, follow_up.NIM AS nim, student.nama_mahasiswa AS namaMahasiswa,
  follow_up.NIP AS nip, lecturer.nama_dosen AS namaDosen, student.NIP_doswal AS advisorNip, advisor.nama_dosen AS advisorName,
  follow_up.alasan_early_warning AS early, follow_up.alasan_perubahan_mendadak AS sudden, follow_up.alasan_stres_sangat_tinggi AS veryHigh,
  follow_up.status AS status,
  follow_up.dibuka_pada AS dibukaPada, follow_up.pertama_dihubungi_pada AS pertamaDihubungiPada,
  follow_up.ditutup_pada AS ditutupPada, follow_up.diperbarui_pada AS diperbaruiPada, student.dibatasi_sejak AS restrictedAt`;

const caseSource = `
  FROM tindak_lanjut AS follow_up
  JOIN mahasiswa AS student ON student.NIM = follow_up.NIM
  LEFT JOIN dosen AS lecturer ON lecturer.NIP = follow_up.NIP
  LEFT JOIN dosen AS advisor ON advisor.NIP = student.NIP_doswal`;

export type FollowUpReason = "early_warning" | "perubahan_mendadak" | "stres_sangat_tinggi";

/**
 * Decisions §13: an open case is changed by its handler, a closed one reopened by the
 * student's current advisor; admins do both. Nobody changes a restricted student's case.
 */
function mayChange(principal: Principal, row: CaseRow): boolean {
  if (row.restrictedAt !== null) return false;
  if (principal.role === "admin") return true;
  const responsible = row.status === "selesai" ? row.advisorNip : row.nip;
  return principal.role === "dosen" && principal.nip !== null && responsible === principal.nip;
}

/** A case as the API answers it to `principal`; of a restricted student's case the reasons are withheld. */
export function serializeCase(row: CaseRow, now: number, principal: Principal) {
  const restricted = row.restrictedAt !== null;
  const alasan: FollowUpReason[] = [];
  if (!restricted && row.early === 1) alasan.push("early_warning");
  if (!restricted && row.sudden === 1) alasan.push("perubahan_mendadak");
  if (!restricted && row.veryHigh === 1) alasan.push("stres_sangat_tinggi");
  const end = row.ditutupPada === null ? now : Date.parse(row.ditutupPada);
  return {
    id: row.id,
    NIM: row.nim,
    nama_mahasiswa: row.namaMahasiswa,
    NIP: row.nip,
    nama_dosen: row.namaDosen,
    alasan,
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
  };
}

/** The student's open case, as the lecturer's detail of the student shows it. */
export class OpenCaseReader {
  private readonly openCaseOf;

  constructor(sqlite: Database) {
    this.openCaseOf = sqlite.prepare<CaseRow, [string]>(`SELECT ${caseColumns} ${caseSource} WHERE follow_up.NIM = ? AND follow_up.status <> 'selesai'`);
  }

  /** Null when the student has no open case, and while the student's processing is restricted. */
  of(nim: string, principal: Principal) {
    const row = this.openCaseOf.get(nim);
    return row && row.restrictedAt === null ? serializeCase(row, Date.now(), principal) : null;
  }
}

/** `status=baru,dihubungi`: the statuses named, or null for every status. */
function readStatusFilter(raw: string | undefined): FollowUpStatus[] | null {
  const names = (raw ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) return null;
  if (!names.every((name): name is FollowUpStatus => (followUpStatuses as readonly string[]).includes(name))) throw invalid(followUpMessages.badStatusFilter);
  return [...new Set(names)];
}

function readMinHari(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const value = /^\d{1,5}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(value)) throw invalid(followUpMessages.badMinHari);
  return value;
}

/**
 * Follow-up cases (tindak lanjut) for lecturers and admins (decisions §13): a lecturer sees
 * the cases they handle and the cases of their advisees, and changes those their role
 * allows (mayChange); an admin sees and changes every case, and hands open ones over. Cases
 * open by themselves with a screening (CaseOpening, opening.ts) and follow the advisor when
 * the roster moves a student (src/db/follow-up-advisor.ts). A restricted student's case is
 * listed without its reasons; reading it in full or changing it is refused while the
 * restriction lasts.
 */
export class TindakLanjutService {
  private readonly sqlite: Database;
  private readonly caseById;
  private readonly otherOpenCase;
  private readonly timelineOf;
  private readonly screeningsOf;
  private readonly lecturerByNip;
  private readonly lecturers;
  private readonly figures: FollowUpFiguresReader;
  private readonly scope: AdvisorScope;

  constructor(
    db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.sqlite = db.$client;
    this.scope = new AdvisorScope(this.sqlite);
    this.caseById = this.sqlite.prepare<CaseRow, [number]>(`SELECT ${caseColumns} ${caseSource} WHERE follow_up.Id_tindak_lanjut = ?`);
    this.otherOpenCase = this.sqlite.prepare<{ id: number }, [string, number]>(
      "SELECT Id_tindak_lanjut AS id FROM tindak_lanjut WHERE NIM = ? AND Id_tindak_lanjut <> ? AND status <> 'selesai'",
    );
    this.timelineOf = this.sqlite.prepare<{ status_dari: FollowUpStatus | null; status_ke: FollowUpStatus; catatan: string; oleh: string; waktu: string }, [number]>(
      "SELECT status_dari, status_ke, catatan, nama AS oleh, waktu FROM tindak_lanjut_riwayat WHERE Id_tindak_lanjut = ? ORDER BY id",
    );
    // The flags of each screening against the one before it, as the summary triggers compute
    // them for the latest; up to a moment (the case's closing, for who may no longer read the student).
    this.screeningsOf = this.sqlite.prepare<{ tanggal: string; tingkat_stres: Level; tingkat_motivasi: Level; early_warning: number }, [string, string, number]>(
      `SELECT tanggal, tingkat_stres, tingkat_motivasi, ${earlyWarning} AS early_warning FROM (
         SELECT Id_skrining, tanggal_skrining AS tanggal, tingkat_stres, tingkat_motivasi,
           coalesce(score_stress - lag(score_stress) OVER (ORDER BY tanggal_skrining, Id_skrining) >= ${spikeThreshold}, 0) AS spike
         FROM riwayat_skrining WHERE NIM = ?1 AND tanggal_skrining <= ?2
       )
       ORDER BY tanggal DESC, Id_skrining DESC LIMIT ?3`,
    );
    this.lecturerByNip = this.sqlite.prepare<{ nip: string; nama: string }, [string]>("SELECT NIP AS nip, nama_dosen AS nama FROM dosen WHERE NIP = ?");
    this.lecturers = this.sqlite.prepare<{ nip: string; nama: string }, []>("SELECT NIP AS nip, nama_dosen AS nama FROM dosen ORDER BY NIP");
    this.figures = new FollowUpFiguresReader(this.sqlite);
  }

  /** The cases the caller may see, filtered and paginated: open cases first, oldest first; then closed ones, last closed first. */
  list(principal: Principal, query: Record<string, string | undefined>) {
    const statuses = readStatusFilter(query.status);
    const minHari = readMinHari(query.min_hari);
    const { page, perPage, offset } = readPagination(query, defaultPerPage);
    const now = Date.now();
    const conditions: string[] = [];
    const values: (string | number)[] = [];
    if (principal.role === "dosen") {
      // The cases they handle and their advisees' cases; a lecturer account without a profile has none.
      conditions.push(
        `follow_up.Id_tindak_lanjut IN (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIP = ?1
           UNION ALL SELECT handled.Id_tindak_lanjut FROM mahasiswa AS advisee JOIN tindak_lanjut AS handled ON handled.NIM = advisee.NIM
           WHERE advisee.NIP_doswal = ?1)`,
      );
      values.push(principal.nip ?? "");
    } else if (query.nip?.trim()) {
      conditions.push(`follow_up.NIP = ?${values.length + 1}`);
      values.push(query.nip.trim());
    }
    if (statuses) {
      conditions.push(`follow_up.status IN (SELECT value FROM json_each(?${values.length + 1}))`);
      values.push(JSON.stringify(statuses));
    }
    if (minHari !== null) {
      conditions.push(`julianday(coalesce(follow_up.ditutup_pada, ?${values.length + 1})) - julianday(follow_up.dibuka_pada) >= ?${values.length + 2}`);
      values.push(new Date(now).toISOString(), minHari);
    }
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    const total = this.sqlite.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n ${caseSource} ${where}`).get(...values)!.n;
    const rows = this.sqlite
      .query<CaseRow, (string | number)[]>(
        `SELECT ${caseColumns} ${caseSource} ${where}
         ORDER BY follow_up.status = 'selesai', CASE WHEN follow_up.status <> 'selesai' THEN follow_up.dibuka_pada END,
           follow_up.ditutup_pada DESC, follow_up.Id_tindak_lanjut
         LIMIT ?${values.length + 1} OFFSET ?${values.length + 2}`,
      )
      .all(...values, perPage, offset);
    return {
      data: rows.map((row) => serializeCase(row, now, principal)),
      pagination: { total, page, per_page: perPage, total_pages: totalPages(total, perPage) },
    };
  }

  /**
   * The case the path names, for this caller: 404 when none (an id that is not a positive
   * integer names none), 403 for a lecturer who neither handles it nor advises its student
   * (the advisor scope's text), 403 while the student's processing is restricted.
   */
  private visibleCase(principal: Principal, rawId: string): CaseRow {
    const id = pathId(rawId);
    const row = id === null ? null : this.caseById.get(id);
    if (!row) throw notFound(followUpMessages.caseUnknown);
    if (principal.role === "dosen" && (principal.nip === null || (row.nip !== principal.nip && row.advisorNip !== principal.nip))) {
      throw forbidden(accessMessages.notAdvisee);
    }
    if (row.restrictedAt !== null) throw forbidden(restrictionMessages.staffRefused);
    return row;
  }

  /**
   * The case with its timeline and the student's recent levels; a lecturer who handled a
   * closed case but may no longer read the student sees the levels up to its closing.
   */
  private detailOf(row: CaseRow, now: number, principal: Principal) {
    const until = row.ditutupPada !== null && !this.scope.mayRead(principal, row.nim) ? row.ditutupPada : "9999";
    return {
      ...serializeCase(row, now, principal),
      riwayat: this.timelineOf.all(row.id),
      tingkat_terakhir: this.screeningsOf.all(row.nim, until, recentScreenings).map((screening) => ({ ...screening, early_warning: screening.early_warning === 1 })),
    };
  }

  /** One case with its timeline (oldest first) and the student's last five screenings (newest first). */
  detail(principal: Principal, rawId: string) {
    return this.detailOf(this.visibleCase(principal, rawId), Date.now(), principal);
  }

  /**
   * A status change with its note, checks in this order: the case (404), the caller (403:
   * who may see it, then who may change it), the body (400), the move (409). The check and
   * the write share one job of the write queue, so two changes sent at once are applied one
   * after the other, each from the status the other left. A reopening gives the case to
   * whoever reopened it (for an admin, to the student's advisor).
   */
  changeStatus(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const row = this.visibleCase(principal, rawId);
      if (!mayChange(principal, row)) throw forbidden(row.status === "selesai" ? followUpMessages.reopenAdvisorOnly : followUpMessages.handlerOnly);
      const to = body.status;
      if (typeof to !== "string" || !(followUpStatuses as readonly string[]).includes(to)) throw invalid(followUpMessages.badStatus);
      const target = to as FollowUpStatus;
      const catatan = readNote(body.catatan);
      if (!allowedMoves[row.status].includes(target)) throw conflict(followUpMessages.moveRefused(row.status, target));
      if (target === "baru" && this.otherOpenCase.get(row.nim, row.id)) throw conflict(followUpMessages.anotherOpen);
      const now = nowIso();
      if (target === "baru") {
        // A reopening starts a new episode; the timeline keeps the earlier one.
        const handler = principal.role === "dosen" ? principal.nip : row.advisorNip;
        this.sqlite.run(
          "UPDATE tindak_lanjut SET status = 'baru', NIP = ?1, dibuka_pada = ?2, pertama_dihubungi_pada = NULL, ditutup_pada = NULL, diperbarui_pada = ?2 WHERE Id_tindak_lanjut = ?3",
          [handler, now, row.id],
        );
        this.addEntry(row.id, row.status, target, catatan, principal, now);
        if (handler !== row.nip) this.addEntry(row.id, target, target, `Ditangani ${this.lecturerName(handler)} sejak dibuka kembali.`, principal, now);
      } else {
        this.sqlite.run(
          `UPDATE tindak_lanjut SET status = ?1, diperbarui_pada = ?2,
             pertama_dihubungi_pada = CASE WHEN status = 'baru' THEN coalesce(pertama_dihubungi_pada, ?2) ELSE pertama_dihubungi_pada END,
             ditutup_pada = CASE WHEN ?1 = 'selesai' THEN ?2 ELSE ditutup_pada END
           WHERE Id_tindak_lanjut = ?3`,
          [target, now, row.id],
        );
        this.addEntry(row.id, row.status, target, catatan, principal, now);
      }
      return this.detailOf(this.caseById.get(row.id)!, Date.parse(now), principal);
    });
  }

  /** An admin hands an open case to another lecturer (its handler); the same lecturer again changes nothing. */
  reassign(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const row = this.visibleCase(principal, rawId);
      const nip = readKey(body.NIP);
      if (!nip) throw invalid(followUpMessages.nipRequired);
      const lecturer = this.lecturerByNip.get(nip);
      if (!lecturer) throw notFound(followUpMessages.lecturerUnknown);
      if (row.status === "selesai") throw conflict(followUpMessages.closedNotMovable);
      if (row.nip === lecturer.nip) return this.detailOf(row, Date.now(), principal);
      const now = nowIso();
      this.sqlite.run("UPDATE tindak_lanjut SET NIP = ?, diperbarui_pada = ? WHERE Id_tindak_lanjut = ?", [lecturer.nip, now, row.id]);
      const note = `Penangan dipindahkan dari ${this.lecturerName(row.nip)} ke ${this.lecturerName(lecturer.nip)}.`;
      this.addEntry(row.id, row.status, row.status, note, principal, now);
      return this.detailOf(this.caseById.get(row.id)!, Date.parse(now), principal);
    });
  }

  /** `Dr. Rina (198001…)`, or what stands for no lecturer. */
  private lecturerName(nip: string | null): string {
    if (nip === null) return "tanpa penangan (admin)";
    const lecturer = this.lecturerByNip.get(nip);
    return `${lecturer?.nama || nip} (${nip})`;
  }

  private addEntry(caseId: number, from: FollowUpStatus, to: FollowUpStatus, catatan: string, principal: Principal, now: string): void {
    this.sqlite.run("INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, ?, ?, ?, ?, ?, ?)", [
      caseId,
      from,
      to,
      catatan,
      principal.id,
      principal.nama ?? principal.username,
      now,
    ]);
  }

  /**
   * The figures per handler and for the faculty: an admin every lecturer (and the cases
   * without a handler, when there are any); a lecturer their own row as handler, which is
   * then also the `fakultas` figures.
   */
  ringkasan(principal: Principal) {
    const now = Date.now();
    const byOwner = this.figures.current(now);
    const row = (nip: string | null, nama: string | null) => ({ NIP: nip, nama_dosen: nama, ...(byOwner.get(nip) ?? emptyFigures()) });
    if (principal.role === "dosen") {
      const own = principal.nip === null ? undefined : this.lecturerByNip.get(principal.nip);
      if (!own) return { per_dosen: [], fakultas: emptyFigures() };
      const figures: FollowUpFigures = byOwner.get(own.nip) ?? emptyFigures();
      return { per_dosen: [{ NIP: own.nip, nama_dosen: own.nama, ...figures }], fakultas: figures };
    }
    const perDosen = this.lecturers.all().map((lecturer) => row(lecturer.nip, lecturer.nama));
    if (byOwner.has(null)) perDosen.push(row(null, null));
    return { per_dosen: perDosen, fakultas: this.figures.currentTotal(now) };
  }
}

function readNote(value: unknown): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") throw invalid(followUpMessages.noteRequired);
  if (exceedsCharacters(text, caseNoteMaxLength)) throw invalid(followUpMessages.noteTooLong);
  return text;
}
