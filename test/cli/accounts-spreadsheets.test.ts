import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { temporaryDir } from "../helpers";
import { cli, csvFile, outputLines, reportedLines, rowCounts, serviceOn, userRow, withDatabase } from "./support";

// decisions §12: what Excel and LibreOffice write in Indonesia is read as it is meant.

interface Student {
  NIM: string;
  nama_mahasiswa: string | null;
  IPK: number | null;
  usia: number | null;
  gender: string | null;
  angkatan: string | null;
  kelas: string | null;
  is_activated: number;
}

function students(dataDir: string): Student[] {
  return withDatabase(dataDir, (db) =>
    db
      .query<Student, []>("SELECT m.NIM, m.nama_mahasiswa, m.IPK, m.usia, m.gender, m.angkatan, m.kelas, u.is_activated FROM mahasiswa m JOIN users u ON u.Id_User = m.Id_User ORDER BY m.NIM")
      .all(),
  );
}

/** Windows-1252 bytes of a text (Latin-1, plus the euro sign where 1252 differs from it). */
function windows1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((character) => (character === "€" ? 0x80 : character.charCodeAt(0))));
}

function utf16(text: string, order: "le" | "be"): Uint8Array {
  const littleEndian = Buffer.from(`\ufeff${text}`, "utf16le");
  return order === "le" ? littleEndian : littleEndian.swap16();
}

/** A refused file is refused before the data folder is opened: not even a database is created. */
const noDatabase = (dataDir: string) => !existsSync(join(dataDir, "skrining.db"));

const utf8 = (text: string, bom: boolean) => new TextEncoder().encode(bom ? `\ufeff${text}` : text);

/**
 * A small roster written with `separator`: a name only Windows-1252 or Unicode can hold, a
 * quoted cell holding the separator, padded cells, an IPK with the decimal mark the
 * separator goes with, `L`/`P` and Indonesian yes/no words.
 */
function roster(separator: string, lineEnd: string): string {
  const decimal = separator === "," ? "3.45" : "3,45";
  const rows = [
    ["role", "username", "password", "nim", "nama", "kelas", "ipk", "usia", "gender", "angkatan", "activated"],
    ["mahasiswa", " bambang ", "sandi-bambang-1", "N1", "Bambang Sutrisno Ç/é", "TI-€", `"${decimal}"`, "20", "L", "2023", "Ya"],
    ["mahasiswa", "dewi", "sandi-dewi-01", "N2", `"Lestari${separator} Dewi"`, ` "TI${separator}B" `, "", "19", "p", "2024", "TIDAK"],
  ];
  return rows.map((row) => row.join(separator)).join(lineEnd) + lineEnd;
}

const expected: Student[] = [
  { NIM: "N1", nama_mahasiswa: "Bambang Sutrisno Ç/é", IPK: 3.45, usia: 20, gender: "Laki-laki", angkatan: "2023", kelas: "TI-€", is_activated: 1 },
  { NIM: "N2", nama_mahasiswa: "Lestari; Dewi", IPK: null, usia: 19, gender: "Perempuan", angkatan: "2024", kelas: "TI;B", is_activated: 0 },
];

