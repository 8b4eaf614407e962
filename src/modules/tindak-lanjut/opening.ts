import type { Database } from "bun:sqlite";
import { levelWarning } from "../../db/summaries";

/** The note of a case's first timeline entry, by what raised it. */
export function openingNote(earlyWarning: boolean, suddenChange: boolean): string {
  const reasons = [earlyWarning ? "peringatan dini (stres Tinggi dengan motivasi Rendah)" : null, suddenChange ? "perubahan mendadak (skor stres naik 30 atau lebih)" : null];
  return `Dibuka otomatis oleh skrining: ${reasons.filter((reason) => reason !== null).join(" dan ")}.`;
}

/** Who the automatic opening names as its author. */
export const systemAuthor = "Sistem";

/**
 * Opens a follow-up case for a screening that was just written, inside the same write job
 * (decisions: Follow-up cases). The flags are the ones the summary triggers stored for the
 * student's latest screening, so a case opens exactly when the lecturer's list shows an
 * early warning. Nothing opens when the screening is not the student's latest, when the
 * student already has an open case, or while the student's processing is restricted. The
 * job runs inside the write queue's IMMEDIATE transaction, so two submissions (from this
 * process or another) are serialised and only the first opens a case; the unique partial
 * index on open cases is the database's own guarantee behind that check.
 */
export class CaseOpening {
  private readonly insertCase;
  private readonly insertOpening;

  constructor(sqlite: Database) {
    this.insertCase = sqlite.prepare<{ id: number; early: number; sudden: number }, [string, number, string]>(
      `INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, Id_skrining, status, dibuka_pada, diperbarui_pada)
       SELECT latest.NIM, student.NIP_doswal, (${levelWarning}), latest.is_spike, latest.Id_skrining, 'baru', ?3, ?3
       FROM latest_skrining AS latest JOIN mahasiswa AS student ON student.NIM = latest.NIM
       WHERE latest.NIM = ?1 AND latest.Id_skrining = ?2 AND latest.early_warning = 1 AND student.dibatasi_sejak IS NULL
         AND NOT EXISTS (SELECT 1 FROM tindak_lanjut WHERE NIM = ?1 AND status <> 'selesai')
       RETURNING Id_tindak_lanjut AS id, alasan_early_warning AS early, alasan_perubahan_mendadak AS sudden`,
    );
    this.insertOpening = sqlite.prepare<unknown, [number, string, string, string]>(
      "INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, Id_User, nama, waktu) VALUES (?, NULL, 'baru', ?, NULL, ?, ?)",
    );
  }

  /** Call inside a write job, after the screening `screeningId` of `nim` was inserted; answers the new case's id, if one opened. */
  openIfFlagged(nim: string, screeningId: number, now: string): number | null {
    const opened = this.insertCase.get(nim, screeningId, now);
    if (!opened) return null;
    this.insertOpening.run(opened.id, openingNote(opened.early === 1, opened.sudden === 1), systemAuthor, now);
    return opened.id;
  }
}
