import { desc, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { catatanKonseling, mahasiswa } from "../../db/schema";
import type { JsonObject } from "../../http/body";
import { forbidden, invalid, notFound } from "../../errors";
import { pathId } from "../../http/params";
import { exceedsCharacters } from "../../http/values";
import { nowIso, serializeCatatan } from "../../records";
import type { Principal } from "../auth/service";

export const catatanMessages = {
  nimRequired: "NIM wajib disertakan oleh admin.",
  studentUnknown: "Mahasiswa tidak ditemukan.",
  noteUnknown: "Catatan tidak ditemukan.",
  notYourNote: "Anda tidak dapat membalas catatan ini.",
  alreadyReplied: "Anda sudah pernah membalas catatan ini.",
  nothingToEdit: "Belum ada balasan untuk diedit.",
  emptyReply: "Balasan tidak boleh kosong.",
  replyTooLong: "Balasan paling banyak 5000 karakter.",
  replyOnlyStudents: "Hanya mahasiswa yang dapat membalas catatan.",
  editOnlyStudents: "Hanya mahasiswa yang dapat mengedit balasan.",
  denied: "Akses ditolak.",
} as const;

const replyMaxLength = 5000;

/** Every note of the student `nim`, newest first (`tanggal_catat`, then `Id_catatan`); the student's and the lecturers' lists alike. */
export function prepareNotesOfStudent(db: DatabaseClient) {
  return db
    .select()
    .from(catatanKonseling)
    .where(eq(catatanKonseling.nim, sql.placeholder("nim")))
    .orderBy(desc(catatanKonseling.tanggalCatat), desc(catatanKonseling.id))
    .prepare();
}

/** A counselling note as its student sees it: the list, the detail and the reply. */
export class CatatanService {
  private readonly studentExists;
  private readonly notesOf;
  private readonly noteById;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.studentExists = db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare();
    this.notesOf = prepareNotesOfStudent(db);
    this.noteById = db.select().from(catatanKonseling).where(eq(catatanKonseling.id, sql.placeholder("id"))).prepare();
  }

  /** The student's own notes, or for an admin those of the `nim` named in the query; newest first. */
  list(principal: Principal, query: Record<string, string | undefined>) {
    const nim = principal.role === "mahasiswa" ? principal.nim : query.nim?.trim();
    if (principal.role !== "mahasiswa" && !nim) throw invalid(catatanMessages.nimRequired);
    if (!nim || !this.studentExists.get({ nim })) throw notFound(catatanMessages.studentUnknown);
    return this.notesOf.all({ nim }).map(serializeCatatan);
  }

  /** A student sees their own notes, a lecturer the notes they wrote, an admin any note. */
  detail(principal: Principal, rawId: string) {
    const id = pathId(rawId);
    const note = id === null ? undefined : this.noteById.get({ id });
    if (!note) throw notFound(catatanMessages.noteUnknown);
    const allowed =
      principal.role === "admin" ||
      (principal.role === "mahasiswa" && principal.nim === note.nim) ||
      (principal.role === "dosen" && principal.nip === note.nip);
    if (!allowed) throw forbidden(catatanMessages.denied);
    return serializeCatatan(note);
  }

  /**
   * The reply state table: `first` (POST) needs a note without a reply, an edit (PUT) one
   * with a reply. The check and the write share an IMMEDIATE transaction, so two first
   * replies sent at once cannot both pass.
   */
  reply(principal: Principal, rawId: string, body: JsonObject, mode: "first" | "edit") {
    const id = pathId(rawId);
    return this.writes.run(() => {
      const note = id === null ? undefined : this.db.select().from(catatanKonseling).where(eq(catatanKonseling.id, id)).get();
      if (!note) throw notFound(catatanMessages.noteUnknown);
      if (principal.nim === null || note.nim !== principal.nim) throw forbidden(catatanMessages.notYourNote);
      if (mode === "first" && note.reply !== "") throw invalid(catatanMessages.alreadyReplied);
      if (mode === "edit" && note.reply === "") throw invalid(catatanMessages.nothingToEdit);
      const text = typeof body.reply === "string" ? body.reply.trim() : "";
      if (text === "") throw invalid(catatanMessages.emptyReply);
      if (exceedsCharacters(text, replyMaxLength)) throw invalid(catatanMessages.replyTooLong);

      const updated = this.db
        .update(catatanKonseling)
        .set({ reply: text, tanggalReply: nowIso() })
        .where(eq(catatanKonseling.id, note.id))
        .returning()
        .get();
      return {
        message: mode === "first" ? "Balasan berhasil dikirim." : "Balasan berhasil diperbarui.",
        data: serializeCatatan(updated!),
      };
    });
  }
}
