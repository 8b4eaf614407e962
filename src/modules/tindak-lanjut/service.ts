import type { Database } from "bun:sqlite";
import type { DatabaseClient } from "../../db";
import { earlyWarning, spikeThreshold } from "../../db/summaries";
import { followUpStatuses, type TindakLanjutStatus } from "../../db/schema";
import { StorageError } from "../../db/storage";
import type { WriteQueue } from "../../db/write-queue";
import { conflict, forbidden, invalid, notFound } from "../../errors";
import { type JsonObject, pathId, readKey } from "../../requests/values";
import { accessMessages } from "../../requests/ownership";
import type { AdvisorScope } from "../../privasi/advisor-scope";
import { readPagination, totalPages } from "../../requests/pagination";
import type { Principal } from "../../requests/principal";
import { restrictionMessages } from "../../privasi/restriction";
import { nowIso } from "../../records";
import type { Level } from "../../skrining/scoring";
import { caseColumns, caseSource, mayChange, type CaseReader, type CaseRow } from "./cases";
import { emptyFigures, type TindakLanjutFigures, type TindakLanjutFiguresReader } from "./figures";
import { allowedMoves, reachingOutcomes } from "./moves";
import { assertClosingFits, readStatusChange, statusChangeMessages, type StatusChange } from "./status-change";

export const followUpMessages = {
  ...statusChangeMessages,
  caseUnknown: "Tindak lanjut tidak ditemukan.",
  badStatusFilter: `Filter status hanya boleh berisi: ${followUpStatuses.join(", ")}.`,
  badMinHari: "min_hari harus bilangan bulat 0 atau lebih.",
  moveRefused: (from: TindakLanjutStatus, to: TindakLanjutStatus) => `Status tidak dapat diubah dari ${from} ke ${to}.`,
  anotherOpen: "Mahasiswa ini sudah memiliki tindak lanjut lain yang masih terbuka; kasus ini tidak dapat dibuka kembali.",
  nipRequired: "NIP wajib diisi.",
  lecturerUnknown: "Dosen tidak ditemukan.",
  handlerOnly: "Hanya penangan tindak lanjut ini atau admin yang dapat mengubah statusnya.",
  reopenAdvisorOnly: "Hanya dosen wali mahasiswa ini atau admin yang dapat membuka kembali tindak lanjut yang sudah selesai.",
  closedNotMovable: "Tindak lanjut yang sudah selesai tidak dapat dipindahkan; buka kembali dahulu bila mahasiswa perlu ditindaklanjuti lagi.",
} as const;

const defaultPerPage = 20;
/** How many of the student's screenings a case shows. */
const recentScreenings = 5;

/** `status=baru,dihubungi`: the statuses named, or null for every status. */
function readStatusFilter(raw: string | undefined): TindakLanjutStatus[] | null {
  const names = (raw ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "");
  if (names.length === 0) return null;
  if (!names.every((name): name is TindakLanjutStatus => (followUpStatuses as readonly string[]).includes(name))) throw invalid(followUpMessages.badStatusFilter);
  return [...new Set(names)];
}

function readMinHari(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === "") return null;
  const value = /^\d{1,5}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(value)) throw invalid(followUpMessages.badMinHari);
  return value;
}

/**
 * Follow-up cases (tindak lanjut) for lecturers and admins (decisions §13 and §19): a
 * lecturer sees the cases they handle and the cases of their advisees, and changes those
 * their role allows (mayChange); an admin sees and changes every case, and hands open ones
 * over. Cases open by themselves with a screening (CaseOpening, opening.ts) or at the
 * student's request (src/modules/minta-kontak), and follow the advisor when the roster moves
 * a student (src/db/tindak-lanjut-advisor.ts). A restricted student's case is listed without its
 * reasons; reading it in full or changing it is refused while the restriction lasts.
 */
export class TindakLanjutService {
  private readonly sqlite: Database;
  private readonly otherOpenCase;
  private readonly screeningsOf;
  private readonly lecturerByNip;
  private readonly lecturers;

