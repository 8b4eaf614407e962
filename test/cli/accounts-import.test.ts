import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { repositoryRoot, temporaryDir } from "../helpers";
import { addSession, cli, cliProcess, csvFile, outputLines, reportedLines, rowCounts, sessionEnded, userRow, withDatabase } from "./support";

const demoFile = join(repositoryRoot, "examples", "demo-accounts.csv");
const rina = "198001012005012001";
const budi = "197805152003121002";

interface StudentRow {
  NIM: string;
  nama_mahasiswa: string | null;
  NIP_doswal: string | null;
  IPK: number | null;
  usia: number | null;
  gender: string | null;
  angkatan: string | null;
  kelas: string | null;
  jurusan: string | null;
  is_activated: number;
  username: string;
}

function students(dataDir: string): Map<string, StudentRow> {
  return withDatabase(dataDir, (db) => {
    const rows = db
      .query<StudentRow, []>(
        `SELECT m.NIM, m.nama_mahasiswa, m.NIP_doswal, m.IPK, m.usia, m.gender, m.angkatan, m.kelas,
                j.nama_jurusan AS jurusan, u.is_activated, u.username
           FROM mahasiswa m JOIN users u ON u.Id_User = m.Id_User LEFT JOIN jurusan j ON j.Id_Jurusan = m.id_jurusan`,
      )
      .all();
    return new Map(rows.map((row) => [row.NIM, row]));
  });
}

/** Seeds a data folder with a few accounts through the CLI itself. */
async function seeded(csv: string): Promise<string> {
  const dataDir = temporaryDir();
  const result = await cli(dataDir, ["accounts", "import", csvFile(csv)]);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return dataDir;
}

