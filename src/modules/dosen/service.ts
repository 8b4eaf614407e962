import { and, asc, count, desc, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { databaseStamp, ReadCache } from "../../db/read-cache";
import { catatanKonseling, latestSkrining, lecturerWeeklyLevels, mahasiswa, riwayatSkrining } from "../../db/schema";
import { readPagination, totalPages } from "../../requests/pagination";
import { notFound } from "../../errors";
import type { Principal } from "../../requests/principal";
import { serializeMahasiswa, serializeSkrining } from "../../records";
import { withheldProfile } from "../../privasi/restriction";
import type { CatatanService } from "../catatan/service";
import { OpenCaseReader, type CaseReader } from "../tindak-lanjut/cases";
import { RiskPages } from "./risk-pages";
import { earlyWarning, latestOfStudent, latestScreening, unrestricted, type StatisticsService } from "./statistics";
import { preparedOnFirstUse } from "../../db/prepared";
import { rowReader } from "../../db/row-reader";
import { screeningsOfStudentQuery, studentByNimQuery } from "../../db/student-reads";
import { replyIsNewFor } from "../catatan/new-replies";

export const dosenMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
} as const;

const defaultPerPage = 20;

/** A screening's columns but its answers: a page shows no answers, and they are most of the row. */
const { inputJawaban: _answers, ...screeningWithoutAnswers } = getTableColumns(riwayatSkrining);

/** The interface's exact shape for a lecturer without advisees: no belum_skrining, empty distributions. */
const emptyStatistics = () => ({ total_mahasiswa: 0 as const, sudah_skrining: 0 as const, stress_dist: {}, motivasi_dist: {} });

