import { beforeAll, describe, expect, test } from "bun:test";
import { temporaryDir } from "../helpers";
import { cli, csvFile, outputLines } from "../cli/support";

// Students under 18 by their `usia` are marked for the admin (UU 27/2022 asks for a
// guardian's consent): a line each at the import, a column in `accounts list`, and
// `under_18` in its JSON.

const roster = `role,username,password,nim,nip,nama,usia,nip_doswal,activated
dosen,dsn.wali,dosen-pass-1,,D01,Dosen Wali,,,true
mahasiswa,muda1,mhs-pass-01,N101,,Ayu Muda,17,D01,false
mahasiswa,dewasa,mhs-pass-02,N102,,Bima Dewasa,18,D01,false
mahasiswa,tanpausia,mhs-pass-03,N103,,Citra Tanpa Usia,,D01,false
mahasiswa,muda2,mhs-pass-04,N104,,,16,D01,false
`;

const warning = "UU 27/2022 meminta persetujuan orang tua atau wali untuk memproses data mereka; mintalah dan simpan buktinya (docs/privasi.md).";

let dataDir: string;
let imported: { stdout: string; stderr: string; exitCode: number };

beforeAll(async () => {
  dataDir = temporaryDir("skrining-minors-");
  imported = await cli(dataDir, ["accounts", "import", csvFile(roster)]);
});

describe("accounts import", () => {
  test("names every student of the file under 18, after the summary, with what the law asks", () => {
    expect(imported.stderr).toBe("");
    expect(imported.exitCode).toBe(0);
    const lines = outputLines(imported.stdout);
    expect(lines[0]).toBe(`Folder data baru dibuat: ${dataDir}`);
    expect(lines[1]).toStartWith("Impor selesai: 5 akun dibuat");
    expect(lines.slice(2)).toEqual([`Perhatian: 2 mahasiswa berusia di bawah 18 tahun. ${warning}`, "  N101 Ayu Muda (usia 17)", "  N104 (usia 16)"]);
  });

  test("a file without minors prints the summary alone", async () => {
    const result = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,usia\nmahasiswa,dewasa,,N102,19\n")]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toEqual([expect.stringMatching(/^Impor selesai: 0 akun dibuat, 1 diperbarui/)]);
  });

  test("names only the students of this file, by their stored age: a row without usia keeps the one stored", async () => {
    const result = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,nama\nmahasiswa,muda1,,N101,Ayu Muda\n")]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout).slice(1)).toEqual([`Perhatian: 1 mahasiswa berusia di bawah 18 tahun. ${warning}`, "  N101 Ayu Muda (usia 17)"]);
  });

  test("a refused file names no one", async () => {
    const result = await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,usia\nmahasiswa,baru,pass-baru-1,N105,abc\n")]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toContain("Perhatian");
  });
});

describe("accounts list", () => {
  test("a <18 column marks the students under 18, and a line after the table says what to do", async () => {
    const result = await cli(dataDir, ["accounts", "list"]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const lines = outputLines(result.stdout);
    expect(lines[0]!.trim().split(/\s{2,}/)).toEqual(["ID", "USERNAME", "ROLE", "AKTIF", "NIM/NIP", "<18", "NAMA"]);
    const underColumn = lines[0]!.indexOf("<18");
    const marked = Object.fromEntries(lines.slice(1, 6).map((line) => [line.trim().split(/\s+/)[1], line.slice(underColumn, underColumn + 3).trim()]));
    expect(marked).toEqual({ "dsn.wali": "", muda1: "ya", dewasa: "", tanpausia: "", muda2: "ya" });
    expect(lines.at(-1)).toBe(`2 mahasiswa berusia di bawah 18 tahun (kolom <18): ${warning}`);
  });

  test("--json: under_18 for every account, true only for a known age below 18", async () => {
    const result = await cli(dataDir, ["accounts", "list", "--json"]);
    expect(result.exitCode).toBe(0);
    const list = JSON.parse(result.stdout) as { username: string; under_18: boolean }[];
    expect(Object.fromEntries(list.map((account) => [account.username, account.under_18]))).toEqual({
      "dsn.wali": false,
      muda1: true,
      dewasa: false,
      tanpausia: false,
      muda2: true,
    });
  });

  test("without minors, no line after the table", async () => {
    const result = await cli(dataDir, ["accounts", "list", "--role", "dosen"]);
    expect(result.exitCode).toBe(0);
    expect(outputLines(result.stdout)).toHaveLength(2);
  });

  test("a student who turns 18 in the roster is no longer marked", async () => {
    expect((await cli(dataDir, ["accounts", "import", csvFile("role,username,password,nim,usia\nmahasiswa,muda2,,N104,18\n")])).exitCode).toBe(0);
    const list = JSON.parse((await cli(dataDir, ["accounts", "list", "--json"])).stdout) as { username: string; under_18: boolean }[];
    expect(list.filter((account) => account.under_18).map((account) => account.username)).toEqual(["muda1"]);
  });
});
