import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendAuditRows, auditRowHash, commandActor, type AuditEntry, type AuditRow } from "../../src/audit/trail";
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

describe("audit list", () => {
  let dataDir: string;
  const longTarget = `GET /api/${"sangat-panjang/".repeat(8)}:nim`;

  beforeAll(() => {
    dataDir = temporaryDir("skrining-audit-");
    const db = openDatabase(join(dataDir, "skrining.db"));
    // The accounts the rows name: their names are looked up when the rows are listed (decisions §16).
    db.$client.run(`INSERT INTO users (Id_User, username, password_hash, role) VALUES (2, 'dosen1', 'x', 'dosen'), (5, 'mhs1', 'x', 'mahasiswa');
      INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D001', 'Dosen Satu', 2);
      INSERT INTO mahasiswa (NIM, nama_mahasiswa, Id_User) VALUES ('N001', 'Mahasiswa Satu', 5);`);
    const dosen = { userId: 2, username: "dosen1", role: "dosen" };
    const entry = (action: AuditEntry["action"], nim: string | null, target = "GET /api/dosen/mahasiswa/:nim"): AuditEntry => ({ actor: dosen, clientAddress: "10.0.0.5", action, nim, target });
    try {
      db.$client.transaction(() => {
        // 23:59:59 on 1 March in Jakarta (UTC+7), then midnight of 2 March, then 2 March at 16:30.
        appendAuditRows(db.$client, [entry("view", "N001")], new Date("2026-03-01T16:59:59.000Z"));
        // Three identical reads while the row waited: one row that counts them.
        appendAuditRows(db.$client, [{ ...entry("view", "N002"), reads: 3 }], new Date("2026-03-01T17:00:00.000Z"));
        appendAuditRows(db.$client, [{ ...entry("login", null, "POST /api/auth/login"), actor: { userId: 5, username: "mhs1", role: "mahasiswa" } }], new Date("2026-03-02T09:30:00.000Z"));
        appendAuditRows(db.$client, [{ ...entry("view", "N001", longTarget), detail: "keterangan yang juga cukup panjang untuk dipotong di tabel" }], new Date("2026-03-02T09:31:00.000Z"));
      })();
    } finally {
      db.$client.close();
    }
  });

  const list = (args: string[]) => cli(dataDir, ["audit", "list", ...args]);

  const filters: [args: string[], expected: number[]][] = [
    [[], [1, 2, 3, 4]],
    [["--nim", "N001"], [1, 4]],
    [["--user", "mhs1"], [3]],
    [["--action", "view"], [1, 2, 4]],
    [["--action", "LOGIN"], [3]],
    [["--nim", "N001", "--action", "view", "--user", "dosen1"], [1, 4]],
    // Days are the faculty's: 1 March ends at 17:00 UTC in Jakarta.
    [["--since", "2026-03-02"], [2, 3, 4]],
    [["--until", "2026-03-01"], [1]],
    [["--since", "2026-03-01", "--until", "2026-03-01"], [1]],
    [["--since", "2026-03-03"], []],
    // In Makassar (UTC+8) 2 March begins an hour earlier: the first row already falls on it.
    [["--since", "2026-03-02", "--tz", "Asia/Makassar"], [1, 2, 3, 4]],
    [["--until", "2026-03-01", "--tz", "Asia/Makassar"], []],
  ];
  test.each(filters)("%j selects %j", async (args, expected) => {
    const tz = args.indexOf("--tz");
    const global = tz === -1 ? [] : args.slice(tz, tz + 2);
    const own = tz === -1 ? args : [...args.slice(0, tz), ...args.slice(tz + 2)];
    const result = await cli(dataDir, [...global, "audit", "list", ...own, "--format", "json"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).map((row: { id: number }) => row.id)).toEqual(expected);
  });

  test("json: every column, the time in the faculty's zone with its offset", async () => {
    const result = await list(["--nim", "N002", "--format", "JSON"]);
    const [row] = JSON.parse(result.stdout);
    expect(row).toEqual({
      id: 2,
      waktu: "2026-03-02T00:00:00+07:00",
      peran: "dosen",
      pengguna: "dosen1",
      nama: "Dosen Satu",
      alamat: "10.0.0.5",
      aksi: "view",
      kali: 3,
      nim: "N002",
      target: "GET /api/dosen/mahasiswa/:nim",
      keterangan: null,
      hash: rowsOf(dataDir)[1]!.hash,
    });
  });

  test("csv: the configured dialect (excel-id: a BOM and ;), or --csv standard", async () => {
    const excel = await list(["--nim", "N002", "--format", "csv"]);
    expect(excel.exitCode).toBe(0);
    expect(excel.stdout.startsWith("\uFEFFid;waktu;peran;pengguna;nama;alamat;aksi;kali;nim;target;keterangan;hash\r\n")).toBe(true);
    expect(excel.stdout).toContain("\r\n2;2026-03-02T00:00:00+07:00;dosen;dosen1;Dosen Satu;10.0.0.5;view;3;N002;GET /api/dosen/mahasiswa/:nim;;");
    const standard = await list(["--nim", "N002", "--format", "csv", "--csv", "Standard"]);
    expect(outputLines(standard.stdout)[1]).toStartWith("2,2026-03-02T00:00:00+07:00,dosen,dosen1,Dosen Satu,10.0.0.5,view,3,N002,");
  });

  /** The table's rows: each a row's lines (its first begins with the id), read cell by cell under the header's titles. */
  function tableRows(stdout: string) {
    const [header, ...lines] = outputLines(stdout);
    const rows: string[][] = [];
    for (const line of lines) {
      if (/^\d+ /.test(line)) rows.push([line]);
      else rows.at(-1)!.push(line);
    }
    const titles = header!.split(/\s+/);
    /** A cell's text with its line breaks and spaces taken out, to compare with a value so treated. */
    const cell = (row: string[], title: string) => {
      const next = titles[titles.indexOf(title) + 1];
      return row.map((line) => line.slice(header!.indexOf(title), next ? header!.indexOf(next) : undefined)).join("").replaceAll(/\s+/g, "");
    };
    return { header: header!, rows, cell };
  }
  const squeezed = (text: string) => text.replaceAll(/\s+/g, "");

  test("table: fits 100 columns; a long cell goes on over more lines of its column, whole", async () => {
    const result = await list([]);
    expect(result.exitCode).toBe(0);
    const { header, rows, cell } = tableRows(result.stdout);
    expect(header).toMatch(/^ID\s+WAKTU\s+PERAN\s+PENGGUNA\s+ALAMAT\s+AKSI\s+NIM\s+TARGET\s+KETERANGAN$/);
    for (const line of outputLines(result.stdout)) expect(Array.from(line).length).toBeLessThanOrEqual(100);
    expect(result.stdout).not.toContain("…");
    expect(rows).toHaveLength(4);
    // A row counting repeated reads says how many beside its action; a single one says nothing more.
    expect(rows[1]![0]).toMatch(/ view ×3 +N002 /);
    expect(rows[0]![0]).toMatch(/ view +N001 /);
    expect(rows[0]![0]).toContain("10.0.0.5");
    expect(rows[3]![0]).toContain("2026-03-02 16:31:00");
    expect(cell(rows[3]!, "TARGET")).toBe(squeezed(longTarget));
    expect(cell(rows[3]!, "KETERANGAN")).toBe(squeezed("keterangan yang juga cukup panjang untuk dipotong di tabel"));
    expect(cell(rows[0]!, "TARGET")).toBe(squeezed("GET /api/dosen/mahasiswa/:nim"));
  });

  test("table: the user and the address are never cut", async () => {
    const wide = temporaryDir("skrining-audit-");
    const db = openDatabase(join(wide, "skrining.db"));
    try {
      const actor = { userId: null, username: "skrining-operator-fakultas", role: "cli", name: null };
      appendAuditRows(db.$client, [{ actor, clientAddress: "2001:db8:1234:5678:9abc:def0:1234:5678", action: "export", nim: null, target: "skrining stats export", detail: "semua dosen; csv" }]);
    } finally {
      db.$client.close();
    }
    const table = await cli(wide, ["audit", "list"]);
    const { rows, cell } = tableRows(table.stdout);
    expect(cell(rows[0]!, "PENGGUNA")).toBe("skrining-operator-fakultas");
    expect(cell(rows[0]!, "ALAMAT")).toBe("2001:db8:1234:5678:9abc:def0:1234:5678");
    expect(cell(rows[0]!, "TARGET")).toBe(squeezed("skrining stats export"));
    expect(cell(rows[0]!, "KETERANGAN")).toBe(squeezed("semua dosen; csv"));
    expect(table.stdout).not.toContain("…");
  });

  test("table: no row selected says so", async () => {
    const result = await list(["--nim", "N404"]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout).at(-1)).toBe("Tidak ada baris yang cocok.");
  });

  test("--out writes a 0600 file, keeps an existing one unless --force", async () => {
    const out = join(temporaryDir("skrining-audit-"), "jejak.csv");
    expect((await list(["--format", "csv", "--out", out])).exitCode).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, "utf8").split("\r\n")).toHaveLength(6);
    writeFileSync(out, "milik bulan lalu");
    const kept = await list(["--format", "csv", "--out", out]);
    expect(kept.exitCode).toBe(1);
    expect(kept.stderr).toContain("--force");
    expect(readFileSync(out, "utf8")).toBe("milik bulan lalu");
    expect((await list(["--format", "json", "--out", out, "--force"])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveLength(4);
  });

  const refusals: [args: string[], message: string][] = [
    [["--since", "2026-02-30"], "tanggal harus YYYY-MM-DD"],
    [["--until", "1 Maret"], "tanggal harus YYYY-MM-DD"],
    [["--since", "2026-03-02", "--until", "2026-03-01"], "--since 2026-03-02 jatuh sesudah --until 2026-03-01"],
    [["--action", "lihat"], "pilih salah satu dari login, login_failed, view"],
    [["--format", "xml"], "pilih salah satu dari table, csv, json"],
  ];
  test.each(refusals)("%j is refused with exit 1", async (args, message) => {
    const result = await list(args);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(message);
  });

  test("a data folder that does not exist is refused, and none is created", async () => {
    const missing = join(temporaryDir("skrining-audit-"), "tidak-ada");
    const result = await cli(missing, ["audit", "list"]);
    expect(result.exitCode).toBe(1);
    expect(existsSync(missing)).toBe(false);
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