describe("accounts import: encodings and separators", () => {
  const files: [string, Uint8Array, string][] = [
    ["UTF-8 without BOM, comma, LF", utf8(roster(",", "\n"), false), ","],
    ["UTF-8 with BOM, semicolon, CRLF", utf8(roster(";", "\r\n"), true), ";"],
    ["UTF-8 with BOM, comma, CRLF", utf8(roster(",", "\r\n"), true), ","],
    ["Windows-1252, semicolon, CRLF (Excel's CSV)", windows1252(roster(";", "\r\n")), ";"],
    ["Windows-1252, comma, LF", windows1252(roster(",", "\n")), ","],
    ["UTF-16 LE with BOM, semicolon, CRLF", utf16(roster(";", "\r\n"), "le"), ";"],
    ["UTF-16 BE with BOM, comma, LF", utf16(roster(",", "\n"), "be"), ","],
    ["UTF-16 LE with BOM, tab, CRLF (Excel's Unicode text)", utf16(roster("\t", "\r\n"), "le"), "\t"],
  ];

  test.each(files)("%s", async (_name, bytes, separator) => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, ["accounts", "import", csvFile(bytes)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Impor selesai: 2 akun dibuat, 0 diperbarui, 0 tidak berubah \(/m);
    expect(students(dataDir)).toEqual(expected.map((student) => ({ ...student, nama_mahasiswa: student.nama_mahasiswa!.replace(";", separator), kelas: student.kelas!.replace(";", separator) })));
    expect(userRow(dataDir, "bambang")).not.toBeNull();
  });

  test("a BOM that the bytes after it contradict is refused, and nothing is written", async () => {
    const dataDir = temporaryDir();
    const broken = Uint8Array.from([0xef, 0xbb, 0xbf, ...windows1252("role,username,password\nadmin,andré,sandi-andre-1\n")]);
    const result = await cli(dataDir, ["accounts", "import", csvFile(broken)]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toEqual(["skrining: file bertanda UTF-8 tetapi isinya bukan UTF-8 yang sah"]);
    expect(noDatabase(dataDir)).toBe(true);
  });

  test.each([
    ["UTF-16 without its BOM", Buffer.from("role,username,password\nadmin,operator,sandi-operator\n", "utf16le")],
    ["a spreadsheet saved as .xlsx", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00, 0x08, 0x00, 0x00, 0x00, 0x21, 0x00])],
  ])("%s is refused as no CSV text, and nothing is written", async (_name, bytes) => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, ["accounts", "import", csvFile(bytes)]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(outputLines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain("bukan CSV teks");
    expect(noDatabase(dataDir)).toBe(true);
  });

  test("rows of separators alone (a formatted but empty spreadsheet row) are skipped; line numbers stay those of the file", async () => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, ["accounts", "import", csvFile("role;username;password;nim\r\nmahasiswa;satu;sandi-satu-1;N1\r\n;;;\r\n ; ; ; \r\nguru;dua;sandi-dua-01;N2\r\n;;;\r\n")]);
    expect(result.exitCode).toBe(1);
    expect([...reportedLines(result.stderr).keys()]).toEqual([5]);
  });

  test("cells are trimmed; a password is trimmed only when it is not quoted", async () => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, [
      "accounts",
      "import",
      csvFile('role ; username ; password ; activated\nadmin ;  rapi  ;   sandi-rapi-01  ; true \nadmin;kutip;"  sandi kutip  ";true\n'),
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const service = serviceOn(dataDir);
    try {
      expect((await service.login("rapi", "sandi-rapi-01")).status).toBe(200);
      expect((await service.login("kutip", "sandi kutip")).status).toBe(401);
      expect((await service.login("kutip", "  sandi kutip  ")).status).toBe(200);
    } finally {
      service.close();
    }
  });
});

