import type { Database } from "bun:sqlite";
import { addToSumsStatement, sumsFromRow, type StoredSums } from "../../db/measures";
import { NormCounts, normHorizon } from "../../measurement/norms";
import { changeDirection, reliabilityOf, type ChangeDirection, type Reliability } from "../../measurement/reliability";
import type { Answers } from "../../screening/scoring";

// Decisions §20 in the submission's job (ScreeningRecorder): what a screening is measured
// against — the running sums of the stress items, the student's previous screening, the
// norm group — read and kept current in the job's own transaction, on whichever thread runs
// it. docs/measurement.md; docs/decisions.md, "Measurement".

/** The safety question as the job reads it (src/modules/keselamatan/service.ts changes it). */
export interface SafetySetting {
  aktif: boolean;
  namaKontak: string | null;
  teleponKontak: string | null;
}

/** What the job reads before its insert, in one statement: the student's latest screening so far, the count and stamp of latest_skrining, the safety question. */
export interface MeasuresBefore {
  previous: { tanggal: string; scoreStress: number; scoreSdi: number | null } | null;
  students: number;
  stamp: number;
  safety: SafetySetting;
}

/** What the job computed for its screening. */
export interface Measured {
  reliability: Reliability;
  /** Null for a student's first screening. */
  perubahanAndal: ChangeDirection | null;
  persentilStres: number | null;
  persentilMotivasi: number | null;
}

interface BeforeRow {
  students: number;
  stamp: number;
  previousTanggal: string | null;
  previousStress: number | null;
  previousSdi: number | null;
  safetyOn: number;
  contactName: string | null;
  contactPhone: string | null;
}

/**
 * The norm group (the latest screening of every student since normHorizon) as counts per
 * value, kept in memory between jobs: it is rebuilt from latest_skrining (one pass) when the
 * horizon moves to the next day, or when latest_skrining's stamp is not the one this job
 * saw after its own last insert — another writer changed a latest screening (an erasure, a
 * purge, another thread or process), or a commit was rolled back. Otherwise each job moves
 * its student's latest screening in the counts itself.
 */
interface NormGroup {
  counts: NormCounts;
  horizon: string;
  stamp: number;
}

export class ScreeningMeasures {
  private readonly before;
  private readonly addToSums;
  private readonly stampNow;
  private readonly normRows;
  private norms: NormGroup | null = null;
  /** The group as this job left it, until its stamp is known (settled). */
  private pending: NormGroup | null = null;

  constructor(sqlite: Database) {
    this.before = sqlite.prepare<BeforeRow, [string]>(
      `SELECT summary.students AS students, summary.stamp AS stamp,
         latest.tanggal_skrining AS previousTanggal, latest.score_stress AS previousStress, latest.score_sdi AS previousSdi,
         safety.aktif AS safetyOn, safety.nama_kontak AS contactName, safety.telepon_kontak AS contactPhone
       FROM latest_skrining_summary AS summary
       JOIN pertanyaan_keselamatan AS safety ON safety.id = 1
       LEFT JOIN latest_skrining AS latest ON latest.NIM = ?1
       WHERE summary.id = 1`,
    );
    this.addToSums = sqlite.prepare<StoredSums, number[]>(addToSumsStatement);
    this.stampNow = sqlite.prepare<{ stamp: number }, []>("SELECT stamp FROM latest_skrining_summary WHERE id = 1");
    this.normRows = sqlite.prepare<{ stress: number; sdi: number | null }, [string]>(
      "SELECT score_stress AS stress, score_sdi AS sdi FROM latest_skrining WHERE tanggal_skrining >= ?",
    );
  }

  /** Call in the job before anything is written. */
  read(nim: string): MeasuresBefore {
    const row = this.before.get(nim);
    // The migration writes both rows; their absence is a database edited by hand, and the job fails on it as on any broken table.
    if (!row) throw new Error("latest_skrining_summary atau pertanyaan_keselamatan tidak berisi baris 1");
    return {
      previous: row.previousTanggal === null ? null : { tanggal: row.previousTanggal, scoreStress: row.previousStress!, scoreSdi: row.previousSdi },
      students: row.students,
      stamp: row.stamp,
      safety: { aktif: row.safetyOn === 1, namaKontak: row.contactName, teleponKontak: row.contactPhone },
    };
  }

  /**
   * Adds the screening to the sums and the norm group and measures it: its reliable change
   * from the previous screening with α and SD as they stand with it, its percentiles in the
   * group that now holds it. Call once the submission is valid, right before its insert;
   * then `settled` after the insert, or `forget` when the job fails.
   */
  measure(before: MeasuresBefore, answers: Answers, scoreStress: number, scoreSdi: number, tanggal: string): Measured {
    const sums = sumsFromRow(this.addToSums.get(scoreStress, ...answers.stress)!);
    // The insert's trigger counts a student's first screening among the students.
    const reliability = reliabilityOf(sums, before.students + (before.previous === null ? 1 : 0));
    const perubahanAndal = before.previous === null ? null : changeDirection(before.previous.scoreStress, scoreStress, reliability);

    const horizon = normHorizon(Date.parse(tanggal));
    const group = this.norms && this.norms.stamp === before.stamp && this.norms.horizon === horizon ? this.norms : this.rebuild(horizon);
    this.norms = null;
    const { previous } = before;
    if (previous && previous.tanggal > tanggal) {
      // The clock went back: this screening does not become the latest. The next job rebuilds the group.
      return { reliability, perubahanAndal, persentilStres: null, persentilMotivasi: null };
    }
    if (previous && previous.tanggal >= horizon && previous.scoreSdi !== null) group.counts.change(previous.scoreStress, previous.scoreSdi, -1);
    group.counts.change(scoreStress, scoreSdi, 1);
    this.pending = group;
    const percentiles = group.counts.percentiles(scoreStress, scoreSdi);
    return { reliability, perubahanAndal, persentilStres: percentiles?.stres ?? null, persentilMotivasi: percentiles?.motivasi ?? null };
  }

  /** After the insert: the counts are latest_skrining's as it now stands. */
  settled(): void {
    if (this.pending) this.norms = { ...this.pending, stamp: this.stampNow.get()!.stamp };
    this.pending = null;
  }

  /** The job failed after `measure`: the counts are not what the database will hold. */
  forget(): void {
    this.norms = null;
    this.pending = null;
  }

  private rebuild(horizon: string): NormGroup {
    const counts = new NormCounts();
    for (const row of this.normRows.iterate(horizon)) if (row.sdi !== null) counts.change(row.stress, row.sdi, 1);
    return { counts, horizon, stamp: Number.NaN };
  }
}
