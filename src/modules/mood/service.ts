import { and, desc, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { mahasiswa, moodEntries } from "../../db/schema";
import { type JsonObject, pathId, requestedNim, isBlank, readCalendarDate } from "../../requests/values";
import { conflict, invalid, notFound } from "../../errors";
import { ownedEntry } from "../../requests/ownership";
import { ProcessingRestriction } from "../../privacy/restriction";
import { readInteger } from "../../numbers";
import { nowIso, serializeMood } from "../../records";
import type { Principal } from "../../requests/principal";

/** What the mood jobs write: no read cache reads it. */
const moodJob = { touches: [moodEntries] };

export const moodMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
  required: "date dan mood_value wajib diisi.",
  valueNotInteger: "mood_value harus berupa angka.",
  valueOutOfRange: "mood_value harus antara 1-5.",
  dateFormat: "format date harus YYYY-MM-DD.",
  updateValueNotInteger: "mood_value harus angka.",
  updateValueOutOfRange: "mood_value harus 1-5.",
  updateDateFormat: "format date YYYY-MM-DD.",
  moodUnknown: "Mood tidak ditemukan.",
  dateTaken: "Mood untuk tanggal itu sudah ada.",
  deleted: "Mood berhasil dihapus.",
} as const;

const inMoodRange = (value: number) => value >= 1 && value <= 5;

/** A student's daily mood: one entry per (nim, date), written by POST as an upsert. */
export class MoodService {
  private readonly studentExists;
  private readonly entriesOf;
  private readonly entryById;
  private readonly restriction;
  private readonly entryOnDate;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.studentExists = db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare();
    this.entriesOf = db
      .select()
      .from(moodEntries)
      .where(eq(moodEntries.nim, sql.placeholder("nim")))
      .orderBy(desc(moodEntries.date), desc(moodEntries.createdAt), desc(moodEntries.id))
      .prepare();
    this.entryById = db.select().from(moodEntries).where(eq(moodEntries.id, sql.placeholder("id"))).prepare();
    this.restriction = new ProcessingRestriction(db);
    this.entryOnDate = db
      .select({ id: moodEntries.id })
      .from(moodEntries)
      .where(and(eq(moodEntries.nim, sql.placeholder("nim")), eq(moodEntries.date, sql.placeholder("date"))))
      .prepare();
  }

  /**
   * The interface's mood rules in their order, then the upsert. The lookup that decides
   * 201 or 200 and the upsert share one IMMEDIATE transaction: no other writer can add the
   * (nim, date) row in between, so parallel requests leave one row and exactly one 201.
   */
  record(principal: Principal, body: JsonObject) {
    const nim = requestedNim(principal, body.nim);
    if (isBlank(body.date) || isBlank(body.mood_value)) throw invalid(moodMessages.required);
    const moodValue = readInteger(body.mood_value);
    if (moodValue === null) throw invalid(moodMessages.valueNotInteger);
    if (!inMoodRange(moodValue)) throw invalid(moodMessages.valueOutOfRange);
    const date = readCalendarDate(body.date);
    if (date === null) throw invalid(moodMessages.dateFormat);

    return this.writes.run(() => {
      if (nim === null || !this.studentExists.get({ nim })) throw notFound(moodMessages.studentUnknown);
      this.restriction.assertStaffMay(principal, nim);
      const created = this.entryOnDate.get({ nim, date }) === undefined;
      const now = nowIso();
      const row = this.db
        .insert(moodEntries)
        .values({ nim, date, moodValue, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [moodEntries.nim, moodEntries.date], set: { moodValue, updatedAt: now } })
        .returning()
        .get();
      return { created, entry: serializeMood(row) };
    }, moodJob);
  }

  /** Newest date first (the route's `ownNim` and `advisee` options have checked the caller). */
  list(nim: string) {
    return this.entriesOf.all({ nim }).map(serializeMood);
  }

  /**
   * Unknown id (404), then another student's entry (403), then the body: `mood_value`
   * before `date`, each only when given. Moving the entry onto a date the student already
   * has answers 409 instead of breaking the one-per-date rule.
   */
  update(principal: Principal, rawId: string, body: JsonObject) {
    return this.writes.run(() => {
      const entry = this.ownEntry(principal, rawId);
      const changes: Partial<typeof moodEntries.$inferInsert> = { updatedAt: nowIso() };
      if (body.mood_value !== undefined) {
        const moodValue = readInteger(body.mood_value);
        if (moodValue === null) throw invalid(moodMessages.updateValueNotInteger);
        if (!inMoodRange(moodValue)) throw invalid(moodMessages.updateValueOutOfRange);
        changes.moodValue = moodValue;
      }
      if (body.date !== undefined) {
        const date = readCalendarDate(body.date);
        if (date === null) throw invalid(moodMessages.updateDateFormat);
        const holder = this.entryOnDate.get({ nim: entry.nim, date });
        if (holder !== undefined && holder.id !== entry.id) throw conflict(moodMessages.dateTaken);
        changes.date = date;
      }
      const row = this.db.update(moodEntries).set(changes).where(eq(moodEntries.id, entry.id)).returning().get();
      return serializeMood(row!);
    }, moodJob);
  }

  async remove(principal: Principal, rawId: string) {
    await this.writes.run(() => {
      const entry = this.ownEntry(principal, rawId);
      this.db.delete(moodEntries).where(eq(moodEntries.id, entry.id)).run();
    }, moodJob);
    return { message: moodMessages.deleted };
  }

  /** The student a path id's entry belongs to, or null: what the audit row of a deletion names. */
  ownerOf(rawId: string): string | null {
    const id = pathId(rawId);
    return id === null ? null : (this.entryById.get({ id })?.nim ?? null);
  }

  /** The entry a path id names: 404 when there is none, 403 when it is another student's or (staff) a restricted student's. */
  private ownEntry(principal: Principal, rawId: string) {
    const entry = ownedEntry(principal, rawId, (id) => this.entryById.get({ id }), moodMessages.moodUnknown);
    this.restriction.assertStaffMay(principal, entry.nim);
    return entry;
  }
}