describe("accounts import: the demo file", () => {
  // The first import runs the real `bun cli/main.ts`: the process entry point, its streams and exit code 0.
  test("imports 2 lecturers and 10 students, with advisors, departments and activation", async () => {
    const dataDir = temporaryDir();
    const result = await cliProcess(dataDir, ["accounts", "import", demoFile]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    expect(outputLines(result.stdout)).toEqual([`Folder data baru dibuat: ${dataDir}`, expect.stringMatching(/^Impor selesai: 12 akun dibuat, 0 diperbarui\b/)]);

    expect(rowCounts(dataDir)).toEqual({ users: 12, dosen: 2, mahasiswa: 10, jurusan: 2 });
    withDatabase(dataDir, (db) => {
      const roles = db.query<{ role: string; n: number }, []>("SELECT role, count(*) AS n FROM users GROUP BY role ORDER BY role").all();
      expect(roles).toEqual([
        { role: "dosen", n: 2 },
        { role: "mahasiswa", n: 10 },
      ]);
      expect(db.query<{ nama_jurusan: string }, []>("SELECT nama_jurusan FROM jurusan ORDER BY nama_jurusan").all().map((row) => row.nama_jurusan)).toEqual([
        "Informatika",
        "Sistem Informasi",
      ]);
      const lecturers = db.query<{ NIP: string; nama_dosen: string; username: string }, []>(
        "SELECT d.NIP, d.nama_dosen, u.username FROM dosen d JOIN users u ON u.Id_User = d.Id_User ORDER BY d.NIP",
      ).all();
      expect(lecturers).toEqual([
        { NIP: budi, nama_dosen: "Budi Santoso M.Kom.", username: "dosen.budi" },
        { NIP: rina, nama_dosen: "Dr. Rina Kartika", username: "dosen.rina" },
      ]);
      // Passwords are stored as bcrypt hashes with the configured cost, never in clear.
      const hashes = db.query<{ password_hash: string }, []>("SELECT password_hash FROM users").all();
      for (const { password_hash } of hashes) expect(password_hash).toMatch(/^\$2[aby]\$04\$/);
      expect(hashes.some(({ password_hash }) => password_hash.includes("demo-"))).toBe(false);
    });

    const byNim = students(dataDir);
    const advisors = Object.fromEntries([...byNim.values()].map((row) => [row.NIM, row.NIP_doswal]));
    expect(advisors).toEqual({
      "2301001": rina,
      "2301002": rina,
      "2301003": rina,
      "2301004": rina,
      "2301005": rina,
      "2201006": budi,
      "2201007": budi,
      "2201008": budi,
      "2201009": budi,
      "2401010": null,
    });
    const notActivated = [...byNim.values()].filter((row) => row.is_activated === 0).map((row) => row.NIM).sort();
    expect(notActivated).toEqual(["2201009", "2301004", "2301005"]);
    expect(byNim.get("2301001")).toMatchObject({
      username: "2301001",
      nama_mahasiswa: "Andi Pratama",
      jurusan: "Informatika",
      angkatan: "2023",
      kelas: "TI-A",
      IPK: 3.45,
      usia: 20,
      gender: "Laki-laki",
      is_activated: 1,
    });
    // Empty optional cells stay empty (NULL), not 0 or "".
    expect(byNim.get("2301005")).toMatchObject({ IPK: null, usia: null, jurusan: "Sistem Informasi" });
    expect(byNim.get("2201009")).toMatchObject({ IPK: null, usia: null, gender: null });

    // Importing the same file again finds every account as it is: nothing new, nothing changed.
    const again = await cli(dataDir, ["accounts", "import", demoFile]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/^Impor selesai: 0 akun dibuat, 0 diperbarui, 12 tidak berubah\b/);
    expect(rowCounts(dataDir)).toEqual({ users: 12, dosen: 2, mahasiswa: 10, jurusan: 2 });
  });
});

describe("accounts import: validation is all or nothing", () => {
  const base = `role,username,password,nim,nip,nama,activated
dosen,dosen.lama,dosen-lama-1,,D900,Dosen Lama,true
mahasiswa,mhs.lama,mhs-lama-01,M900,,Mahasiswa Lama,true
`;

  test("a file with many bad rows reports every bad line and writes nothing, not even its valid rows", async () => {
    const dataDir = await seeded(base);
    const before = rowCounts(dataDir);
    const file = csvFile(`role,username,password,nim,nip,nama,nip_doswal,ipk,usia,activated
dosen,dosen.ok,pass-dosen-1,,D100,Dosen Ok,,,,true
guru,guru1,pass-guru-1,,,,,,,
mahasiswa,,pass-mhs-x,M001,,,,,,
mahasiswa,mhs.nonim,pass-mhs-2,,,,,,,
dosen,dosen.nonip,pass-dosen-2,,,,,,,
mahasiswa,mhs.ipk,pass-mhs-3,M003,,,,4.5,,
mahasiswa,mhs.usia,pass-mhs-4,M004,,,,,abc,
mahasiswa,mhs.act,pass-mhs-5,M005,,,,,,maybe
mahasiswa,mhs.ok,pass-mhs-6,M006,,Mhs Ok,D100,3.5,20,true
mahasiswa,mhs.ok,pass-mhs-7,M007,,,,,,
mahasiswa,mhs.doswal,pass-mhs-8,M008,,,X999,,,
mahasiswa,mhs.cols,pass-mhs-9,M009
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");

    // Nothing was written, not even the valid rows on lines 2 and 10.
    expect(rowCounts(dataDir)).toEqual(before);
    expect(userRow(dataDir, "dosen.ok")).toBeNull();
    expect(userRow(dataDir, "mhs.ok")).toBeNull();

    const expected: Record<number, RegExp> = {
      3: /role/i,
      4: /username/i,
      5: /nim/i,
      6: /nip/i,
      7: /ipk/i,
      8: /usia/i,
      9: /activated/i,
      11: /mhs\.ok|username/i,
      12: /X999|nip_doswal/i,
      13: /kolom|column/i,
    };
    const reported = reportedLines(result.stderr);
    const named = [...reported.keys()].sort((a, b) => a - b);
    // Line 10 is the first use of `mhs.ok`; naming it as well is acceptable, nothing else is.
    expect(named.filter((line) => line !== 10)).toEqual(Object.keys(expected).map(Number));
    for (const [line, pattern] of Object.entries(expected)) {
      expect(reported.get(Number(line))?.join(" | ") ?? `(baris ${line} not reported)`).toMatch(pattern);
    }
  });

  test("rows that are only wrong together (duplicate username, unknown advisor) are reported and nothing is written", async () => {
    const dataDir = await seeded(base);
    const before = rowCounts(dataDir);
    const file = csvFile(`role,username,password,nim,nip,nama,nip_doswal
dosen,dosen.baru,pass-dosen-1,,D101,Dosen Baru,
mahasiswa,mhs.a,pass-mhs-a1,M101,,A,D101
mahasiswa,mhs.a,pass-mhs-a2,M102,,A lagi,
mahasiswa,mhs.b,pass-mhs-b1,M103,,B,X999
mahasiswa,mhs.c,pass-mhs-c1,M104,,C,D900
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    const reported = reportedLines(result.stderr);
    expect([...reported.keys()].filter((line) => line !== 3).sort((a, b) => a - b)).toEqual([4, 5]);
    expect(reported.get(4)!.join(" ")).toContain("mhs.a");
    expect(reported.get(5)!.join(" ")).toContain("X999");
    expect(rowCounts(dataDir)).toEqual(before);
    expect(userRow(dataDir, "dosen.baru")).toBeNull();
  });

  test("a row that clashes with the database (NIM of another account) blocks the whole file", async () => {
    const dataDir = await seeded(base);
    const before = rowCounts(dataDir);
    const file = csvFile(`role,username,password,nim,nip,nama
mahasiswa,mhs.baru,pass-mhs-b1,M101,,Baru
mahasiswa,mhs.pencuri,pass-mhs-p1,M900,,Pencuri NIM
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    expect([...reportedLines(result.stderr).keys()]).toEqual([3]);
    expect(rowCounts(dataDir)).toEqual(before);
  });

  test("an unknown column in the header is reported on line 1 and nothing is written", async () => {
    const dataDir = await seeded(base);
    const before = rowCounts(dataDir);
    const file = csvFile(`role,username,password,nim,alamat
mahasiswa,mhs.x,pass-mhs-x1,M555,Jalan Mawar 1
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    const reported = reportedLines(result.stderr);
    expect([...reported.keys()]).toEqual([1]);
    expect(reported.get(1)!.join(" ")).toContain("alamat");
    expect(rowCounts(dataDir)).toEqual(before);
  });

  test("a new account without a password is an error; nothing is written", async () => {
    const dataDir = await seeded(base);
    const before = rowCounts(dataDir);
    const file = csvFile(`role,username,password,nim,nip,nama
mahasiswa,mhs.lama,,M900,,Nama Diganti
mahasiswa,mhs.tanpa,,M777,,Tanpa Password
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    const reported = reportedLines(result.stderr);
    expect([...reported.keys()]).toEqual([3]);
    expect(reported.get(3)!.join(" ")).toMatch(/password/i);
    expect(rowCounts(dataDir)).toEqual(before);
    // The valid update on line 2 was not applied either.
    expect(students(dataDir).get("M900")!.nama_mahasiswa).toBe("Mahasiswa Lama");
  });

  test("line numbers stay physical when a quoted field spans two lines", async () => {
    const dataDir = temporaryDir();
    const file = csvFile(`role,username,password,nim,nama
mahasiswa,mhs.a,pass-mhs-a1,M1,"Nama
dua baris"
guru,mhs.b,pass-mhs-b1,M2,B
`);
    const result = await cli(dataDir, ["accounts", "import", file]);
    expect(result.exitCode).not.toBe(0);
    expect([...reportedLines(result.stderr).keys()]).toEqual([4]);
  });
});

describe("accounts import: upsert by username", () => {
  const base = `role,username,password,nim,nip,nama,activated
dosen,dsn,dosen-pass-1,,D1,Dosen Lama,true
mahasiswa,m1,mhs-pass-01,N1,,Nama Lama,true
mahasiswa,m2,mhs-pass-02,N2,,Mhs Dua,true
`;

  test("a changed name is updated; a password cell, empty or not, leaves an existing account's password and sessions alone", async () => {
    const dataDir = await seeded(base);
    const m1 = userRow(dataDir, "m1")!;
    const m2 = userRow(dataDir, "m2")!;
    const dsn = userRow(dataDir, "dsn")!;
    const m1Session = addSession(dataDir, "m1", "session-m1");
    const m2Session = addSession(dataDir, "m2", "session-m2");

    const result = await cli(dataDir, [
      "accounts",
      "import",
      csvFile(`role,username,password,nim,nip,nama
mahasiswa,m1,,N1,,Nama Baru
mahasiswa,m2,mhs-pass-02-baru,N2,,
dosen,dsn,,,D1,Dosen Baru
`),
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Impor selesai: 0 akun dibuat, 2 diperbarui, 1 tidak berubah\b/);
    expect(rowCounts(dataDir)).toEqual({ users: 3, dosen: 1, mahasiswa: 2, jurusan: 0 });

    const byNim = students(dataDir);
    expect(byNim.get("N1")!.nama_mahasiswa).toBe("Nama Baru");
    expect(byNim.get("N2")!.nama_mahasiswa).toBe("Mhs Dua");
    withDatabase(dataDir, (db) => {
      expect(db.query<{ nama_dosen: string }, []>("SELECT nama_dosen FROM dosen WHERE NIP = 'D1'").get()!.nama_dosen).toBe("Dosen Baru");
    });

    const m1After = userRow(dataDir, "m1")!;
    expect(m1After.Id_User).toBe(m1.Id_User);
    expect(m1After.password_hash).toBe(m1.password_hash);
    expect(sessionEnded(dataDir, m1Session)).toBe(false);
    expect(userRow(dataDir, "dsn")!.password_hash).toBe(dsn.password_hash);

    // Without --reset-passwords (test/cli/accounts-reimport.test.ts) the file's password is not used for an existing account.
    expect(userRow(dataDir, "m2")).toEqual(m2);
    expect(sessionEnded(dataDir, m2Session)).toBe(false);
  });

  test("lecturers are written before students, so a student may name a lecturer further down the file", async () => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, [
      "accounts",
      "import",
      csvFile(`role,username,password,nim,nip,nama,nip_doswal
mahasiswa,s1,pass-s1-xxx,S1,,Mahasiswa Satu,L9
mahasiswa,s2,pass-s2-xxx,S2,,Mahasiswa Dua,L9
dosen,l9,pass-l9-xxx,,L9,Dosen Wali,
`),
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(rowCounts(dataDir)).toEqual({ users: 3, dosen: 1, mahasiswa: 2, jurusan: 0 });
    const byNim = students(dataDir);
    expect(byNim.get("S1")!.NIP_doswal).toBe("L9");
    expect(byNim.get("S2")!.NIP_doswal).toBe("L9");
    expect(userRow(dataDir, "l9")!.Id_User).toBeLessThan(userRow(dataDir, "s1")!.Id_User);
  });
});

describe("accounts import: file format", () => {
  test("a UTF-8 BOM, CRLF line ends and quoted fields with commas and quotes are read correctly", async () => {
    const dataDir = temporaryDir();
    const text =
      "\ufeffrole,username,password,nim,nip,nama,jurusan,activated\r\n" +
      'dosen,d.quote,"pass,with,commas",,Q1,"Santoso, Budi ""BS""",,yes\r\n' +
      'mahasiswa,m.quote,pass-mhs-q1,Q2,,"Lestari, Dewi","Teknik, Sipil",no\r\n';
    const result = await cli(dataDir, ["accounts", "import", csvFile(text)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(rowCounts(dataDir)).toEqual({ users: 2, dosen: 1, mahasiswa: 1, jurusan: 1 });
    withDatabase(dataDir, (db) => {
      expect(db.query<{ nama_dosen: string }, []>("SELECT nama_dosen FROM dosen WHERE NIP = 'Q1'").get()!.nama_dosen).toBe('Santoso, Budi "BS"');
    });
    expect(students(dataDir).get("Q2")).toMatchObject({ nama_mahasiswa: "Lestari, Dewi", jurusan: "Teknik, Sipil", is_activated: 0 });
    const lecturer = userRow(dataDir, "d.quote")!;
    expect(lecturer.is_activated).toBe(1);
    expect(await Bun.password.verify("pass,with,commas", lecturer.password_hash)).toBe(true);
  });

  // A real process again: a refusal is its exit code and one line on its stderr.
  test("a missing file: non-zero exit and a one-line reason on stderr", async () => {
    const dataDir = temporaryDir();
    const missing = join(temporaryDir(), "tidak-ada.csv");
    const result = await cliProcess(dataDir, ["accounts", "import", missing]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stdout).toBe("");
    const lines = outputLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("tidak-ada.csv");
  });
});
