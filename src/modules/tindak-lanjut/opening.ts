import type { Database } from "bun:sqlite";
import { systemAuthor } from "../../db/tindak-lanjut-advisor";
import { levelWarning } from "../../db/summaries";

/** What the submission's job knows beyond the summary triggers (decisions §20). */
export interface JobReasons {
  /** The stress score got reliably worse and ended at Sedang or Tinggi (`memburuk_andal`). */
  reliablyWorse: boolean;
  /** The smallest reliable change in score points, for the case's note. */
  smallestReliableChange: number;
  /** The safety question answered 3 or more (`butir_kritis`), with the same-day contact target. */
  critical: { answer: number; target: string } | null;
}

/** What raised a case; at least one holds. */
export interface OpeningReasons {
  early: boolean;
  sudden: boolean;
  veryHigh: boolean;
  reliablyWorse: boolean;
  critical: boolean;
}

const criticalNote = (answer: number) => `jawaban ${answer} pada pertanyaan keselamatan (hubungi mahasiswa hari ini)`;

/** The note of a case's first timeline entry, by what raised it. */
export function openingNote(reasons: OpeningReasons, stressMin: number, job: JobReasons): string {
  const named = [
    job.critical && reasons.critical ? criticalNote(job.critical.answer) : null,
    reasons.early ? "peringatan dini (stres Tinggi dengan motivasi Rendah)" : null,
    reasons.sudden ? "perubahan mendadak (skor stres naik 30 atau lebih)" : null,
    reasons.veryHigh ? `stres sangat tinggi (skor stres ${stressMin} atau lebih)` : null,
    reasons.reliablyWorse ? `memburuk secara andal (skor stres naik ${Math.ceil(job.smallestReliableChange)} poin atau lebih)` : null,
  ].filter((reason) => reason !== null);
  return `Dibuka otomatis oleh skrining: ${named.join(" dan ")}.`;
}

/**
 * Opens a follow-up case for a screening that was just written, inside the same write job
 * (decisions §13, §20 and docs/decisions.md, Follow-up cases): when the summary triggers
 * marked the student's latest screening as an early warning, or its score_stress reaches
 * the threshold (`stres_sangat_tinggi`), or the job found it reliably worse
 * (`memburuk_andal`) or the safety question answered critically (`butir_kritis`). Nothing
 * opens when the screening is not the student's latest, when the student already has an
 * open case, or while the student's processing is restricted; a critical answer makes an
 * open case urgent instead. The job runs inside the write queue's IMMEDIATE transaction, so
 * two submissions (from this process or another) are serialised and only the first opens a
 * case; the unique partial index on open cases is the database's own guarantee behind that.
 */
export class CaseOpening {
  private readonly flagged;
  private readonly insertCase;
  private readonly insertEntry;
  private readonly makeUrgent;

  constructor(
    sqlite: Database,
    private readonly stressMin: number,
  ) {
    // One read decides, in the job's transaction, whether a case opens and with what: most
    // screenings raise nothing, and a warning while the student's case is open opens nothing
    // either. The student's row in subqueries: joined, the read cost twenty times as much.
    // The insert then names its values: an INSERT … SELECT that reads tindak_lanjut (for the
    // open case) goes through a temporary table, five times the cost of the insert itself
    // (40 µs against 7; issue 45).
    this.flagged = sqlite.prepare<{ nip: string | null; early: number; sudden: number; veryHigh: number }, [string, number, number, number]>(
      `SELECT (SELECT NIP_doswal FROM mahasiswa WHERE NIM = ?1) AS nip, (${levelWarning}) AS early, is_spike AS sudden, coalesce(score_stress >= ?3, 0) AS veryHigh
       FROM latest_skrining WHERE NIM = ?1 AND Id_skrining = ?2 AND (early_warning = 1 OR score_stress >= ?3 OR ?4)
         AND NOT EXISTS (SELECT 1 FROM mahasiswa WHERE NIM = ?1 AND dibatasi_sejak IS NOT NULL)
         AND NOT EXISTS (SELECT 1 FROM tindak_lanjut WHERE NIM = ?1 AND status <> 'selesai')`,
    );
    this.insertCase = sqlite.prepare<{ id: number }, [string, string | null, number, number, number, number, number, string | null, number, string]>(
      `INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_stres_sangat_tinggi, alasan_memburuk_andal, alasan_butir_kritis,
         batas_kontak_segera, Id_skrining, status, dibuka_pada, diperbarui_pada)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'baru', ?10, ?10) RETURNING Id_tindak_lanjut AS id`,
    );
    this.insertEntry = sqlite.prepare<unknown, [number, string | null, string, string, string, string, string | null]>(
      "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu, batas_kontak_segera) VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6, ?7)",
    );
    // Decisions §20: a critical answer while a case is open makes it urgent, whoever handles it.
    this.makeUrgent = sqlite.prepare<{ id: number; status: string }, [string, string, string]>(
      `UPDATE tindak_lanjut SET alasan_butir_kritis = 1, batas_kontak_segera = ?2, diperbarui_pada = ?3
       WHERE NIM = ?1 AND status <> 'selesai' AND NOT EXISTS (SELECT 1 FROM mahasiswa WHERE NIM = ?1 AND dibatasi_sejak IS NOT NULL)
       RETURNING Id_tindak_lanjut AS id, status`,
    );
  }

  /** Call inside a write job, after the screening `screeningId` of `nim` was inserted; answers the case's id, if one opened or became urgent. */
  openIfFlagged(nim: string, screeningId: number, now: string, job: JobReasons): number | null {
    const raisedByJob = job.reliablyWorse || job.critical !== null ? 1 : 0;
    const flagged = this.flagged.get(nim, screeningId, this.stressMin, raisedByJob);
    if (flagged) {
      const reasons = { early: flagged.early === 1, sudden: flagged.sudden === 1, veryHigh: flagged.veryHigh === 1, reliablyWorse: job.reliablyWorse, critical: job.critical !== null };
      const target = job.critical?.target ?? null;
      const { id } = this.insertCase.get(nim, flagged.nip, +reasons.early, +reasons.sudden, +reasons.veryHigh, +reasons.reliablyWorse, +reasons.critical, target, screeningId, now)!;
      this.insertEntry.run(id, null, "baru", openingNote(reasons, this.stressMin, job), systemAuthor, now, target);
      return id;
    }
    if (!job.critical) return null;
    const urgent = this.makeUrgent.get(nim, job.critical.target, now);
    if (!urgent) return null;
    this.insertEntry.run(urgent.id, urgent.status, urgent.status, `Skrining baru: ${criticalNote(job.critical.answer)}.`, systemAuthor, now, job.critical.target);
    return urgent.id;
  }
}
