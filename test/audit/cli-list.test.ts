import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendAuditRows, type AuditEntry, type AuditRow } from "../../src/audit/trail";
import { openDatabase } from "../../src/db";
import { temporaryDir } from "../helpers";
import { cli, outputLines, withDatabase } from "../cli/support";

// `skrining audit list`: filters, formats and names, over rows written into a folder of its own.

const rowsOf = (dataDir: string) => withDatabase(dataDir, (db) => db.query<AuditRow, []>("SELECT * FROM audit_log ORDER BY id").all());


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

