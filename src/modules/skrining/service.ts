import { count, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { databaseStamp, ReadCache } from "../../db/read-cache";
import { mahasiswa, newestScreeningFirst, pertanyaanKeselamatan, riwayatSkrining, tindakLanjut } from "../../db/schema";
import { invalid, notFound } from "../../errors";
import { readPagination, totalPages } from "../../requests/pagination";
import { serializeSkrining } from "../../records";
import { suggestionsFor } from "../../skrining/suggestions";
import type { Principal } from "../../requests/principal";
import { requestedNim } from "../../requests/values";
import type { ProcessingRestriction } from "../../privasi/restriction";
import type { TindakLanjutReachReader, TindakLanjutReach } from "../tindak-lanjut/reach";
import { isCriticalAnswer } from "../../skrining/safety-question";
import { urgentHelp, weeklyLimitMessage, weeklyWindow } from "./recording";
import type { SubmissionService } from "./submission";
import { preparedOnFirstUse } from "../../db/prepared";

export const skriningMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
  noScreening: "Belum ada data skrining.",
  suggestionParameters: "Parameter stress dan motivation wajib diisi.",
} as const;

/** Screening reads of the student routes: eligibility, latest result, history, suggestions. */
export class SkriningService {
  private readonly studentExists;
  private readonly latestRecord;
  // The result page is what students and the app reload most; kept until the next write.
  private readonly latestAnswers: ReadCache<
    string,
    (ReturnType<typeof serializeSkrining> & { tindak_lanjut: TindakLanjutReach; bantuan_segera: ReturnType<typeof urgentHelp> | null }) | null
  >;
  private readonly safetyContact;

  constructor(
    private readonly db: DatabaseClient,
    private readonly submission: SubmissionService,
    private readonly restriction: ProcessingRestriction,
    private readonly followUpReach: TindakLanjutReachReader,
  ) {
    this.studentExists = preparedOnFirstUse(() => db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());
    this.latestAnswers = new ReadCache(databaseStamp(db.$client), { reads: [riwayatSkrining, tindakLanjut, mahasiswa, pertanyaanKeselamatan], maxEntries: 500 });
    this.safetyContact = preparedOnFirstUse(() =>
      db
        .select({ namaKontak: pertanyaanKeselamatan.namaKontak, teleponKontak: pertanyaanKeselamatan.teleponKontak })
        .from(pertanyaanKeselamatan)
        .where(eq(pertanyaanKeselamatan.id, 1))
        .prepare(),
    );
    this.latestRecord = preparedOnFirstUse(() =>
      db
        .select()
        .from(riwayatSkrining)
        .where(eq(riwayatSkrining.nim, sql.placeholder("nim")))
        .orderBy(...newestScreeningFirst)
        .limit(1)
        .prepare(),
    );
  }

  /** The caller may read `nim` (the route's `ownNim` and `advisee` options have said so). */
  canSubmit(nim: string) {
    const window = weeklyWindow(this.submission.lastSubmissionOf(nim));
    if (!window.blocked) {
      return { can_submit: true, message: "Anda dapat mengisi kuesioner.", last_submission_date: null, days_remaining: 0 };
    }
    return {
      can_submit: false,
      message: weeklyLimitMessage(window.daysRemaining),
      last_submission_date: window.lastSubmission,
      days_remaining: window.daysRemaining,
    };
  }

  /**
   * The latest screening with its answers, whether a person was alerted (decisions §13),
   * and after a critical answer to the safety question the person to call first (§20).
   */
  latest(nim: string) {
    const record = this.latestAnswers.get(nim, () => {
      const row = this.latestRecord.get({ nim });
      if (!row) return null;
      const contact = isCriticalAnswer(row.jawabanKeselamatan) ? this.safetyContact.get() : undefined;
      return {
        ...serializeSkrining(row, { withAnswers: true }),
        tindak_lanjut: this.followUpReach.of(nim, row.id),
        bantuan_segera: contact ? urgentHelp(contact) : null,
      };
    });
    if (!record) throw notFound(skriningMessages.noScreening);
    return record;
  }

  history(principal: Principal, query: Record<string, string | undefined>) {
    const nim = requestedNim(principal, query.nim);
    if (nim === null || !this.studentExists.get({ nim })) throw notFound(skriningMessages.studentUnknown);
    this.restriction.assertStaffMay(principal, nim);
    const { page, perPage, offset } = readPagination(query, 10);
    const total = this.db.select({ total: count() }).from(riwayatSkrining).where(eq(riwayatSkrining.nim, nim)).get()?.total ?? 0;
    const rows = this.db
      .select()
      .from(riwayatSkrining)
      .where(eq(riwayatSkrining.nim, nim))
      .orderBy(...newestScreeningFirst)
      .limit(perPage)
      .offset(offset)
      .all();
    return { data: rows.map((row) => serializeSkrining(row)), total, page, total_pages: totalPages(total, perPage) };
  }

  suggestions(query: Record<string, string | undefined>) {
    const stress = query.stress?.trim();
    const motivation = query.motivation?.trim();
    if (!stress || !motivation) throw invalid(skriningMessages.suggestionParameters);
    return { suggestions: suggestionsFor(stress, motivation).detailed_suggestions };
  }
}
