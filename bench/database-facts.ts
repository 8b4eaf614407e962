// What the bench reads from the data folder's database directly (read-only; while the
// server runs, a WAL reader sees the last commit): whom to ask for what, and what the runs wrote.
import { Database } from "bun:sqlite";

function reading<T>(databasePath: string, read: (sqlite: Database) => T): T {
  const sqlite = new Database(databasePath, { readonly: true });
  try {
    return read(sqlite);
  } finally {
    sqlite.close();
  }
}

/** How many screenings were written from `from` (an ISO time) on, and how many of them a model classified (both levels). */
export function classifiedSubmissions(databasePath: string, from: string): { total: number; byModel: number } {
  return reading(databasePath, (sqlite) =>
    sqlite
      .query<{ total: number; byModel: number }, [string]>(
        "SELECT count(*) AS total, count(*) FILTER (WHERE stress_model_id IS NOT NULL AND motivasi_model_id IS NOT NULL) AS byModel FROM riwayat_skrining WHERE tanggal_skrining >= ?",
      )
      .get(from)!,
  );
}

/**
 * The audit trail's view rows of a route and the reads they count: the runs of the audit
 * figure. Null when the trail is not stored that way (its format is the service's to change).
 */
export function viewRowsOf(databasePath: string, target: string): { rows: number; reads: number } | null {
  try {
    return reading(databasePath, (sqlite) =>
      sqlite.query<{ rows: number; reads: number }, [string]>("SELECT count(*) AS rows, coalesce(sum(reads), 0) AS reads FROM audit_log WHERE action = 'view' AND target = ?").get(target)!,
    );
  } catch {
    return null;
  }
}

/** Students with a screening (their result answers 200): the advisees of `nip`, or the first `limit` of all. */
export function studentsWithScreenings(databasePath: string, choice: { nip: string } | { limit: number }): string[] {
  return reading(databasePath, (sqlite) => {
    const screened = "EXISTS (SELECT 1 FROM riwayat_skrining WHERE riwayat_skrining.NIM = mahasiswa.NIM)";
    const rows =
      "nip" in choice
        ? sqlite.query<{ nim: string }, [string]>(`SELECT NIM AS nim FROM mahasiswa WHERE NIP_doswal = ? AND ${screened} ORDER BY NIM`).all(choice.nip)
        : sqlite.query<{ nim: string }, [number]>(`SELECT NIM AS nim FROM mahasiswa WHERE ${screened} ORDER BY NIM LIMIT ?`).all(choice.limit);
    return rows.map((row) => row.nim);
  });
}

/**
 * Students free to submit a questionnaire (interface: one per rolling 7 days): no
 * screening at or after `since` (an ISO time at least 7 days back), in NIM order. Their
 * usernames are their NIMs.
 */
export function studentsFreeToSubmit(databasePath: string, since: string): string[] {
  return reading(databasePath, (sqlite) =>
    sqlite
      .query<{ nim: string }, [string]>(
        "SELECT NIM AS nim FROM mahasiswa WHERE NOT EXISTS (SELECT 1 FROM riwayat_skrining WHERE riwayat_skrining.NIM = mahasiswa.NIM AND tanggal_skrining >= ?) ORDER BY NIM",
      )
      .all(since)
      .map((row) => row.nim),
  );
}