  constructor(
    db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly figures: TindakLanjutFiguresReader,
    private readonly cases: CaseReader,
    private readonly scope: AdvisorScope,
  ) {
    this.sqlite = db.$client;
    this.otherOpenCase = this.sqlite.prepare<{ id: number }, [string, number]>(
      "SELECT Id_tindak_lanjut AS id FROM tindak_lanjut WHERE NIM = ? AND Id_tindak_lanjut <> ? AND status <> 'selesai'",
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
  }

  /**
   * The cases the caller may see, filtered and paginated (decisions §19): the open cases late
   * for their first contact first, then the urgent ones (decisions §20: a same-day contact
   * owed), then the closed ones that are news for the caller as the advisor, then the other
   * open cases, oldest first; then the closed ones, the last closed first.
   */
  list(principal: Principal, query: Record<string, string | undefined>) {
    const statuses = readStatusFilter(query.status);
    const minHari = readMinHari(query.min_hari);
    const { page, perPage, offset } = readPagination(query, defaultPerPage);
    const now = Date.now();
    const conditions: string[] = [];
    const values: Record<string, string | number | null> = { ...this.cases.parameters(principal, now), limit: perPage, offset };
    if (principal.role === "dosen") {
      // The cases they handle and their advisees' cases; a lecturer account without a profile has none.
      conditions.push(
        `follow_up.Id_tindak_lanjut IN (SELECT Id_tindak_lanjut FROM tindak_lanjut WHERE NIP = $nip
           UNION ALL SELECT handled.Id_tindak_lanjut FROM mahasiswa AS advisee JOIN tindak_lanjut AS handled ON handled.NIM = advisee.NIM
           WHERE advisee.NIP_doswal = $nip)`,
      );
    } else if (query.nip?.trim()) {
      conditions.push("follow_up.NIP = $handler");
      values.handler = query.nip.trim();
    }
    if (statuses) {
      conditions.push("follow_up.status IN (SELECT value FROM json_each($statuses))");
      values.statuses = JSON.stringify(statuses);
    }
    if (minHari !== null) {
      conditions.push("julianday(coalesce(follow_up.ditutup_pada, $now)) - julianday(follow_up.dibuka_pada) >= $minHari");
      values.minHari = minHari;
    }
    const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
    const total = this.sqlite.query<{ n: number }, [typeof values]>(`SELECT count(*) AS n ${caseSource} ${where}`).get(values)!.n;
    const rows = this.sqlite
      .query<CaseRow, [typeof values]>(
        `SELECT ${caseColumns} ${caseSource} ${where}
         ORDER BY overdue DESC, urgent DESC, newlyClosed DESC, follow_up.status = 'selesai', CASE WHEN follow_up.status <> 'selesai' THEN follow_up.dibuka_pada END,
           follow_up.ditutup_pada DESC, follow_up.Id_tindak_lanjut
         LIMIT $limit OFFSET $offset`,
      )
      .all(values);
    return {
      data: this.cases.serialize(rows, principal, now),
      pagination: { total, page, per_page: perPage, total_pages: totalPages(total, perPage) },
    };
  }

  /**
   * The case the path names, for this caller: 404 when none (an id that is not a positive
   * integer names none), 403 for a lecturer who neither handles it nor advises its student
   * (the advisor scope's text), 403 while the student's processing is restricted.
   */
  private visibleCase(principal: Principal, rawId: string, now: number): CaseRow {
    const id = pathId(rawId);
    const row = id === null ? undefined : this.cases.byId(id, principal, now);
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
      ...this.cases.serialize([row], principal, now)[0]!,
      riwayat: this.cases.timeline(row.id),
      tingkat_terakhir: this.screeningsOf.all(row.nim, until, recentScreenings).map((screening) => ({ ...screening, early_warning: screening.early_warning === 1 })),
    };
  }

  /**
   * One case with its timeline (oldest first) and the student's last five screenings (newest
   * first). A closed case that was news for its advisor is answered as such once, then marked
   * seen (decisions §19); a disk that refuses the mark leaves it news for the next look.
   */
  async detail(principal: Principal, rawId: string) {
    const now = Date.now();
    const row = this.visibleCase(principal, rawId, now);
    const detail = this.detailOf(row, now, principal);
    if (detail.baru_ditutup) {
      try {
        await this.writes.run(() =>
          this.sqlite.run("UPDATE tindak_lanjut SET ditutup_dilihat_doswal_pada = ?1 WHERE Id_tindak_lanjut = ?2 AND ditutup_dilihat_doswal_pada IS NULL", [nowIso(), row.id]),
        );
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
      }
    }
    return detail;
  }

