import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { diaryEntries, mahasiswa } from "../../db/schema";
import { type JsonObject, pathId, requestedNim, exceedsCharacters, isBlank, readCalendarDate } from "../../requests/values";
import { invalid, notFound } from "../../errors";
import { ownedEntry } from "../../requests/ownership";
import { ProcessingRestriction } from "../../privacy/restriction";
import { nowIso, serializeDiary } from "../../records";
import type { Principal } from "../../requests/principal";

/** What the diary jobs write: no read cache reads it. */
const diaryJob = { touches: [diaryEntries] };

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

function readContent(value: unknown): string {
  if (typeof value !== "string") throw invalid(diaryMessages.contentNotText);
  if (exceedsCharacters(value, contentMaxCharacters)) throw invalid(diaryMessages.contentTooLong);
  return value;
}

/** A student's diary: many entries per date, text kept as written. */
export class DiaryService {
  private readonly studentExists;
  private readonly entriesOf;
  private readonly entryById;
  private readonly restriction;
  private readonly storedBytes;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly quotaBytes: number,
  ) {
    this.studentExists = db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare();
    this.entriesOf = db
      .select()
      .from(diaryEntries)
      .where(eq(diaryEntries.nim, sql.placeholder("nim")))
      .orderBy(desc(diaryEntries.date), desc(diaryEntries.createdAt), desc(diaryEntries.id))
      .prepare();
    this.entryById = db.select().from(diaryEntries).where(eq(diaryEntries.id, sql.placeholder("id"))).prepare();
    this.restriction = new ProcessingRestriction(db);
    // The diary's size without one entry (the one being edited; 0 when writing a new one).
    this.storedBytes = db
      .select({ bytes: sql<number>`coalesce(sum(octet_length(${diaryEntries.title}) + octet_length(${diaryEntries.content})), 0)` })
      .from(diaryEntries)
      .where(and(eq(diaryEntries.nim, sql.placeholder("nim")), ne(diaryEntries.id, sql.placeholder("except"))))
      .prepare();
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
    if (nim === null || !this.studentExists.get({ nim })) throw notFound(diaryMessages.studentUnknown);
    this.restriction.assertStaffMay(principal, nim);
    return this.writes.run(() => {
      this.assertFits(nim, 0, title, content);
      const now = nowIso();
      return serializeDiary(this.db.insert(diaryEntries).values({ nim, date, title, content, createdAt: now, updatedAt: now }).returning().get());
    }, diaryJob);
  }

  /** Newest date first (the route's `ownNim` and `advisee` options have checked the caller). */
  list(nim: string) {
    return this.entriesOf.all({ nim }).map(serializeDiary);
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
      if (changes.title !== undefined || changes.content !== undefined) {
        this.assertFits(entry.nim, entry.id, changes.title ?? entry.title, changes.content ?? entry.content);
      }
      const row = this.db.update(diaryEntries).set(changes).where(eq(diaryEntries.id, entry.id)).returning().get();
      return serializeDiary(row!);
    }, diaryJob);
  }

  async remove(principal: Principal, rawId: string) {
    await this.writes.run(() => {
      const entry = this.ownEntry(principal, rawId);
      this.db.delete(diaryEntries).where(eq(diaryEntries.id, entry.id)).run();
    }, diaryJob);
    return { message: diaryMessages.deleted };
  }

  /** The student a path id's entry belongs to, or null: what the audit row of a deletion names. */
  ownerOf(rawId: string): string | null {
    const id = pathId(rawId);
    return id === null ? null : (this.entryById.get({ id })?.nim ?? null);
  }

  /** The entry a path id names: 404 when there is none, 403 when it is another student's or (staff) a restricted student's. */
  private ownEntry(principal: Principal, rawId: string) {
    const entry = ownedEntry(principal, rawId, (id) => this.entryById.get({ id }), diaryMessages.diaryUnknown);
    this.restriction.assertStaffMay(principal, entry.nim);
    return entry;
  }
}
