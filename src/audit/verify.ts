import type { Database } from "bun:sqlite";
import { invalid } from "../errors";
import { auditRowHash, chainStart, type AuditRow } from "./trail";

export interface AuditProblem {
  id: number;
  problem: string;
}

/** The newest row's id and hash, to be kept off the PC: `audit verify --anchor ID:HASH` checks it later (decisions §16). */
export interface AuditAnchor {
  id: number;
  hash: string;
}

/**
 * An anchor as given to `verify`: `ID:HASH`, or a hash alone, as builds before the anchor
 * printed it (`hash terakhir …`, issue 44): that row is then found by its hash.
 */
export type GivenAnchor = AuditAnchor | { id: null; hash: string };

export interface AuditVerification {
  rows: number;
  /** The newest row's, or null for an empty trail. */
  anchor: AuditAnchor | null;
  /** The given anchor as found in the trail (a bare hash with the id of its row); null when none was given or it is not there. */
  anchorFound: AuditAnchor | null;
  problems: AuditProblem[];
}

/**
 * The triggers that keep the trail append-only (migrations 0005 and 0011), by name, with
 * the statement each must be. Any other trigger or view that names the trail's tables is
 * someone else's: one that drops or rewrites rows as they are written leaves a chain that
 * verifies, so it is reported as tampering.
 */
const ownTriggers: ReadonlyMap<string, string> = new Map(
  (
    [
      ["audit_log", "audit_log_no_update", "UPDATE", "diubah"],
      ["audit_log", "audit_log_no_delete", "DELETE", "dihapus"],
      ["audit_subjects", "audit_subjects_no_update", "UPDATE", "diubah"],
      ["audit_subjects", "audit_subjects_no_delete", "DELETE", "dihapus"],
    ] as const
  ).map(([table, name, event, verb]) => [
    name,
    `CREATE TRIGGER \`${name}\` BEFORE ${event} ON \`${table}\`\nBEGIN\n\tSELECT RAISE(ABORT, '${table} hanya boleh ditambah: baris tidak boleh ${verb}');\nEND`,
  ]),
);

/** An anchor as the command line takes it: `ID:HASH`, or the bare hash that builds before `audit anchor` printed. */
export function parseAnchor(text: string): GivenAnchor {
  const match = /^\s*(?:(\d{1,15}):)?([0-9a-f]{64})\s*$/i.exec(text);
  if (!match) {
    throw invalid("--anchor harus berbentuk ID:HASH, seperti yang dicetak skrining audit anchor (misalnya 1234:9f2c…, 64 karakter heksadesimal), atau hash saja seperti yang dicetak versi lama.");
  }
  return { id: match[1] === undefined ? null : Number(match[1]), hash: match[2]!.toLowerCase() };
}

export const formatAnchor = (anchor: GivenAnchor) => (anchor.id === null ? anchor.hash : `${anchor.id}:${anchor.hash}`);

const idRange = (first: number, last: number) => (first === last ? `baris ${first}` : `baris ${first}–${last}`);

/** Problems with the trail's triggers and views: one of the project's missing or changed, or one of someone else's. */
function structureProblems(sqlite: Database): AuditProblem[] {
  const problems: AuditProblem[] = [];
  const present = sqlite
    .query<{ type: string; name: string; tbl_name: string; sql: string | null }, []>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') AND (tbl_name IN ('audit_log', 'audit_subjects') OR sql LIKE '%audit_log%' OR sql LIKE '%audit_subjects%')",
    )
    .all();
  for (const [name, statement] of ownTriggers) {
    const found = present.find((entry) => entry.name === name);
    if (!found) problems.push({ id: 0, problem: `pemicu ${name} tidak ada: tabel jejak audit dapat diubah tanpa ditolak` });
    else if (found.sql !== statement) problems.push({ id: 0, problem: `pemicu ${name} sudah diubah dari aslinya` });
  }
  for (const entry of present) {
    if (ownTriggers.has(entry.name)) continue;
    const kind = entry.type === "trigger" ? "pemicu" : "view";
    problems.push({ id: 0, problem: `${kind} asing ${entry.name} pada ${entry.tbl_name}: dapat membuang, mengubah atau menyembunyikan baris jejak audit; periksa dan hapus bila bukan buatan Anda` });
  }
  return problems;
}

