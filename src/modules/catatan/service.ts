import { and, desc, eq, getTableColumns, isNull, ne, sql, type SQL } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { catatanKonseling, dosen, mahasiswa } from "../../db/schema";
import { StorageError } from "../../db/storage";
import type { WriteQueue } from "../../db/write-queue";
import { forbidden, invalid, notFound } from "../../errors";
import { type JsonObject, pathId, exceedsCharacters, readKey, requestedNim } from "../../requests/values";
import { accessMessages } from "../../requests/ownership";
import type { Principal } from "../../requests/principal";
import { AdvisorScope } from "../../privasi/advisor-scope";
import type { ProcessingRestriction } from "../../privasi/restriction";
import { nowIso, serializeCatatan } from "../../records";
import { preparedOnFirstUse } from "../../db/prepared";
import { replyIsNewFor } from "./new-replies";

/** What the notes jobs write (the lecturer's list reads it: new replies). */
const noteJob = { touches: [catatanKonseling] };

export const catatanMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
  noteUnknown: "Catatan tidak ditemukan.",
  notYourNote: "Anda tidak dapat membalas catatan ini.",
  alreadyReplied: "Anda sudah pernah membalas catatan ini.",
  nothingToEdit: "Belum ada balasan untuk diedit.",
  emptyReply: "Balasan tidak boleh kosong.",
  replyTooLong: "Balasan paling banyak 5000 karakter.",
  replyOnlyStudents: "Hanya mahasiswa yang dapat membalas catatan.",
  editOnlyStudents: "Hanya mahasiswa yang dapat mengedit balasan.",
  nipRequired: "NIP wajib disertakan oleh admin.",
  lecturerUnknown: "Dosen tidak ditemukan.",
  noteFieldsRequired: "NIM dan isi_catatan wajib diisi.",
  noteTooLong: "isi_catatan paling banyak 5000 karakter.",
} as const;

/** Notes and replies alike hold at most this many characters (decisions §4). */
export const textMaxLength = 5000;

/**
 * Counselling notes from both sides: a lecturer (or an admin in a lecturer's name) writes
 * them and lists a student's; the student lists theirs, reads one and replies. Notes are
 * noticed (decisions §13): a note records when its student first opened it and when its
 * lecturer first saw the reply. A note belongs to its conversation (decisions §19): its
 * author reads it and its reply after they stop being the student's advisor or handler, and
 * a reply to another lecturer's note is new for the student's advisor too until they saw it.
 */