/** `q` as a LIKE pattern that matches its text literally: `%`, `_` and `\` are escaped (ESCAPE '\'). */
function containsPattern(q: string | undefined): string {
  const text = q?.trim() ?? "";
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The lecturer routes: advisees with their latest screening, one student in full, and
 * statistics. The population is always the advisees of the acting NIP: a lecturer's own,
 * or for an admin the `NIP` of the query.
 */
export class DosenService {
  private readonly studentByNim;
  private readonly screeningsOf;
  private readonly adviseeCount;
  private readonly everyAdviseeCount;
  private readonly pageByNim;
  private readonly pageByReply;
  private readonly replyingCount;
  private readonly pageByRisk;
  private readonly riskPages;
  private readonly pageDetails;
  private readonly pageRow;
  private readonly openCases;
  // Lecturers reopen the same dashboard far more often than students write; an answer is
  // kept until the next write anywhere (see ReadCache), keyed by everything it depends on.
  private readonly pages: ReadCache<string, ReturnType<DosenService["readStudents"]>>;
  private readonly statistikAnswers: ReadCache<string, ReturnType<DosenService["readStatistik"]>>;

  constructor(
    db: DatabaseClient,
    private readonly statistics: StatisticsService,
    private readonly notes: CatatanService,
    followUpStressMin: number,
    cases: CaseReader,
  ) {
    const stamp = databaseStamp(db.$client);
    this.openCases = new OpenCaseReader(cases);
    this.riskPages = new RiskPages(db, followUpStressMin);
    this.pages = new ReadCache(stamp, { reads: [mahasiswa, latestSkrining, riwayatSkrining, catatanKonseling], maxEntries: 50 });
    this.statistikAnswers = new ReadCache(stamp, { reads: [mahasiswa, latestSkrining, lecturerWeeklyLevels], maxEntries: 100 });
    this.studentByNim = studentByNimQuery(db);
    this.screeningsOf = screeningsOfStudentQuery(db);

    // The advisees of `nip` whose NIM or name contains `pattern` (see containsPattern).
    // LIKE ignores case for ASCII letters.
    const advisees = and(
      eq(mahasiswa.nipDoswal, sql.placeholder("nip")),
      sql`(${mahasiswa.nim} LIKE ${sql.placeholder("pattern")} ESCAPE '\\' OR ${mahasiswa.nama} LIKE ${sql.placeholder("pattern")} ESCAPE '\\')`,
    );
    this.adviseeCount = preparedOnFirstUse(() => db.select({ total: count() }).from(mahasiswa).where(advisees).prepare());
    // Without a search text: counted in the index alone (the name is not in it).
    this.everyAdviseeCount = preparedOnFirstUse(() => db.select({ total: count() }).from(mahasiswa).where(eq(mahasiswa.nipDoswal, sql.placeholder("nip"))).prepare());
    // Decisions §13: a latest score_stress at the follow-up threshold asks for attention whatever the motivation.
    const veryHighStress = sql<boolean>`coalesce(${latestSkrining.scoreStress} >= ${followUpStressMin}, 0)`.mapWith(Boolean);
    // A page is chosen first (NIMs only, so ordering carries no wide rows), then read in full.
    this.pageByNim = preparedOnFirstUse(() =>
      db
        .select({ nim: mahasiswa.nim })
        .from(mahasiswa)
        .where(advisees)
        .orderBy(asc(mahasiswa.nim))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    );
    // Decisions §19: the advisees whose replies are new for the lecturer, the latest reply first.
    const replying = and(advisees, isNull(mahasiswa.restrictedAt), sql`EXISTS (SELECT 1 FROM ${catatanKonseling} WHERE ${catatanKonseling.nim} = ${mahasiswa.nim} AND ${replyIsNewFor(sql.placeholder("nip"))})`);
    this.replyingCount = preparedOnFirstUse(() => db.select({ total: count() }).from(mahasiswa).where(replying).prepare());
    this.pageByReply = preparedOnFirstUse(() =>
      db
        .select({ nim: mahasiswa.nim })
        .from(mahasiswa)
        .where(replying)
        .orderBy(desc(sql`(SELECT max(${catatanKonseling.tanggalReply}) FROM ${catatanKonseling} WHERE ${catatanKonseling.nim} = ${mahasiswa.nim})`), asc(mahasiswa.nim))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    );
    this.pageByRisk = preparedOnFirstUse(() =>
      db
        .select({ nim: mahasiswa.nim })
        .from(mahasiswa)
        .leftJoin(latestSkrining, latestOfStudent)
        .where(advisees)
        // SQLite sorts NULL lowest, so students without a screening come last in descending
        // tanggal order; a restricted student sorts as one without a screening, so that the
        // order tells nothing of their data.
        .orderBy(
          desc(sql`CASE WHEN ${unrestricted} THEN ${earlyWarning} OR ${veryHighStress} ELSE 0 END`),
          desc(sql`CASE WHEN ${unrestricted} THEN ${latestSkrining.tanggal} END`),
          asc(mahasiswa.nim),
        )
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    );
    // The replies new for the acting lecturer (decisions §13 and §19): to their own notes, and as the advisor to the others'.
    const newReplies = sql<number>`(SELECT count(*) FROM ${catatanKonseling} WHERE ${catatanKonseling.nim} = ${mahasiswa.nim} AND ${replyIsNewFor(sql.placeholder("nip"))})`;
    const details = { profile: mahasiswa, latest: screeningWithoutAnswers, isSpike: latestSkrining.isSpike, earlyWarning, veryHighStress, newReplies };
    const pageDetails = () =>
      db
        .select(details)
        .from(mahasiswa)
        .leftJoin(latestSkrining, latestOfStudent)
        .leftJoin(riwayatSkrining, latestScreening)
        .where(sql`${mahasiswa.nim} IN (SELECT value FROM json_each(${sql.placeholder("nims")}))`)
        .prepare();
    this.pageDetails = preparedOnFirstUse(pageDetails);
    // Read as raw values and named once per row (rowReader): the page's rows are the hot read's garbage.
    this.pageRow = rowReader<ReturnType<ReturnType<typeof pageDetails>["all"]>[number]>(details, ["latest"]);
  }

  /** The acting NIP of a GET route; null is the empty population (no profile, or no `NIP` from an admin). */
  private actingNip(principal: Principal, query: Record<string, string | undefined>): string | null {
    if (principal.role === "admin") return query.NIP?.trim() || null;
    return principal.nip;
  }


  /**
   * Advisees by NIM, or with `sort=risk` early warnings and very high stress first, then the
   * newest latest screening, then students without one; with `balasan=1` only those whose
   * replies are new for the lecturer, the latest reply first (decisions §19). A few queries
   * whatever the page size.
   */
  students(principal: Principal, query: Record<string, string | undefined>) {
    const { page, perPage, offset } = readPagination(query, defaultPerPage);
    const nip = this.actingNip(principal, query);
    if (nip === null) return { data: [], total: 0, page, total_pages: 0 };
    const pattern = containsPattern(query.q);
    const risk = query.sort === "risk";
    const replying = query.balasan === "1";
    const key = [nip, page, perPage, pattern, risk, replying].join("\u0000");
    return this.pages.get(key, () => this.readStudents(nip, pattern, risk, replying, page, perPage, offset));
  }

  private readStudents(nip: string, pattern: string, risk: boolean, replying: boolean, page: number, perPage: number, offset: number) {
    const filter = { nip, pattern };
    const everyone = pattern === containsPattern(undefined);
    if (replying) {
      const total = this.replyingCount.get(filter)?.total ?? 0;
      return this.pageOf(nip, this.pageByReply.all({ ...filter, limit: perPage, offset }).map((row) => row.nim), total, page, perPage);
    }
    const total = (everyone ? this.everyAdviseeCount.get({ nip }) : this.adviseeCount.get(filter))?.total ?? 0;
    // Without a search text the risk order is read from the summary's index, page by page.
    const nims =
      risk && everyone
        ? this.riskPages.nims(nip, perPage, offset)
        : (risk ? this.pageByRisk : this.pageByNim).all({ ...filter, limit: perPage, offset }).map((row) => row.nim);
    return this.pageOf(nip, nims, total, page, perPage);
  }

  /** The page's students in full, in the order chosen. */
  private pageOf(nip: string, nims: string[], total: number, page: number, perPage: number) {
    const rows = nims.length === 0 ? [] : this.pageDetails.values({ nims: JSON.stringify(nims), nip }).map(this.pageRow);
    const byNim = new Map(rows.map((row) => [row.profile.nim, row]));
    // In the order the page was chosen; a student deleted in between is left out.
    const data = nims.flatMap((nim) => {
      const row = byNim.get(nim);
      if (!row) return [];
      if (row.profile.restrictedAt !== null) {
        return [{ ...withheldProfile(serializeMahasiswa(row.profile)), last_skrining: null, early_warning: false, stres_sangat_tinggi: false, balasan_baru: 0, dibatasi: true }];
      }
      const lastSkrining = row.latest ? { ...serializeSkrining(row.latest), is_spike: row.isSpike ?? false } : null;
      return [
        {
          ...serializeMahasiswa(row.profile),
          last_skrining: lastSkrining,
          early_warning: row.earlyWarning,
          stres_sangat_tinggi: row.veryHighStress,
          balasan_baru: row.newReplies,
          dibatasi: false,
        },
      ];
    });
    return { data, total, page, total_pages: totalPages(total, perPage) };
  }

  /**
   * One student in full with their open follow-up case (the route's `advisee` option has
   * checked the student and the caller); of a restricted student only who they are, with
   * empty lists and no case.
   */
  async student(principal: Principal, nim: string) {
    const student = this.studentByNim.get({ nim });
    // Deleted since the route's check: the same answer as an unknown student.
    if (!student) throw notFound(dosenMessages.studentUnknown);
    if (student.restrictedAt !== null) {
      return { mahasiswa: withheldProfile(serializeMahasiswa(student)), riwayat: [], catatan: [], tindak_lanjut: null, dibatasi: true };
    }
    return {
      mahasiswa: serializeMahasiswa(student),
      riwayat: this.screeningsOf.all({ nim }).map((row) => serializeSkrining(row)),
      catatan: await this.notes.openedByLecturer(principal, nim),
      tindak_lanjut: this.openCases.of(nim, principal),
      dibatasi: false,
    };
  }

  /** Every lecturer by NIP with the number of advisees: what an admin picks a lecturer from. */
  lecturers() {
    return this.statistics.countsForAll().map((lecturer) => ({ NIP: lecturer.NIP, nama_dosen: lecturer.nama_dosen, total_mahasiswa: lecturer.total_mahasiswa }));
  }

  /** Counts by latest screening plus the 12-week trend; the interface's exact empty shape without advisees. */
  statistik(principal: Principal, query: Record<string, string | undefined>) {
    const nip = this.actingNip(principal, query);
    if (nip === null) return emptyStatistics();
    const now = Date.now();
    // The week is part of the key: the trend moves on at midnight on Monday without a write.
    return this.statistikAnswers.get([nip, this.statistics.weekOf(now)].join("\u0000"), () => this.readStatistik(nip, now));
  }

  private readStatistik(nip: string, now: number) {
    const counts = this.statistics.countsFor(nip);
    if (counts.total_mahasiswa === 0) return emptyStatistics();
    return { ...counts, trend: this.statistics.trend(nip, now) };
  }
}
