import { and, asc, desc, eq, isNull, ne, or, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { DatabaseClient } from "../../db";
import { actorName } from "../../audit/names";
import { auditLog, auditSubjects, permintaanKontak, privacyAcknowledgements } from "../../db/schema";
import { notFound } from "../../errors";
import type { StudentData } from "./model";
import type { DiaryService } from "../diary/service";
import type { MoodService } from "../mood/service";
import type { CatatanService } from "../catatan/service";
import type { ProfilService } from "../profil/service";
import { serializeSkrining } from "../../records";
import { preparedOnFirstUse } from "../../db/prepared";
import { screeningsOfStudentQuery, studentByNimQuery } from "../../db/student-reads";

export type StudentDataDocument = Static<typeof StudentData>;

/** The services whose answers the document repeats, so that each part has the keys its own route gives. */
export interface DocumentSources {
  profil: ProfilService;
  mood: MoodService;
  diary: DiaryService;
  notes: CatatanService;
}

export const documentMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
} as const;

/** The photo's route for a student, as the web interface loads it. */
export const photoUrl = (nim: string) => `/api/mahasiswa/profil/foto/${encodeURIComponent(nim)}`;

/**
 * A student's data document (UU PDP's right of access): the profile, every screening with
 * its answers, moods, diary, notes with replies, requests for contact, the photo's route, the acknowledged
 * privacy notices, the restriction, and who else accessed the data according to the
 * audit trail (role, name, time, action, route; never the address).
 */
export class StudentDataDocuments {
  private readonly studentByNim;
  private readonly screeningsOf;
  private readonly acknowledgementsOf;
  private readonly requestsOf;
  private readonly accessesBy;

  constructor(
    private readonly db: DatabaseClient,
    private readonly sources: DocumentSources,
  ) {
    this.studentByNim = studentByNimQuery(db);
    this.screeningsOf = screeningsOfStudentQuery(db);
    this.acknowledgementsOf = preparedOnFirstUse(() =>
      db
        .select({ versi: privacyAcknowledgements.noticeVersion, disetujui_pada: privacyAcknowledgements.acknowledgedAt })
        .from(privacyAcknowledgements)
        .where(eq(privacyAcknowledgements.userId, sql.placeholder("userId")))
        .orderBy(asc(privacyAcknowledgements.acknowledgedAt), asc(privacyAcknowledgements.noticeVersion))
        .prepare(),
    );
    this.requestsOf = preparedOnFirstUse(() =>
      db
        .select({ waktu: permintaanKontak.waktu, pesan: permintaanKontak.pesan })
        .from(permintaanKontak)
        .where(eq(permintaanKontak.nim, sql.placeholder("nim")))
        .orderBy(desc(permintaanKontak.waktu), desc(permintaanKontak.id))
        .prepare(),
    );
    // Rows naming the student whose actor is not the student's own account (a command has no account).
    this.accessesBy = preparedOnFirstUse(() =>
      db
        .select({ waktu: auditLog.at, peran: auditLog.actorRole, nama: actorName, aksi: auditLog.action, rute: auditLog.target, kali: auditLog.reads })
        .from(auditSubjects)
        .innerJoin(auditLog, eq(auditLog.id, auditSubjects.auditId))
        .where(
          and(
            eq(auditSubjects.nim, sql.placeholder("nim")),
            or(isNull(auditLog.actorUserId), ne(auditLog.actorUserId, sql.placeholder("userId"))),
          ),
        )
        .orderBy(desc(auditSubjects.auditId))
        .prepare(),
    );
  }

  /**
   * The document of `nim`, read from one snapshot (a savepoint inside a transaction); 404
   * with `unknown` when no such student exists.
   */
  of(nim: string, unknown: string = documentMessages.studentUnknown, now = new Date()): StudentDataDocument {
    return this.db.$client.transaction((): StudentDataDocument => {
      const student = this.studentByNim.get({ nim });
      if (!student) throw notFound(unknown);
      return {
        dibuat_pada: now.toISOString(),
        profil: this.sources.profil.data(nim),
        foto_url: student.fotoProfil === null ? null : photoUrl(nim),
        skrining: this.screeningsOf.all({ nim }).map((row) => {
          const record = serializeSkrining(row, { withAnswers: true });
          return { ...record, input_jawaban: record.input_jawaban! };
        }),
        mood: this.sources.mood.list(nim),
        jurnal: this.sources.diary.list(nim),
        catatan: this.sources.notes.ofStudent(nim),
        permintaan_kontak: this.requestsOf.all({ nim }),
        pemberitahuan_privasi: this.acknowledgementsOf.all({ userId: student.userId }),
        dibatasi_sejak: student.restrictedAt,
        dilihat_oleh: this.accessesBy.all({ nim, userId: student.userId }),
      };
    }).deferred();
  }
}
