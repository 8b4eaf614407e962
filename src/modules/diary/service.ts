import type { ProcessingRestriction } from "../../privasi/restriction";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { diaryEntries } from "../../db/schema";
import { invalid } from "../../errors";
import { nowIso, serializeDiary } from "../../records";
import type { Principal } from "../../requests/principal";
import { type JsonObject, requestedNim, exceedsCharacters, isBlank, readCalendarDate } from "../../requests/values";
import { DatedEntries } from "../dated-entries/service";
import { preparedOnFirstUse } from "../../db/prepared";

export const titleMaxCharacters = 200;
export const contentMaxCharacters = 20000;

export const diaryMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
  required: "date dan content wajib diisi.",
  dateFormat: "format date harus YYYY-MM-DD.",
  updateDateFormat: "format date YYYY-MM-DD.",
  contentEmpty: "content tidak boleh kosong.",
  titleNotText: "title harus berupa teks.",
  titleTooLong: `title paling banyak ${titleMaxCharacters} karakter.`,
  contentNotText: "content harus berupa teks.",
  sharedNotBoolean: "dibagikan harus true atau false.",
  contentTooLong: `content paling banyak ${contentMaxCharacters} karakter.`,
  diaryUnknown: "Diary tidak ditemukan.",
  quotaFull: "Kapasitas jurnal penuh.",
  deleted: "Diary berhasil dihapus.",
} as const;

/** Blank content: absent, null, or a string of only white space. */
const blankContent = (value: unknown) => isBlank(value) || (typeof value === "string" && value.trim() === "");

/** A title as stored: absent or null is the default empty title. */
function readTitle(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw invalid(diaryMessages.titleNotText);
  if (exceedsCharacters(value, titleMaxCharacters)) throw invalid(diaryMessages.titleTooLong);
  return value;
}

/** Decisions §19: whether the student shares the entry with her advisor; a boolean, absent meaning "as it is" (false for a new entry). */
function readShared(value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw invalid(diaryMessages.sharedNotBoolean);
  return value;
}

function readContent(value: unknown): string {
  if (typeof value !== "string") throw invalid(diaryMessages.contentNotText);
  if (exceedsCharacters(value, contentMaxCharacters)) throw invalid(diaryMessages.contentTooLong);
  return value;
}

/**
 * A student's diary: many entries per date, text kept as written. An entry is the student's
 * own unless she shares it (decisions §19, `dibagikan`): staff reading the diary see the
 * shared entries only.
 */
export class DiaryService extends DatedEntries<typeof diaryEntries, ReturnType<typeof serializeDiary>> {
  private readonly storedBytes;
  private readonly sharedOf;

  constructor(
    db: DatabaseClient,
    writes: WriteQueue,
    restriction: ProcessingRestriction,
    private readonly quotaBytes: number,
  ) {
    super(db, writes, restriction, diaryEntries, serializeDiary, { studentUnknown: diaryMessages.studentUnknown, entryUnknown: diaryMessages.diaryUnknown, deleted: diaryMessages.deleted });
    // The diary's size without one entry (the one being edited; 0 when writing a new one).
    this.storedBytes = preparedOnFirstUse(() =>
      db
        .select({ bytes: sql<number>`coalesce(sum(octet_length(${diaryEntries.title}) + octet_length(${diaryEntries.content})), 0)` })
        .from(diaryEntries)
        .where(and(eq(diaryEntries.nim, sql.placeholder("nim")), ne(diaryEntries.id, sql.placeholder("except"))))
        .prepare(),
    );
    this.sharedOf = preparedOnFirstUse(() =>
      db
        .select()
        .from(diaryEntries)
        .where(and(eq(diaryEntries.nim, sql.placeholder("nim")), eq(diaryEntries.dibagikan, true)))
        .orderBy(desc(diaryEntries.date), desc(diaryEntries.createdAt), desc(diaryEntries.id))
        .prepare(),
    );
  }

  /** The student reads every entry of hers; a lecturer or an admin only those she shared (decisions §19). */
  override list(nim: string, reader?: Principal) {
    if (reader === undefined || reader.role === "mahasiswa") return super.list(nim);
    return this.sharedOf.all({ nim }).map((row) => serializeDiary(row));
  }

  /** decisions §10: a student's diary holds at most the quota of UTF-8 text, title and content together. */
  private assertFits(nim: string, except: number, title: string, content: string): void {
    const stored = this.storedBytes.get({ nim, except })?.bytes ?? 0;
    if (stored + Buffer.byteLength(title, "utf8") + Buffer.byteLength(content, "utf8") > this.quotaBytes) throw invalid(diaryMessages.quotaFull);
  }

  /**
   * The interface's diary rules in order: NIM, required fields, date, text limits, student,
   * then the quota. The quota check and the insert share an IMMEDIATE transaction, so
   * parallel writes cannot overfill the diary together.
   */
  create(principal: Principal, body: JsonObject) {
    const nim = requestedNim(principal, body.nim);
    if (isBlank(body.date) || blankContent(body.content)) throw invalid(diaryMessages.required);
    const date = readCalendarDate(body.date);
    if (date === null) throw invalid(diaryMessages.dateFormat);
    const title = readTitle(body.title);
    const content = readContent(body.content);
    const dibagikan = readShared(body.dibagikan) ?? false;
    this.assertStudent(principal, nim);
    return this.writes.run(() => {
      this.assertFits(nim, 0, title, content);
      const now = nowIso();
      return serializeDiary(this.db.insert(diaryEntries).values({ nim, date, title, content, createdAt: now, updatedAt: now, dibagikan }).returning().get());
    }, this.job);
  }

  /**
   * Unknown id (404), then another student's entry (403), then the fields given, in the
   * order of the create rules: blank content, date, title, content limits.
   */
  update(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const entry = this.ownEntry(principal, rawId);
      const changes: Partial<typeof diaryEntries.$inferInsert> = { updatedAt: nowIso() };
      if (body.content !== undefined && blankContent(body.content)) throw invalid(diaryMessages.contentEmpty);
      if (body.date !== undefined) {
        const date = readCalendarDate(body.date);
        if (date === null) throw invalid(diaryMessages.updateDateFormat);
        changes.date = date;
      }
      if (body.title !== undefined) changes.title = readTitle(body.title);
      if (body.content !== undefined) changes.content = readContent(body.content);
      changes.dibagikan = readShared(body.dibagikan);
      if (changes.title !== undefined || changes.content !== undefined) {
        this.assertFits(entry.nim, entry.id, changes.title ?? entry.title, changes.content ?? entry.content);
      }
      const row = this.db.update(diaryEntries).set(changes).where(eq(diaryEntries.id, entry.id)).returning().get();
      return serializeDiary(row!);
    }, this.job);
  }
}
