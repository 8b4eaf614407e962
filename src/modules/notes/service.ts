import { desc, eq, getTableColumns, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { catatanKonseling, dosen, mahasiswa } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { forbidden, invalid, notFound } from "../../errors";
import type { JsonObject } from "../../http/body";
import { guardMessages } from "../../http/guards";
import { pathId } from "../../http/params";
import type { Principal } from "../../http/principal";
import { exceedsCharacters, readKey, requestedNim } from "../../http/values";
import { ProcessingRestriction } from "../../privacy/restriction";
import { nowIso, serializeCatatan } from "../../records";

export const notesMessages = {
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
 * them and lists a student's; the student lists theirs, reads one and replies.
 */
export class NotesService {
  private readonly studentByNim;
  private readonly lecturerExists;
  private readonly notesOf;
  private readonly noteById;
  private readonly restriction;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.studentByNim = db.select({ nim: mahasiswa.nim, nipDoswal: mahasiswa.nipDoswal }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare();
    this.lecturerExists = db.select({ nip: dosen.nip }).from(dosen).where(eq(dosen.nip, sql.placeholder("nip"))).prepare();
    // Each note with its lecturer's name, which the pages sign it with.
    const withLecturer = () => db.select({ ...getTableColumns(catatanKonseling), namaDosen: dosen.nama }).from(catatanKonseling).leftJoin(dosen, eq(dosen.nip, catatanKonseling.nip));
    this.notesOf = withLecturer()
      .where(eq(catatanKonseling.nim, sql.placeholder("nim")))
      .orderBy(desc(catatanKonseling.tanggalCatat), desc(catatanKonseling.id))
      .prepare();
    this.noteById = withLecturer().where(eq(catatanKonseling.id, sql.placeholder("id"))).prepare();
    this.restriction = new ProcessingRestriction(db);
  }

  /** Every note of the student `nim`, newest first (`tanggal_catat`, then `Id_catatan`); the student's and the lecturers' lists alike. */
  ofStudent(nim: string) {
    return this.notesOf.all({ nim }).map(serializeCatatan);
  }

  /** The student's own notes, or for an admin those of the `nim` named in the query; newest first. */
  list(principal: Principal, query: Record<string, string | undefined>) {
    const nim = requestedNim(principal, query.nim);
    if (nim === null || !this.studentByNim.get({ nim })) throw notFound(notesMessages.studentUnknown);
    this.restriction.assertStaffMay(principal, nim);
    return this.ofStudent(nim);
  }

  /** A student sees their own notes, a lecturer the notes they wrote, an admin any note. */
  detail(principal: Principal, rawId: string) {
    const id = pathId(rawId);
    const note = id === null ? undefined : this.noteById.get({ id });
    if (!note) throw notFound(notesMessages.noteUnknown);
    const allowed =
      principal.role === "admin" ||
      (principal.role === "mahasiswa" && principal.nim === note.nim) ||
      (principal.role === "dosen" && principal.nip === note.nip);
    if (!allowed) throw forbidden(guardMessages.denied);
    this.restriction.assertStaffMay(principal, note.nim);
    return serializeCatatan(note);
  }

  /**
   * A new note, checks in the documented order: the admin's `NIP`, the fields, the length,
   * the student, the admin's lecturer, the lecturer's advisee. A rejected request writes nothing.
   */
  async create(principal: Principal, body: JsonObject) {
    const adminNip = principal.role === "admin" ? readKey(body.NIP) : null;
    if (adminNip === "") throw invalid(notesMessages.nipRequired);
    const nim = readKey(body.NIM);
    const isi = typeof body.isi_catatan === "string" ? body.isi_catatan.trim() : "";
    if (!nim || !isi) throw invalid(notesMessages.noteFieldsRequired);
    if (exceedsCharacters(isi, textMaxLength)) throw invalid(notesMessages.noteTooLong);
    const student = this.studentByNim.get({ nim });
    if (!student) throw notFound(notesMessages.studentUnknown);
    let nip: string;
    if (adminNip !== null) {
      if (!this.lecturerExists.get({ nip: adminNip })) throw notFound(notesMessages.lecturerUnknown);
      nip = adminNip;
    } else {
      // A lecturer account without a profile advises nobody.
      if (principal.nip === null || student.nipDoswal !== principal.nip) throw forbidden(guardMessages.notAdvisee);
      nip = principal.nip;
    }
    this.restriction.assertStaffMay(principal, nim);
    const note = await this.writes.run(() =>
      this.db.insert(catatanKonseling).values({ nim, nip, isi, tanggalCatat: nowIso(), reply: "", tanggalReply: null }).returning({ id: catatanKonseling.id }).get(),
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
      if (!note) throw notFound(notesMessages.noteUnknown);
      if (principal.nim === null || note.nim !== principal.nim) throw forbidden(notesMessages.notYourNote);
      if (mode === "first" && note.reply !== "") throw invalid(notesMessages.alreadyReplied);
      if (mode === "edit" && note.reply === "") throw invalid(notesMessages.nothingToEdit);
      const text = typeof body.reply === "string" ? body.reply.trim() : "";
      if (text === "") throw invalid(notesMessages.emptyReply);
      if (exceedsCharacters(text, textMaxLength)) throw invalid(notesMessages.replyTooLong);

      const updated = this.db.update(catatanKonseling).set({ reply: text, tanggalReply: nowIso() }).where(eq(catatanKonseling.id, note.id)).returning().get();
      return {
        message: mode === "first" ? "Balasan berhasil dikirim." : "Balasan berhasil diperbarui.",
        data: serializeCatatan({ ...updated!, namaDosen: note.namaDosen }),
      };
    });
  }
}