  /**
   * A status change with its note, checks in this order: the case (404), the caller (403:
   * who may see it, then who may change it), the body (400: the status, the note, what the
   * move records), the move (409), the attempts a closing for want of a response needs
   * (400). The check and the write share one job of the write queue, so two changes sent at
   * once are applied one after the other, each from the status the other left. A reopening
   * gives the case to whoever reopened it (for an admin, to the student's advisor).
   */
  changeStatus(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const row = this.visibleCase(principal, rawId, Date.now());
      if (!mayChange(principal, row)) throw forbidden(row.status === "selesai" ? followUpMessages.reopenAdvisorOnly : followUpMessages.handlerOnly);
      const change = readStatusChange(body);
      if (!allowedMoves[row.status].includes(change.to)) throw conflict(followUpMessages.moveRefused(row.status, change.to));
      if (change.to === "baru" && this.otherOpenCase.get(row.nim, row.id)) throw conflict(followUpMessages.anotherOpen);
      assertClosingFits(change, row.attempts);
      const now = nowIso();
      if (change.to === "baru") this.reopen(row, change, principal, now);
      else this.move(row, change, principal, now);
      return this.detailOf(this.cases.byId(row.id, principal, Date.parse(now))!, Date.parse(now), principal);
    });
  }

  /** A reopening starts a new episode; the timeline keeps the earlier one. */
  private reopen(row: CaseRow, change: StatusChange, principal: Principal, now: string): void {
    const handler = principal.role === "dosen" ? principal.nip : row.advisorNip;
    this.sqlite.run(
      `UPDATE tindak_lanjut SET status = 'baru', NIP = ?1, dibuka_pada = ?2, pertama_dihubungi_pada = NULL, ditutup_pada = NULL,
         alasan_selesai = NULL, perlu_dukungan = NULL, ditutup_dilihat_doswal_pada = NULL, batas_kontak_segera = NULL, diperbarui_pada = ?2
       WHERE Id_tindak_lanjut = ?3`,
      [handler, now, row.id],
    );
    this.addEntry(row.id, row.status, change, principal, now);
    if (handler !== row.nip) this.addEntry(row.id, "baru", { ...change, catatan: `Ditangani ${this.lecturerName(handler)} sejak dibuka kembali.` }, principal, now);
  }

  /**
   * A move on: only a contact that reached the student sets the first contact (decisions
   * §19) and meets a same-day target (§20); a closing records its reason and judgement and is
   * news for the advisor again.
   */
  private move(row: CaseRow, change: StatusChange, principal: Principal, now: string): void {
    const reached = change.hasilKontak !== null && reachingOutcomes.includes(change.hasilKontak);
    const closing = change.to === "selesai";
    this.sqlite.run(
      `UPDATE tindak_lanjut SET status = ?1, diperbarui_pada = ?2,
         pertama_dihubungi_pada = CASE WHEN ?3 THEN coalesce(pertama_dihubungi_pada, ?2) ELSE pertama_dihubungi_pada END,
         ditutup_pada = CASE WHEN ?4 THEN ?2 ELSE ditutup_pada END,
         alasan_selesai = ?5, perlu_dukungan = ?6,
         ditutup_dilihat_doswal_pada = CASE WHEN ?4 THEN NULL ELSE ditutup_dilihat_doswal_pada END,
         batas_kontak_segera = CASE WHEN ?3 OR ?4 THEN NULL ELSE batas_kontak_segera END
       WHERE Id_tindak_lanjut = ?7`,
      [change.to, now, reached ? 1 : 0, closing ? 1 : 0, change.alasanSelesai, change.perluDukungan === null ? null : change.perluDukungan ? 1 : 0, row.id],
    );
    this.addEntry(row.id, row.status, change, principal, now);
  }

  /** An admin hands an open case to another lecturer (its handler); the same lecturer again changes nothing. */
  reassign(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const row = this.visibleCase(principal, rawId, Date.now());
      const nip = readKey(body.NIP);
      if (!nip) throw invalid(followUpMessages.nipRequired);
      const lecturer = this.lecturerByNip.get(nip);
      if (!lecturer) throw notFound(followUpMessages.lecturerUnknown);
      if (row.status === "selesai") throw conflict(followUpMessages.closedNotMovable);
      if (row.nip === lecturer.nip) return this.detailOf(row, Date.now(), principal);
      const now = nowIso();
      this.sqlite.run("UPDATE tindak_lanjut SET NIP = ?, diperbarui_pada = ? WHERE Id_tindak_lanjut = ?", [lecturer.nip, now, row.id]);
      const catatan = `Penangan dipindahkan dari ${this.lecturerName(row.nip)} ke ${this.lecturerName(lecturer.nip)}.`;
      this.addEntry(row.id, row.status, { to: row.status, catatan, hasilKontak: null, alasanSelesai: null, perluDukungan: null }, principal, now);
      return this.detailOf(this.cases.byId(row.id, principal, Date.parse(now))!, Date.parse(now), principal);
    });
  }

  /** `Dr. Rina (198001…)`, or what stands for no lecturer. */
  private lecturerName(nip: string | null): string {
    if (nip === null) return "tanpa penangan (admin)";
    const lecturer = this.lecturerByNip.get(nip);
    return `${lecturer?.nama || nip} (${nip})`;
  }

  private addEntry(caseId: number, from: TindakLanjutStatus, change: StatusChange, principal: Principal, now: string): void {
    this.sqlite.run(
      "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu, hasil_kontak, alasan_selesai, perlu_dukungan) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        caseId,
        from,
        change.to,
        change.catatan,
        principal.id,
        principal.nama || principal.username,
        now,
        change.hasilKontak,
        change.alasanSelesai,
        change.perluDukungan === null ? null : change.perluDukungan ? 1 : 0,
      ],
    );
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
      const figures: TindakLanjutFigures = byOwner.get(own.nip) ?? emptyFigures();
      return { per_dosen: [{ NIP: own.nip, nama_dosen: own.nama, ...figures }], fakultas: figures };
    }
    const perDosen = this.lecturers.all().map((lecturer) => row(lecturer.nip, lecturer.nama));
    if (byOwner.has(null)) perDosen.push(row(null, null));
    return { per_dosen: perDosen, fakultas: this.figures.currentTotal(now) };
  }
}
