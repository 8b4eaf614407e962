import type { Database } from "bun:sqlite";
import { addScreening, decodeSums, encodeSums, removedValues, storedSumsStatements, sumsLength, sumsOf } from "../../db/measures";
import { NormCounts, normHorizon } from "../../measurement/norms";
import { changeDirection, reliabilityOf, type ChangeDirection, type Reliability } from "../../measurement/reliability";
import type { Answers } from "../../skrining/scoring";

const dayMilliseconds = 24 * 3600 * 1000;

// Decisions §20 in the submission's job (ScreeningRecorder): what a screening is measured
// against — the running sums of the stress items, the student's previous screening, the
// norm group — read and kept current in the job's own transaction, on whichever thread runs
// it. docs/measurement.md; docs/decisions.md, "Measurement".

/** The safety question's contact (src/modules/keselamatan/service.ts changes it). */
export interface SafetyContact {
  namaKontak: string | null;
  teleponKontak: string | null;
}

/** What the job reads before its insert: the student's latest screening so far, the students with a screening, the measures' version, whether the safety question is on. */
export interface MeasuresBefore {
  previous: { tanggal: string; scoreStress: number; scoreSdi: number | null } | null;
  students: number;
  version: number;
  safetyOn: boolean;
}

/** What the job computed for its screening. */
export interface Measured {
  reliability: Reliability;
  /** Null for a student's first screening. */
  perubahanAndal: ChangeDirection | null;
  persentilStres: number | null;
  persentilMotivasi: number | null;
}

/**
 * What the job keeps in memory between jobs, with the version (stress_item_sums.version) its
 * last addition wrote: the running sums as stored (what the jobs added, what deletions took
 * out), and the norm group (the latest screening of every student since normHorizon) as
 * counts per value. Another writer's change (a
 * deletion, an edit, an unjudged insert, another thread's or process's job) writes another
 * version, and a rolled-back commit takes the version back to an older one: then the sums
 * are read again (one row) and the group rebuilt from latest_skrining (one pass), which it
 * also is when the horizon moves to the next day. Otherwise each job moves its own screening
 * in both, and writes its addition with a new version.
 */
interface Kept {
  version: number;
  added: Float64Array;
  removed: Float64Array;
  norms: { counts: NormCounts; horizon: string } | null;
}

export class ScreeningMeasures {
  // Lookups in scalar subqueries: the same read as a join of the one-row tables cost ten times as much (issue 45).
  private readonly withPrevious;
  private readonly withoutPrevious;
  private readonly contact;
  private readonly writeSums;
  private readonly storedAdded;
  private readonly storedRemoved;
  private readonly normRows;
  private kept: Kept | null = null;
  /** The sums the job measures with, reused. */
  private readonly sums = new Float64Array(sumsLength);
  /** The norm group's horizon for the UTC day of `day` (a day number). */
  private horizon = { day: Number.NaN, horizon: "" };
  /** What this job left in memory, until it is settled. */
  private pending: Kept | null = null;

  constructor(sqlite: Database) {
    const summary = `(SELECT students FROM latest_skrining_summary WHERE id = 1) AS students, (SELECT version FROM stress_item_sums WHERE id = 1) AS version,
      (SELECT aktif FROM pertanyaan_keselamatan WHERE id = 1) AS safetyOn`;
    type Summary = { students: number | null; version: number | null; safetyOn: number | null };
    this.withPrevious = sqlite.prepare<Summary & { tanggal: string; scoreStress: number; scoreSdi: number | null }, [string]>(
      `SELECT tanggal_skrining AS tanggal, score_stress AS scoreStress, score_sdi AS scoreSdi, ${summary} FROM latest_skrining WHERE NIM = ?`,
    );
    this.withoutPrevious = sqlite.prepare<Summary, []>(`SELECT ${summary}`);
    this.contact = sqlite.prepare<SafetyContact, []>("SELECT nama_kontak AS namaKontak, telepon_kontak AS teleponKontak FROM pertanyaan_keselamatan WHERE id = 1");
    this.writeSums = sqlite.prepare<unknown, [number, Uint8Array]>("UPDATE stress_item_sums SET version = ?1, added = ?2 WHERE id = 1");
    this.storedAdded = sqlite.prepare<{ added: Uint8Array }, []>(storedSumsStatements.added);
    this.storedRemoved = sqlite.prepare<Record<string, number>, []>(storedSumsStatements.removed);
    this.normRows = sqlite.prepare<{ stress: number; sdi: number | null }, [string]>(
      "SELECT score_stress AS stress, score_sdi AS sdi FROM latest_skrining WHERE tanggal_skrining >= ?",
    );
  }

