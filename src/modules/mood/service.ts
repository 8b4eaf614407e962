import type { ProcessingRestriction } from "../../privasi/restriction";
import { and, eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { moodEntries } from "../../db/schema";
import { conflict, invalid } from "../../errors";
import { readInteger } from "../../numbers";
import { nowIso, serializeMood } from "../../records";
import type { Principal } from "../../requests/principal";
import { type JsonObject, requestedNim, isBlank, readCalendarDate } from "../../requests/values";
import { DatedEntries } from "../dated-entries/service";
import { preparedOnFirstUse } from "../../db/prepared";

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
export class MoodService extends DatedEntries<typeof moodEntries, ReturnType<typeof serializeMood>> {
  private readonly entryOnDate;

  constructor(db: DatabaseClient, writes: WriteQueue, restriction: ProcessingRestriction) {
    super(db, writes, restriction, moodEntries, serializeMood, { studentUnknown: moodMessages.studentUnknown, entryUnknown: moodMessages.moodUnknown, deleted: moodMessages.deleted });
    this.entryOnDate = preparedOnFirstUse(() =>
      db
        .select({ id: moodEntries.id })
        .from(moodEntries)
        .where(and(eq(moodEntries.nim, sql.placeholder("nim")), eq(moodEntries.date, sql.placeholder("date"))))
        .prepare(),
    );
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
      this.assertStudent(principal, nim);
      const created = this.entryOnDate.get({ nim, date }) === undefined;
      const now = nowIso();
      const row = this.db
        .insert(moodEntries)
        .values({ nim, date, moodValue, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [moodEntries.nim, moodEntries.date], set: { moodValue, updatedAt: now } })
        .returning()
        .get();
      return { created, entry: serializeMood(row) };
    }, this.job);
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
    }, this.job);
  }
}