export class CatatanService {
  private readonly studentByNim;
  private readonly lecturerExists;
  private readonly notesOf;
  private readonly notesForLecturer;
  private readonly noteById;
  private readonly authorOf;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly scope: AdvisorScope,
    private readonly restriction: ProcessingRestriction,
  ) {
    this.studentByNim = preparedOnFirstUse(() => db.select({ nim: mahasiswa.nim, nipDoswal: mahasiswa.nipDoswal }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());
    this.lecturerExists = preparedOnFirstUse(() => db.select({ nip: dosen.nip }).from(dosen).where(eq(dosen.nip, sql.placeholder("nip"))).prepare());
    // Each note with its lecturer's name, which the pages sign it with.
    const withLecturer = () => db.select({ ...getTableColumns(catatanKonseling), namaDosen: dosen.nama }).from(catatanKonseling).leftJoin(dosen, eq(dosen.nip, catatanKonseling.nip));
    this.notesOf = preparedOnFirstUse(() =>
      withLecturer()
        .where(eq(catatanKonseling.nim, sql.placeholder("nim")))
        .orderBy(desc(catatanKonseling.tanggalCatat), desc(catatanKonseling.id))
        .prepare(),
    );
    // The same list with whether each reply is new for the lecturer reading it (`nip`).
    this.notesForLecturer = preparedOnFirstUse(() =>
      db
        .select({ ...getTableColumns(catatanKonseling), namaDosen: dosen.nama, isNew: sql<number>`${replyIsNewFor(sql.placeholder("nip"))}` })
        .from(catatanKonseling)
        .leftJoin(dosen, eq(dosen.nip, catatanKonseling.nip))
        .where(eq(catatanKonseling.nim, sql.placeholder("nim")))
        .orderBy(desc(catatanKonseling.tanggalCatat), desc(catatanKonseling.id))
        .prepare(),
    );
    this.noteById = preparedOnFirstUse(() => withLecturer().where(eq(catatanKonseling.id, sql.placeholder("id"))).prepare());
    this.authorOf = preparedOnFirstUse(() =>
      db
        .select({ id: catatanKonseling.id })
        .from(catatanKonseling)
        .where(and(eq(catatanKonseling.nim, sql.placeholder("nim")), eq(catatanKonseling.nip, sql.placeholder("nip"))))
        .limit(1)
        .prepare(),
    );
  }

  /** Every note of the student `nim`, newest first (`tanggal_catat`, then `Id_catatan`); the student's and the lecturers' lists alike. */
  ofStudent(nim: string) {
    return this.notesOf.all({ nim }).map((row) => serializeCatatan(row));
  }

  /**
   * Whether a lecturer out of the advisor scope may still read the student's notes route:
   * they wrote a note to the student (decisions §19; they then read only their own).
   */
  wroteTo(principal: Principal, nim: string): boolean {
    return principal.role === "dosen" && principal.nip !== null && this.authorOf.get({ nim, nip: principal.nip }) !== undefined;
  }

  /**
   * The student's notes as a lecturer opens them (their page of the student, their list of
   * the notes): answered as they stood, so that a reply new to the lecturer shows as new
   * once (`balasan_baru`); the replies new to them are then marked seen. A lecturer who no
   * longer advises the student nor handles their open case reads only the notes they wrote.
   */
  async openedByLecturer(principal: Principal, nim: string) {
    if (principal.role !== "dosen" || principal.nip === null) return this.ofStudent(nim);
    const nip = principal.nip;
    const lecturers = this.scope.of(nim);
    const rows = this.notesForLecturer.all({ nim, nip });
    const visible = AdvisorScope.admits(principal, lecturers) ? rows : rows.filter((row) => row.nip === nip);
    const notes = visible.map((row) => serializeCatatan(row, row.isNew === 1));
    if (notes.some((note) => note.balasan_baru)) await this.markSeen(nim, nip, lecturers?.advisor === nip);
    return notes;
  }

  /**
   * Marks seen now the replies new for `nip` among the student's notes: their own notes', and
   * as the student's advisor the other lecturers'. A failure of the disk leaves them unseen,
   * to be marked at the next look.
   */
  private async markSeen(nim: string, nip: string, asAdvisor: boolean, only?: SQL): Promise<void> {
    const replied = and(eq(catatanKonseling.nim, nim), ne(catatanKonseling.reply, ""), only);
    try {
      await this.writes.run(() => {
        this.db
          .update(catatanKonseling)
          .set({ balasanDibacaDosenPada: nowIso() })
          .where(and(replied, eq(catatanKonseling.nip, nip), isNull(catatanKonseling.balasanDibacaDosenPada)))
          .run();
        if (asAdvisor) {
          this.db
            .update(catatanKonseling)
            .set({ balasanDilihatDoswal: nip })
            .where(and(replied, ne(catatanKonseling.nip, nip), sql`${catatanKonseling.balasanDilihatDoswal} IS NOT ${nip}`))
            .run();
        }
      }, noteJob);
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
    }
  }

  /** The student's own notes, or for an admin those of the `nim` named in the query; newest first. */
  list(principal: Principal, query: Record<string, string | undefined>) {
    const nim = requestedNim(principal, query.nim);
    if (nim === null || !this.studentByNim.get({ nim })) throw notFound(catatanMessages.studentUnknown);
    this.restriction.assertStaffMay(principal, nim);
    return this.ofStudent(nim);
  }

  /**
   * A student sees their own notes, a lecturer the notes they wrote, an admin any note. The
   * student opening their note marks it read (the answer says when, as stored); its lecturer
   * opening it marks the reply seen.
   */
  async detail(principal: Principal, rawId: string) {
    const id = pathId(rawId);
    const note = id === null ? undefined : this.noteById.get({ id });
    if (!note) throw notFound(catatanMessages.noteUnknown);
    const ownStudent = principal.role === "mahasiswa" && principal.nim === note.nim;
    const ownLecturer = principal.role === "dosen" && principal.nip === note.nip;
    if (!(principal.role === "admin" || ownStudent || ownLecturer)) throw forbidden(accessMessages.denied);
    this.restriction.assertStaffMay(principal, note.nim);
    if (ownStudent && note.dibacaMahasiswaPada === null) return serializeCatatan({ ...(await this.markRead(note)), namaDosen: note.namaDosen });
    const newReply = ownLecturer && note.reply !== "" && note.balasanDibacaDosenPada === null;
    if (newReply) await this.markSeen(note.nim, note.nip, false, eq(catatanKonseling.id, note.id));
    return serializeCatatan(note, newReply);
  }

  /** The note as stored after its student first opened it; unchanged when the disk refused the write. */
  private async markRead(note: typeof catatanKonseling.$inferSelect): Promise<typeof catatanKonseling.$inferSelect> {
    try {
      return await this.writes.run(
        () =>
          this.db
            .update(catatanKonseling)
            .set({ dibacaMahasiswaPada: sql`coalesce(${catatanKonseling.dibacaMahasiswaPada}, ${nowIso()})` })
            .where(eq(catatanKonseling.id, note.id))
            .returning()
            .get() ?? note,
        noteJob,
      );
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      return note;
    }
  }

  /**
   * A new note, checks in the documented order: the admin's `NIP`, the fields, the length,
   * the student, the admin's lecturer, the advisor scope (an advisee, or the student of an
   * open case the lecturer handles). A rejected request writes nothing.
   */
  async create(principal: Principal, body: JsonObject) {
    const adminNip = principal.role === "admin" ? readKey(body.NIP) : null;
    if (adminNip === "") throw invalid(catatanMessages.nipRequired);
    const nim = readKey(body.NIM);
    const isi = typeof body.isi_catatan === "string" ? body.isi_catatan.trim() : "";
    if (!nim || !isi) throw invalid(catatanMessages.noteFieldsRequired);
    if (exceedsCharacters(isi, textMaxLength)) throw invalid(catatanMessages.noteTooLong);
    const student = this.studentByNim.get({ nim });
    if (!student) throw notFound(catatanMessages.studentUnknown);
    let nip: string;
    if (adminNip !== null) {
      if (!this.lecturerExists.get({ nip: adminNip })) throw notFound(catatanMessages.lecturerUnknown);
      nip = adminNip;
    } else {
      // The advisor, or the handler of the student's open follow-up case (decisions §13).
      if (!this.scope.mayRead(principal, nim)) throw forbidden(accessMessages.notAdvisee);
      nip = principal.nip!;
    }
    this.restriction.assertStaffMay(principal, nim);
    const note = await this.writes.run(
      () => this.db.insert(catatanKonseling).values({ nim, nip, isi, tanggalCatat: nowIso(), reply: "", tanggalReply: null }).returning({ id: catatanKonseling.id }).get(),
      noteJob,
    );
    return { message: "Catatan berhasil disimpan.", id: note.id };
  }

  /**
   * The reply state table: `first` (POST) needs a note without a reply, an edit (PUT) one
   * with a reply. The check and the write share one job of the write queue, so two first
   * replies sent at once cannot both pass.
   */
  reply(principal: Principal, rawId: string, body: JsonObject, mode: "first" | "edit") {
    const id = pathId(rawId);
    return this.writes.run(() => {
      const note = id === null ? undefined : this.noteById.get({ id });
      if (!note) throw notFound(catatanMessages.noteUnknown);
      if (principal.nim === null || note.nim !== principal.nim) throw forbidden(catatanMessages.notYourNote);
      if (mode === "first" && note.reply !== "") throw invalid(catatanMessages.alreadyReplied);
      if (mode === "edit" && note.reply === "") throw invalid(catatanMessages.nothingToEdit);
      const text = typeof body.reply === "string" ? body.reply.trim() : "";
      if (text === "") throw invalid(catatanMessages.emptyReply);
      if (exceedsCharacters(text, textMaxLength)) throw invalid(catatanMessages.replyTooLong);

      // A new or changed reply is new to the lecturer and the advisor again.
      const updated = this.db
        .update(catatanKonseling)
        .set({ reply: text, tanggalReply: nowIso(), balasanDibacaDosenPada: null, balasanDilihatDoswal: null })
        .where(eq(catatanKonseling.id, note.id))
        .returning()
        .get();
      return {
        message: mode === "first" ? "Balasan berhasil dikirim." : "Balasan berhasil diperbarui.",
        data: serializeCatatan({ ...updated!, namaDosen: note.namaDosen }),
      };
    }, noteJob);
  }
}