/**
 * Walks the chain from the first row in one read transaction (one snapshot: a server
 * appending meanwhile is not a gap); every break is named by the row where it shows. A
 * gap in the ids is a removed row (AUTOINCREMENT never gives an id twice); a row whose
 * content (its students included) no longer gives its hash was changed; a row whose
 * `previous_hash` is not the hash of the row before it, with no gap, follows a row that
 * was changed and given a new hash. With `anchor`, that row must still be there with that
 * hash, and the chain up to it intact.
 */
export function verifyAuditChain(sqlite: Database, anchor?: GivenAnchor): AuditVerification {
  return sqlite
    .transaction((): AuditVerification => {
      const problems = structureProblems(sqlite);
      let previousHash = chainStart;
      let previousId = 0;
      let rows = 0;
      let anchorFound: AuditAnchor | null = null;
      const gaps: [first: number, last: number][] = [];
      const orphans: number[] = [];
      // The students of every row, in the rows' order: read beside them, never a query per row.
      const students = sqlite.query<{ audit_id: number; nim: string }, []>("SELECT audit_id, nim FROM audit_subjects ORDER BY audit_id, nim").iterate();
      let nextStudent = students.next();
      for (const row of sqlite.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").iterate()) {
        rows += 1;
        const own: string[] = [];
        while (!nextStudent.done && nextStudent.value.audit_id <= row.id) {
          if (nextStudent.value.audit_id === row.id) own.push(nextStudent.value.nim);
          else orphans.push(nextStudent.value.audit_id);
          nextStudent = students.next();
        }
        if (row.id !== previousId + 1) {
          gaps.push([previousId + 1, row.id - 1]);
          problems.push({ id: row.id, problem: `${idRange(previousId + 1, row.id - 1)} hilang sebelum baris ini` });
        } else if (row.previous_hash !== previousHash) {
          problems.push({ id: row.id, problem: `hash baris sebelumnya tidak cocok: baris ${previousId} diubah (dan hash-nya dihitung ulang) atau baris ini diubah` });
        }
        const { hash, ...content } = row;
        // A row of format 1 names its one student in `nim`; its subjects row was copied from it.
        const studentsMatch = row.format !== 1 || own.join() === (row.nim === null ? "" : row.nim);
        if (!studentsMatch || auditRowHash(content, own) !== hash) problems.push({ id: row.id, problem: "isi baris tidak cocok dengan hash-nya: baris ini (atau daftar mahasiswanya) diubah" });
        if (anchor && row.id === anchor.id) {
          anchorFound = { id: row.id, hash };
          if (hash !== anchor.hash) problems.push({ id: row.id, problem: "baris jangkar ada, tetapi hash-nya bukan yang dicatat: jejak sampai baris ini ditulis ulang" });
        } else if (anchor && anchor.id === null && hash === anchor.hash && !anchorFound) {
          anchorFound = { id: row.id, hash };
        }
        previousHash = row.hash;
        previousId = row.id;
      }
      for (; !nextStudent.done; nextStudent = students.next()) orphans.push(nextStudent.value.audit_id);
      // AUTOINCREMENT remembers the highest id ever given, so removing the newest rows shows too.
      const sequence = sqlite.query<{ seq: number }, []>("SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'").get()?.seq ?? 0;
      if (sequence > previousId) {
        gaps.push([previousId + 1, sequence]);
        problems.push({ id: previousId + 1, problem: `${idRange(previousId + 1, sequence)} (yang terbaru) hilang` });
      }
      // The students of a removed row are told by its gap; those of a row that never was, apart.
      for (const id of new Set(orphans)) {
        if (!gaps.some(([first, last]) => id >= first && id <= last)) problems.push({ id, problem: "nama mahasiswa tercatat untuk baris yang tidak ada" });
      }
      if (anchor && !anchorFound) {
        problems.push(
          anchor.id === null
            ? { id: 0, problem: `tidak ada baris dengan hash jangkar ${anchor.hash}: jejak sampai titik itu ditulis ulang atau dihapus` }
            : { id: anchor.id, problem: "baris jangkar tidak ada lagi di jejak audit" },
        );
      }
      const found = anchorFound && anchorFound.hash === anchor?.hash ? anchorFound : null;
      return { rows, anchor: rows === 0 ? null : { id: previousId, hash: previousHash }, anchorFound: found, problems };
    })
    .deferred();
}

/** The newest row's anchor, read alone; null for an empty trail. */
export function auditAnchor(sqlite: Database): AuditAnchor | null {
  return sqlite.query<AuditAnchor, []>("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1").get() ?? null;
}