describe("accounts import: yes/no words", () => {
  const words: [string, number][] = [
    ["true", 1], ["TRUE", 1], ["1", 1], ["yes", 1], ["Yes", 1], ["ya", 1], ["YA", 1], ["benar", 1], ["BENAR", 1],
    ["false", 0], ["False", 0], ["0", 0], ["no", 0], ["NO", 0], ["tidak", 0], ["Tidak", 0], ["salah", 0], ["SALAH", 0], ["", 0],
  ];

  test("every accepted spelling of activated, in any case, in one file", async () => {
    const dataDir = temporaryDir();
    const rows = words.map(([word], index) => `admin,akun${index},sandi-akun-${index},${word}`);
    const result = await cli(dataDir, ["accounts", "import", csvFile(`role,username,password,activated\n${rows.join("\n")}\n`)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const stored = words.map((_, index) => userRow(dataDir, `akun${index}`)!.is_activated);
    expect(stored).toEqual(words.map(([, activated]) => activated));
  });

  test.each(["mungkin", "y", "t", "2", "aktif"])("%s is refused with the accepted words", async (word) => {
    const dataDir = temporaryDir();
    const result = await cli(dataDir, ["accounts", "import", csvFile(`role,username,password,activated\nadmin,akun,sandi-akun-1,${word}\n`)]);
    expect(result.exitCode).toBe(1);
    expect(reportedLines(result.stderr).get(2)).toEqual(["activated harus true/false, 1/0, yes/no, ya/tidak atau benar/salah"]);
    expect(rowCounts(dataDir).users).toBe(0);
  });
});

describe("accounts import: values the models can use", () => {
  afterEach(() => setSystemTime());

  const genders: [string, string][] = [
    ["Laki-laki", "Laki-laki"], ["laki-laki", "Laki-laki"], ["LAKI-LAKI", "Laki-laki"], ["L", "Laki-laki"], ["l", "Laki-laki"],
    ["Perempuan", "Perempuan"], ["perempuan", "Perempuan"], ["PEREMPUAN", "Perempuan"], ["P", "Perempuan"], ["p", "Perempuan"],
  ];

  test("gender is stored as the models know it, from the full word or its initial in any case", async () => {
    const dataDir = temporaryDir();
    const rows = genders.map(([gender], index) => `mahasiswa,m${index},sandi-mhs-${index},N${index},${gender}`);
    const result = await cli(dataDir, ["accounts", "import", csvFile(`role,username,password,nim,gender\n${rows.join("\n")}\n`)]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const stored = new Map(students(dataDir).map((student) => [student.NIM, student.gender]));
    expect(genders.map((_, index) => stored.get(`N${index}`))).toEqual(genders.map(([, gender]) => gender));
  });

  test("angkatan from 1990 to next year, ipk with a decimal point or comma, usia as the profile route reads them", async () => {
    setSystemTime(new Date("2026-12-31T23:00:00Z"));
    const dataDir = temporaryDir();
    const result = await cli(dataDir, [
      "accounts",
      "import",
      csvFile(`role;username;password;nim;angkatan;ipk;usia
mahasiswa;a;sandi-mhs-a1;A;1990;0;10
mahasiswa;b;sandi-mhs-b1;B;2027;4;100
mahasiswa;c;sandi-mhs-c1;C; 2023 ;3.5;20
mahasiswa;d;sandi-mhs-d1;D;2024;"3,5";21
`),
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(students(dataDir).map(({ NIM, angkatan, IPK, usia }) => ({ NIM, angkatan, IPK, usia }))).toEqual([
      { NIM: "A", angkatan: "1990", IPK: 0, usia: 10 },
      { NIM: "B", angkatan: "2027", IPK: 4, usia: 100 },
      { NIM: "C", angkatan: "2023", IPK: 3.5, usia: 20 },
      { NIM: "D", angkatan: "2024", IPK: 3.5, usia: 21 },
    ]);
  });

  // Each bad value on its own line; the messages of usia and ipk are those of PUT /api/mahasiswa/profil.
  const badRows: [string, string][] = [
    ["angkatan=23", "angkatan harus tahun 4 angka, 1990 sampai 2027"],
    ["angkatan=2023/2024", "angkatan harus tahun 4 angka, 1990 sampai 2027"],
    ["angkatan=1989", "angkatan harus tahun 4 angka, 1990 sampai 2027"],
    ["angkatan=2028", "angkatan harus tahun 4 angka, 1990 sampai 2027"],
    ["angkatan=dua ribu", "angkatan harus tahun 4 angka, 1990 sampai 2027"],
    ["gender=Pria", "gender harus Laki-laki atau Perempuan (boleh L/P)"],
    ["gender=Laki", "gender harus Laki-laki atau Perempuan (boleh L/P)"],
    ["gender=M", "gender harus Laki-laki atau Perempuan (boleh L/P)"],
    ["ipk=4,01", "IPK harus antara 0.00 dan 4.00"],
    ["ipk=-1", "IPK harus antara 0.00 dan 4.00"],
    ["ipk=tiga", "IPK harus berupa angka."],
    ["ipk=3,4,5", "IPK harus berupa angka."],
    ["usia=9", "Usia harus antara 10 dan 100."],
    ["usia=101", "Usia harus antara 10 dan 100."],
    ["usia=20,5", "Usia harus berupa angka."],
    ["usia=dua puluh", "Usia harus berupa angka."],
  ];

  test("every bad value is reported on its own line, and nothing is written, not even the good rows", async () => {
    setSystemTime(new Date("2026-06-01T00:00:00Z"));
    const dataDir = temporaryDir();
    const columns = ["angkatan", "gender", "ipk", "usia"];
    const line = (index: number, cell?: string) => {
      const [column, value] = cell?.split("=") ?? [];
      const cells = columns.map((name) => (name === column ? `"${value}"` : ""));
      return [`mahasiswa`, `m${index}`, `sandi-mhs-${index}`, `N${index}`, ...cells].join(";");
    };
    const rows = [line(100), ...badRows.map(([cell], index) => line(index, cell)), line(101)];
    const result = await cli(dataDir, ["accounts", "import", csvFile(`role;username;password;nim;${columns.join(";")}\n${rows.join("\n")}\n`)]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).not.toContain("Impor selesai");
    const reported = reportedLines(result.stderr);
    // Line 1 is the header, line 2 a good row; the bad rows follow from line 3.
    expect(Object.fromEntries(reported)).toEqual(Object.fromEntries(badRows.map(([, message], index) => [String(index + 3), [message]])));
    expect(outputLines(result.stderr).at(-1)).toBe(`skrining: ${badRows.length} baris tidak valid; tidak ada yang disimpan.`);
    expect(rowCounts(dataDir)).toEqual({ users: 0, dosen: 0, mahasiswa: 0, jurusan: 0 });
  });

  test("accounts add applies the same angkatan rule", async () => {
    setSystemTime(new Date("2026-06-01T00:00:00Z"));
    const dataDir = temporaryDir();
    const result = await cli(dataDir, ["accounts", "add", "--role", "mahasiswa", "--username", "m", "--password", "sandi-mhs-01", "--nim", "N1", "--angkatan", "angkatan 5"]);
    expect(result.exitCode).toBe(1);
    expect(outputLines(result.stderr)).toEqual(["skrining: angkatan harus tahun 4 angka, 1990 sampai 2027"]);
    expect(noDatabase(dataDir)).toBe(true);
  });
});
