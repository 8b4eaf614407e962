import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { auditRowHash, commandActor, type AuditRow } from "../../src/audit/trail";
import { openDatabase } from "../../src/db";
import { fourthStudent, standardAccounts, temporaryDir } from "../helpers";
import { constantModel } from "../models/support";
import { cli, csvFile, outputLines, withDatabase } from "../cli/support";

// `skrining audit verify`, `skrining audit list` and the rows the commands leave, through
// the command line; the database is edited directly only to play the one who tampers.

const actor = commandActor();

const rowsOf = (dataDir: string) => withDatabase(dataDir, (db) => db.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").all());

/** The standard accounts but the admin, whose creation by a roster has a row of its own (decisions §21). */
const withoutAdmin = standardAccounts.split("\n").filter((line) => !line.startsWith("admin,")).join("\n");

/** A folder with the standard accounts (no admin) imported, then four more commands: six rows. */
async function folderWithRows(): Promise<string> {
  const dataDir = join(temporaryDir("skrining-audit-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(withoutAdmin)])).exitCode).toBe(0);
  expect((await cli(dataDir, ["accounts", "import", csvFile(fourthStudent)])).exitCode).toBe(0);
  for (const args of [["activate", "mhs3"], ["deactivate", "mhs3"], ["activate", "mhs3"], ["deactivate", "mhs2"]]) {
    expect((await cli(dataDir, ["accounts", ...args])).exitCode).toBe(0);
  }
  expect(rowsOf(dataDir)).toHaveLength(6);
  return dataDir;
}

/** A copy of `source` edited directly with the triggers dropped, as someone with the file could. */
function tampered(source: string, edit: (db: Database) => void): string {
  const copy = join(temporaryDir("skrining-audit-"), "data");
  cpSync(source, copy, { recursive: true });
  const db = new Database(join(copy, "skrining.db"));
  try {
    db.run("DROP TRIGGER audit_log_no_update");
    db.run("DROP TRIGGER audit_log_no_delete");
    edit(db);
  } finally {
    db.close();
  }
  return copy;
}

let source: string;

beforeAll(async () => {
  source = await folderWithRows();
});

describe("the trail is append-only in SQLite itself", () => {
  const statements = [
    ["UPDATE", "UPDATE audit_log SET nim = 'N999' WHERE id = 2", "baris tidak boleh diubah"],
    ["DELETE", "DELETE FROM audit_log WHERE id = 2", "baris tidak boleh dihapus"],
    ["DELETE of every row", "DELETE FROM audit_log", "baris tidak boleh dihapus"],
  ] as const;
  test.each(statements)("%s is refused by the trigger, and the rows stay as they were", (_name, statement, message) => {
    const before = rowsOf(source);
    const db = new Database(join(source, "skrining.db"));
    try {
      expect(() => db.run(statement)).toThrow(message);
    } finally {
      db.close();
    }
    expect(rowsOf(source)).toEqual(before);
  });
});

describe("audit verify", () => {
  test("an intact trail: exit 0, the number of rows and the newest anchor", async () => {
    const rows = rowsOf(source);
    const result = await cli(source, ["audit", "verify"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(outputLines(result.stdout)[0]).toBe(`Jejak audit utuh: 6 baris; jangkar terbaru 6:${rows.at(-1)!.hash}`);
  });

  test("an empty trail is intact: 0 rows, no anchor yet", async () => {
    const dataDir = temporaryDir("skrining-audit-");
    openDatabase(join(dataDir, "skrining.db")).$client.close();
    const result = await cli(dataDir, ["audit", "verify"]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)[0]).toBe("Jejak audit utuh: 0 baris; jangkar terbaru (belum ada baris)");
  });

  const changed = "isi baris tidak cocok dengan hash-nya: baris ini (atau daftar mahasiswanya) diubah";
  const cases: [name: string, edit: (db: Database) => void, lines: string[]][] = [
    ["a row's content changed", (db) => db.run("UPDATE audit_log SET detail = 'akun lain' WHERE id = 3"), [`baris 3: ${changed}`]],
    ["a row's count of reads changed", (db) => db.run("UPDATE audit_log SET reads = 7 WHERE id = 3"), [`baris 3: ${changed}`]],
    ["a student added to a row", (db) => db.run("INSERT INTO audit_subjects (nim, audit_id) VALUES ('N999', 3)"), [`baris 3: ${changed}`]],
    ["a row's nim filled in beside its students", (db) => db.run("UPDATE audit_log SET nim = 'N002' WHERE id = 3"), [`baris 3: ${changed}`]],
    ["a student named for a row that is not there", (db) => db.run("INSERT INTO audit_subjects (nim, audit_id) VALUES ('N001', 40)"), ["baris 40: nama mahasiswa tercatat untuk baris yang tidak ada"]],
    [
      "a row changed and given a new hash of its own",
      (db) => {
        const row = db.query<AuditRow, []>("SELECT * FROM audit_log WHERE id = 3").get()!;
        const students = db.query<{ nim: string }, []>("SELECT nim FROM audit_subjects WHERE audit_id = 3 ORDER BY nim").all().map((each) => each.nim);
        const { hash: _old, ...content } = { ...row, detail: "akun lain" };
        db.query("UPDATE audit_log SET detail = ?, hash = ? WHERE id = 3").run(content.detail, auditRowHash(content, students));
      },
      ["baris 4: hash baris sebelumnya tidak cocok: baris 3 diubah (dan hash-nya dihitung ulang) atau baris ini diubah"],
    ],
    ["a row in the middle removed", (db) => db.run("DELETE FROM audit_log WHERE id = 3"), ["baris 4: baris 3 hilang sebelum baris ini"]],
    ["two rows in the middle removed", (db) => db.run("DELETE FROM audit_log WHERE id IN (2, 3)"), ["baris 4: baris 2–3 hilang sebelum baris ini"]],
    ["the newest row removed", (db) => db.run("DELETE FROM audit_log WHERE id = 6"), ["baris 6: baris 6 (yang terbaru) hilang"]],
    ["the first row removed", (db) => db.run("DELETE FROM audit_log WHERE id = 1"), ["baris 2: baris 1 hilang sebelum baris ini"]],
  ];
  test.each(cases)("%s: exit 1 naming the row", async (_name, edit, lines) => {
    const dataDir = tampered(source, edit);
    const result = await cli(dataDir, ["audit", "verify"]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    const reported = outputLines(result.stderr);
    // The dropped triggers are named first, then each break of the chain.
    expect(reported).toEqual([
      "pemicu audit_log_no_update tidak ada: tabel jejak audit dapat diubah tanpa ditolak",
      "pemicu audit_log_no_delete tidak ada: tabel jejak audit dapat diubah tanpa ditolak",
      ...lines,
      expect.stringMatching(/^skrining: Jejak audit tidak utuh: \d+ masalah \(\d+ baris diperiksa\)\.$/),
    ]);
  });

  test("a new row after the newest was removed still shows the gap", async () => {
    const dataDir = tampered(source, (db) => db.run("DELETE FROM audit_log WHERE id = 6"));
    expect((await cli(dataDir, ["accounts", "activate", "mhs2"])).exitCode).toBe(0);
    expect(rowsOf(dataDir).map((row) => row.id)).toEqual([1, 2, 3, 4, 5, 7]);
    const result = await cli(dataDir, ["audit", "verify"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("baris 7: baris 6 hilang sebelum baris ini");
  });

  test("triggers dropped and nothing else: exit 1 naming them", async () => {
    const result = await cli(tampered(source, () => {}), ["audit", "verify"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toHaveLength(3);
  });
});

describe("someone else's trigger or view on the trail (decisions §16)", () => {
  /** A copy of `source` with a statement run on it, the project's triggers left in place. */
  function planted(statement: string): string {
    const copy = join(temporaryDir("skrining-audit-"), "data");
    cpSync(source, copy, { recursive: true });
    const db = new Database(join(copy, "skrining.db"));
    try {
      db.run(statement);
    } finally {
      db.close();
    }
    return copy;
  }
  const swallowing = "CREATE TRIGGER q BEFORE INSERT ON audit_log WHEN NEW.actor_role = 'cli' BEGIN SELECT RAISE(IGNORE); END";

  test("a trigger that drops a user's rows: the command it would hide fails, nothing of it is written, and verify names the trigger", async () => {
    const dataDir = planted(swallowing);
    const before = rowsOf(dataDir);
    const activation = await cli(dataDir, ["accounts", "activate", "mhs2"]);
    expect(activation.exitCode).toBe(1);
    expect(activation.stderr).toContain("Jejak audit menolak baris baru (ada pemicu asing di audit_log?); perubahan dibatalkan.");
    expect(rowsOf(dataDir)).toEqual(before);
    expect(withDatabase(dataDir, (db) => db.query<{ disabled: number }, []>("SELECT disabled_at IS NOT NULL AS disabled FROM users WHERE username = 'mhs2'").get())).toEqual({ disabled: 1 });
    const result = await cli(dataDir, ["audit", "verify"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)[0]).toBe("pemicu asing q pada audit_log: dapat membuang, mengubah atau menyembunyikan baris jejak audit; periksa dan hapus bila bukan buatan Anda");
  });

  test.each([
    ["a view over the trail", "CREATE VIEW ringkas AS SELECT id FROM audit_log", "view asing ringkas pada ringkas"],
    ["a trigger on another table that writes into the trail", "CREATE TRIGGER r AFTER UPDATE ON users BEGIN INSERT INTO audit_subjects (nim, audit_id) VALUES ('X', 1); END", "pemicu asing r pada users"],
    ["one of the project's triggers replaced by another of the same name", "DROP TRIGGER audit_log_no_delete; CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log WHEN OLD.id > 1000 BEGIN SELECT RAISE(ABORT, 'x'); END", "pemicu audit_log_no_delete sudah diubah dari aslinya"],
  ])("%s is reported", async (_, statement, expected) => {
    const result = await cli(planted(statement), ["audit", "verify"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)[0]).toStartWith(expected);
  });
});

describe("audit anchor and verify --anchor", () => {
  test("the anchor is the newest row's ID:HASH; verify --anchor confirms it", async () => {
    const anchor = await cli(source, ["audit", "anchor"]);
    expect(anchor.exitCode).toBe(0);
    expect(anchor.stdout).toBe(`6:${rowsOf(source).at(-1)!.hash}\n`);
    const result = await cli(source, ["audit", "verify", "--anchor", anchor.stdout.trim()]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)[0]).toStartWith("Jejak audit utuh: 6 baris, termasuk jangkar 6;");
  });

  test("the trail rewritten up to the anchor, every hash recomputed: the chain holds, the anchor does not", async () => {
    const anchor = `4:${rowsOf(source)[3]!.hash}`;
    const dataDir = tampered(source, (db) => {
      const rows = db.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").all();
      let previous = "0".repeat(64);
      for (const row of rows) {
        const students = db.query<{ nim: string }, [number]>("SELECT nim FROM audit_subjects WHERE audit_id = ? ORDER BY nim").all(row.id).map((each) => each.nim);
        const { hash: _old, ...content } = { ...row, detail: row.id === 2 ? "disembunyikan" : row.detail, previous_hash: previous };
        previous = auditRowHash(content, students);
        db.query("UPDATE audit_log SET detail = ?, previous_hash = ?, hash = ? WHERE id = ?").run(content.detail, content.previous_hash, previous, row.id);
      }
    });
    const plain = await cli(dataDir, ["audit", "verify"]);
    expect(outputLines(plain.stderr).filter((line) => line.startsWith("baris"))).toEqual([]);
    const anchored = await cli(dataDir, ["audit", "verify", "--anchor", anchor]);
    expect(anchored.exitCode).toBe(1);
    expect(anchored.stderr).toContain("baris 4: baris jangkar ada, tetapi hash-nya bukan yang dicatat: jejak sampai baris ini ditulis ulang");
  });

  // Issue 44, item 8: builds before `audit anchor` printed the newest hash alone ("hash terakhir …").
  test("the bare hash an older build printed is an anchor too: its row is found by the hash", async () => {
    const result = await cli(source, ["audit", "verify", "--anchor", rowsOf(source)[3]!.hash.toUpperCase()]);
    expect(result.stderr).toBe("");
    expect(outputLines(result.stdout)[0]).toStartWith("Jejak audit utuh: 6 baris, termasuk jangkar 4;");
  });

  test("a bare hash no row has (the trail rewritten up to it): reported, exit 1", async () => {
    const result = await cli(source, ["audit", "verify", "--anchor", "b".repeat(64)]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`tidak ada baris dengan hash jangkar ${"b".repeat(64)}: jejak sampai titik itu ditulis ulang atau dihapus`);
  });

  test("an anchor beyond the trail (rows removed up to it): reported", async () => {
    const result = await cli(source, ["audit", "verify", "--anchor", `99:${"a".repeat(64)}`]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("baris 99: baris jangkar tidak ada lagi di jejak audit");
  });

  test.each(["6", "6:xyz", `x:${"a".repeat(64)}`])("a malformed anchor %p is refused before the database is read", async (value) => {
    const result = await cli(source, ["audit", "verify", "--anchor", value]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("--anchor harus berbentuk ID:HASH");
  });

  test("an empty trail has no anchor yet: exit 1", async () => {
    const dataDir = temporaryDir("skrining-audit-");
    openDatabase(join(dataDir, "skrining.db")).$client.close();
    expect(await cli(dataDir, ["audit", "anchor"])).toMatchObject({ exitCode: 1, stderr: "skrining: Jejak audit masih kosong: belum ada jangkar.\n" });
  });
});

describe("commands leave their rows", () => {
  let dataDir: string;
  let before: number;
  const newRows = () => rowsOf(dataDir).filter((row) => row.id > before);
  const run = async (args: string[], options: { stdin?: string } = {}) => {
    before = rowsOf(dataDir).at(-1)?.id ?? 0;
    const result = await cli(dataDir, args, options);
    expect({ args, exitCode: result.exitCode, stderr: result.stderr }).toEqual({ args, exitCode: 0, stderr: "" });
    // The students of a row, as data-saya and audit list read them: one, several (space-separated) or none.
    const studentsOf = (id: number) =>
      withDatabase(dataDir, (db) => db.query<{ nim: string }, [number]>("SELECT nim FROM audit_subjects WHERE audit_id = ? ORDER BY nim").all(id)).map((each) => each.nim).join(" ") || null;
    return newRows().map((row) => ({ actor: `${row.actor_username} (${row.actor_role})`, action: row.action as string, nim: studentsOf(row.id), target: row.target, detail: row.detail }));
  };
  const by = `${actor.username} (cli)`;

  beforeAll(async () => {
    dataDir = join(temporaryDir("skrining-audit-"), "data");
    expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  });

  test("accounts import: one accounts_import row with the counts; besides, a row naming each account it opened (decisions §21)", async () => {
    const imported = (detail: string) => ({ actor: by, action: "accounts_import", nim: null, target: "skrining accounts import", detail });
    expect(await run(["accounts", "import", csvFile(fourthStudent)])).toEqual([imported("dibuat 1, diperbarui 0, tidak berubah 0, password diganti 0")]);
    const reset = (username: string, nim: string | null) => ({
      actor: by,
      action: "password",
      nim,
      target: "skrining accounts import",
      detail: `akun ${username}: password dari daftar akun, harus diganti saat masuk; semua sesinya berakhir`,
    });
    expect(await run(["accounts", "import", csvFile(standardAccounts), "--reset-passwords"])).toEqual([
      imported("dibuat 0, diperbarui 6, tidak berubah 0, password diganti 6"),
      reset("admin", null),
      reset("dosen1", null),
      reset("dosen2", null),
      reset("mhs1", "N001"),
      reset("mhs2", "N002"),
      reset("mhs3", "N003"),
    ]);
  });

  test("accounts add, passwd, activate, deactivate", async () => {
    expect(await run(["accounts", "add", "--role", "mahasiswa", "--username", "mhs5", "--password", "sandi-awal-5", "--nim", "N005"])).toEqual([
      { actor: by, action: "create", nim: "N005", target: "skrining accounts add", detail: "akun mhs5 (mahasiswa)" },
    ]);
    expect(await run(["accounts", "passwd", "mhs5"], { stdin: "sandi-baru-55\n" })).toEqual([
      { actor: by, action: "password", nim: "N005", target: "skrining accounts passwd", detail: "akun mhs5; semua sesinya berakhir" },
    ]);
    expect(await run(["accounts", "activate", "mhs5"])).toEqual([{ actor: by, action: "activate", nim: "N005", target: "skrining accounts activate", detail: "akun mhs5 diaktifkan" }]);
    expect(await run(["accounts", "deactivate", "dosen1"])).toEqual([
      { actor: by, action: "activate", nim: null, target: "skrining accounts deactivate", detail: "akun dosen1 dinonaktifkan; semua sesinya berakhir" },
    ]);
  });

  test("a refused command leaves no row", async () => {
    before = rowsOf(dataDir).at(-1)!.id;
    expect((await cli(dataDir, ["accounts", "activate", "tidak.ada"])).exitCode).toBe(1);
    expect((await cli(dataDir, ["model", "remove", "999"])).exitCode).toBe(1);
    expect(newRows()).toEqual([]);
  });

  test("model add, activate, deactivate, remove: model rows", async () => {
    const file = join(temporaryDir("skrining-audit-"), "model.json");
    writeFileSync(file, JSON.stringify(constantModel("Sedang", "Rendah")));
    const added = await run(["model", "add", "--type", "stress", "--file", file]);
    expect(added).toEqual([{ actor: by, action: "model", nim: null, target: "skrining model add", detail: expect.stringMatching(/^model 1 \(stress\) ditambahkan; sha256 [0-9a-f]{12}$/) }]);
    expect((await run(["model", "activate", "1"])).map((row) => [row.action, row.target, row.detail])).toEqual([["model", "skrining model activate", "model 1 (stress) diaktifkan"]]);
    expect((await run(["model", "deactivate", "1"])).map((row) => [row.target, row.detail])).toEqual([["skrining model deactivate", "model 1 (stress) dinonaktifkan"]]);
    expect((await run(["model", "remove", "1"])).map((row) => [row.target, row.detail])).toEqual([["skrining model remove", "model 1 (stress) dihapus"]]);
  });

  test("stats export: one export row; with --students one row naming every student exported", async () => {
    expect(await run(["stats", "export"])).toEqual([{ actor: by, action: "export", nim: null, target: "skrining stats export", detail: "semua dosen; csv" }]);
    const out = join(temporaryDir("skrining-audit-"), "d001.json");
    const rows = await run(["stats", "export", "--nip", "D001", "--students", "--format", "json", "--out", out]);
    const exported = JSON.parse(readFileSync(out, "utf8")).map((row: { NIM: string }) => row.NIM);
    expect(exported.length).toBeGreaterThan(0);
    expect(rows).toEqual([{ actor: by, action: "export", nim: exported.toSorted().join(" "), target: "skrining stats export", detail: `NIP D001; json ke ${out}` }]);
  });

  test("questions import and contact import: update rows", async () => {
    for (const group of ["questions", "contact"]) {
      const file = join(temporaryDir("skrining-audit-"), `${group}.json`);
      writeFileSync(file, (await cli(dataDir, [group, "export"])).stdout);
      const rows = await run([group, "import", file]);
      expect(rows).toEqual([{ actor: by, action: "update", nim: null, target: `skrining ${group} import`, detail: expect.stringMatching(/ diganti$/) }]);
    }
  });

  test("restore: the restored trail continues with an update row, and verifies", async () => {
    const archive = join(temporaryDir("skrining-audit-"), "cadangan.tar.gz");
    expect((await cli(dataDir, ["backup", archive])).exitCode).toBe(0);
    const restored = join(temporaryDir("skrining-audit-"), "data");
    const result = await cli(restored, ["restore", archive]);
    expect(result.exitCode).toBe(0);
    const original = rowsOf(dataDir);
    const rows = rowsOf(restored);
    expect(rows.slice(0, -1)).toEqual(original);
    expect(rows.at(-1)).toMatchObject({ actor_role: "cli", action: "update", target: "skrining restore", detail: expect.stringContaining(`pemulihan cadangan dari ${archive} (dibuat `) });
    expect((await cli(restored, ["audit", "verify"])).exitCode).toBe(0);
  });
});
