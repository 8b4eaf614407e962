import type { Database } from "bun:sqlite";
import { systemAuthor } from "../../db/follow-up-advisor";
import { levelWarning } from "../../db/summaries";

/** What raised a case; at least one holds. */
export interface OpeningReasons {
  early: boolean;
  sudden: boolean;
  veryHigh: boolean;
}

/** The note of a case's first timeline entry, by what raised it. */
export function openingNote(reasons: OpeningReasons, stressMin: number): string {
  const named = [
    reasons.early ? "peringatan dini (stres Tinggi dengan motivasi Rendah)" : null,
    reasons.sudden ? "perubahan mendadak (skor stres naik 30 atau lebih)" : null,
    reasons.veryHigh ? `stres sangat tinggi (skor stres ${stressMin} atau lebih)` : null,
  ].filter((reason) => reason !== null);
  return `Dibuka otomatis oleh skrining: ${named.join(" dan ")}.`;
}

/**
 * Opens a follow-up case for a screening that was just written, inside the same write job
 * (decisions §13 and docs/decisions.md, Follow-up cases): when the summary triggers marked
 * the student's latest screening as an early warning, or its score_stress reaches the
 * threshold (`stres_sangat_tinggi`). Nothing opens when the screening is not the student's
 * latest, when the student already has an open case, or while the student's processing is
 * restricted. The job runs inside the write queue's IMMEDIATE transaction, so two
 * submissions (from this process or another) are serialised and only the first opens a
 * case; the unique partial index on open cases is the database's own guarantee behind that.
 */
export class CaseOpening {
  private readonly flagged;
  private readonly insertCase;
  private readonly insertOpening;

  constructor(
    sqlite: Database,
    private readonly stressMin: number,
  ) {
    // Most screenings raise nothing, and a warning while the student's case is open opens
    // nothing either: this read answers both without running the insert into tindak_lanjut,
    // which costs ~22 µs even when it inserts no row (issue 28).
    this.flagged = sqlite.prepare<{ flagged: number }, [string, number, number]>(
      `SELECT 1 AS flagged FROM latest_skrining WHERE NIM = ?1 AND Id_skrining = ?2 AND (early_warning = 1 OR score_stress >= ?3)
         AND NOT EXISTS (SELECT 1 FROM tindak_lanjut WHERE NIM = ?1 AND status <> 'selesai')`,
    );
    this.insertCase = sqlite.prepare<{ id: number; early: number; sudden: number; veryHigh: number }, [string, number, string, number]>(
      `INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, alasan_stres_sangat_tinggi, Id_skrining, status, dibuka_pada, diperbarui_pada)
       SELECT latest.NIM, student.NIP_doswal, (${levelWarning}), latest.is_spike, coalesce(latest.score_stress >= ?4, 0), latest.Id_skrining, 'baru', ?3, ?3
       FROM latest_skrining AS latest JOIN mahasiswa AS student ON student.NIM = latest.NIM
       WHERE latest.NIM = ?1 AND latest.Id_skrining = ?2 AND (latest.early_warning = 1 OR latest.score_stress >= ?4) AND student.dibatasi_sejak IS NULL
         AND NOT EXISTS (SELECT 1 FROM tindak_lanjut WHERE NIM = ?1 AND status <> 'selesai')
       RETURNING Id_tindak_lanjut AS id, alasan_early_warning AS early, alasan_perubahan_mendadak AS sudden, alasan_stres_sangat_tinggi AS veryHigh`,
    );
    this.insertOpening = sqlite.prepare<unknown, [number, string, string, string]>(
      "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, NULL, 'baru', ?, NULL, ?, ?)",
    );
  }

  /** Call inside a write job, after the screening `screeningId` of `nim` was inserted; answers the new case's id, if one opened. */
  openIfFlagged(nim: string, screeningId: number, now: string): number | null {
    if (!this.flagged.get(nim, screeningId, this.stressMin)) return null;
    const opened = this.insertCase.get(nim, screeningId, now, this.stressMin);
    if (!opened) return null;
    const reasons = { early: opened.early === 1, sudden: opened.sudden === 1, veryHigh: opened.veryHigh === 1 };
    this.insertOpening.run(opened.id, openingNote(reasons, this.stressMin), systemAuthor, now);
    return opened.id;
  }
}