  /** Call in the job before anything is written. */
  read(nim: string): MeasuresBefore {
    const previous = this.withPrevious.get(nim);
    const summary = previous ?? this.withoutPrevious.get()!;
    // The migration writes the three rows; without them the database was edited by hand, and the job fails as on any broken table.
    if (summary.students === null || summary.version === null || summary.safetyOn === null) {
      throw new Error("latest_skrining_summary, stress_item_sums atau pertanyaan_keselamatan tidak berisi baris 1");
    }
    return {
      previous: previous ? { tanggal: previous.tanggal, scoreStress: previous.scoreStress, scoreSdi: previous.scoreSdi } : null,
      students: summary.students,
      version: summary.version,
      safetyOn: summary.safetyOn === 1,
    };
  }

  /** The person a critical answer points the student to. */
  safetyContact(): SafetyContact {
    return this.contact.get() ?? { namaKontak: null, teleponKontak: null };
  }

  /**
   * Adds the screening to the sums and the norm group and measures it: its reliable change
   * from the previous screening with α and SD as they stand with it, its percentiles in the
   * group that now holds it. Call once the submission is valid, right before its insert;
   * then `settled` after the insert, or `forget` when the job fails.
   */
  measure(before: MeasuresBefore, answers: Answers, scoreStress: number, scoreSdi: number, now: number, tanggal: string): Measured {
    const current = this.kept?.version === before.version ? this.kept : null;
    this.kept = null;
    const added = current?.added ?? decodeSums(this.storedAdded.get()?.added);
    const removed = current?.removed ?? removedValues(this.storedRemoved.get());
    addScreening(added, scoreStress, answers.stress);
    // Any integer SQLite stores: another writer's random() meets it by chance once in 2^53.
    const version = Math.floor(Math.random() * 2 ** 53);
    this.writeSums.run(version, encodeSums(added));
    // The insert's trigger counts a student's first screening among the students.
    const reliability = reliabilityOf(sumsOf(added, removed, this.sums), before.students + (before.previous === null ? 1 : 0));
    const { previous } = before;
    const perubahanAndal = previous === null ? null : changeDirection(previous.scoreStress, scoreStress, reliability);

    const horizon = this.horizonAt(now);
    const norms = current?.norms?.horizon === horizon ? current.norms : { counts: this.normGroup(horizon), horizon };
    this.pending = { version, added, removed, norms };
    if (previous && previous.tanggal > tanggal) {
      // The clock went back: this screening does not become the latest. The next job rebuilds the group.
      this.pending.norms = null;
      return { reliability, perubahanAndal, persentilStres: null, persentilMotivasi: null };
    }
    if (previous && previous.tanggal >= horizon && previous.scoreSdi !== null) norms.counts.change(previous.scoreStress, previous.scoreSdi, -1);
    norms.counts.change(scoreStress, scoreSdi, 1);
    const percentiles = norms.counts.percentiles(scoreStress, scoreSdi);
    return { reliability, perubahanAndal, persentilStres: percentiles?.stres ?? null, persentilMotivasi: percentiles?.motivasi ?? null };
  }

  /** After the insert: what is kept is the database's as it now stands. */
  settled(): void {
    this.kept = this.pending;
    this.pending = null;
  }

  /** The job failed after `measure`: what is kept is not what the database will hold. */
  forget(): void {
    this.kept = null;
    this.pending = null;
  }

  private horizonAt(now: number): string {
    const day = Math.floor(now / dayMilliseconds);
    if (this.horizon.day !== day) this.horizon = { day, horizon: normHorizon(now) };
    return this.horizon.horizon;
  }

  private normGroup(horizon: string): NormCounts {
    const counts = new NormCounts();
    for (const row of this.normRows.iterate(horizon)) if (row.sdi !== null) counts.change(row.stress, row.sdi, 1);
    return counts;
  }
}
