import { desc, eq, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DatabaseClient } from "../../db";
import { mahasiswa } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { notFound } from "../../errors";
import type { ProcessingRestriction } from "../../privasi/restriction";
import { ownedEntry } from "../../requests/ownership";
import type { Principal } from "../../requests/principal";
import { pathId } from "../../requests/values";
import { preparedOnFirstUse } from "../../db/prepared";

/** A table of a student's dated entries: the columns mood_entries and diary_entries have alike. */
export type DatedEntryTable = SQLiteTable & {
  id: SQLiteColumn;
  nim: SQLiteColumn;
  date: SQLiteColumn;
  createdAt: SQLiteColumn;
  $inferSelect: { id: number; nim: string };
};

/** What a kind of entry answers with: its own texts for the same rules (the interface's). */
export interface DatedEntryTexts {
  /** No student has the NIM a new entry is written for (404). */
  studentUnknown: string;
  /** No entry of the kind has the path's id (404). */
  entryUnknown: string;
  /** The answer to a deletion. */
  deleted: string;
}

/**
 * A student's dated entries (the mood log, the diary): what the kinds share. Their list,
 * newest date first; an entry a path id names, refused to all but its student, admins and
 * (unless the student's processing is restricted) staff; its deletion; the checks before a
 * new entry is written. A kind adds its own writes and their rules.
 */
export class DatedEntries<Table extends DatedEntryTable, Entry> {
  /** What the entries' jobs write: no read cache reads it. */
  protected readonly job: { touches: Table[] };
  private readonly studentExists;
  private readonly entriesOf;
  private readonly entryById;

  constructor(
    protected readonly db: DatabaseClient,
    protected readonly writes: WriteQueue,
    protected readonly restriction: ProcessingRestriction,
    private readonly table: Table,
    private readonly serialize: (row: Table["$inferSelect"]) => Entry,
    private readonly texts: DatedEntryTexts,
  ) {
    this.job = { touches: [table] };
    this.studentExists = preparedOnFirstUse(() => db.select({ nim: mahasiswa.nim }).from(mahasiswa).where(eq(mahasiswa.nim, sql.placeholder("nim"))).prepare());
    this.entriesOf = preparedOnFirstUse(() =>
      db
        .select()
        .from(table)
        .where(eq(table.nim, sql.placeholder("nim")))
        .orderBy(desc(table.date), desc(table.createdAt), desc(table.id))
        .prepare(),
    );
    this.entryById = preparedOnFirstUse(() => db.select().from(table).where(eq(table.id, sql.placeholder("id"))).prepare());
  }

  /**
   * Newest date first, then the newest written, then the highest id (the route's `ownNim` and
   * `advisee` options have checked the caller, `reader`; a kind may show them less).
   */
  list(nim: string, _reader?: Principal): Entry[] {
    return (this.entriesOf.all({ nim }) as Table["$inferSelect"][]).map(this.serialize);
  }

  async remove(principal: Principal, rawId: string) {
    await this.writes.run(() => {
      const entry = this.ownEntry(principal, rawId);
      this.db.delete(this.table).where(eq(this.table.id, entry.id)).run();
    }, this.job);
    return { message: this.texts.deleted };
  }

  /** The student a path id's entry belongs to, or null: what the audit row of a deletion names. */
  ownerOf(rawId: string): string | null {
    const id = pathId(rawId);
    return id === null ? null : ((this.entryById.get({ id }) as Table["$inferSelect"] | undefined)?.nim ?? null);
  }

  /** A new entry's student: 404 unless the NIM names one, then 403 for staff while the student's processing is restricted. */
  protected assertStudent(principal: Principal, nim: string | null): asserts nim is string {
    if (nim === null || !this.studentExists.get({ nim })) throw notFound(this.texts.studentUnknown);
    this.restriction.assertStaffMay(principal, nim);
  }

  /** The entry a path id names: 404 when there is none, 403 when it is another student's or (staff) a restricted student's. */
  protected ownEntry(principal: Principal, rawId: string): Table["$inferSelect"] {
    const entry = ownedEntry(principal, rawId, (id) => this.entryById.get({ id }) as Table["$inferSelect"] | undefined, this.texts.entryUnknown);
    this.restriction.assertStaffMay(principal, entry.nim);
    return entry;
  }
}
