import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { standardAccounts, temporaryDir } from "../helpers";
import { cli, csvFile, withDatabase } from "./support";

// Decisions §20: `skrining safety on|off|status`, the optional safety question.

async function dataFolder(): Promise<string> {
  const dataDir = join(temporaryDir("skrining-safety-"), "data");
  expect((await cli(dataDir, ["accounts", "import", csvFile(standardAccounts)])).exitCode).toBe(0);
  return dataDir;
}

const setting = (dataDir: string) => withDatabase(dataDir, (db) => db.query("SELECT aktif, nama_kontak, telepon_kontak FROM pertanyaan_keselamatan").get());
const updateRows = (dataDir: string) => withDatabase(dataDir, (db) => db.query("SELECT target, detail FROM audit_log WHERE action = 'update' ORDER BY id").all());

describe("skrining safety", () => {
  test("off by default; on with its contact, status, off (the contact kept); each change an update row", async () => {
    const dataDir = await dataFolder();
    const status = await cli(dataDir, ["safety", "status"]);
    expect(status.stdout.split("\n").slice(0, 2)).toEqual(["Pertanyaan keselamatan: nonaktif", "Kontak: belum ada"]);
    const on = await cli(dataDir, ["safety", "on", "--contact", "Konselor fakultas", "--phone", "+62 812-3456-7890"]);
    expect(on).toMatchObject({ exitCode: 0, stderr: "" });
    expect(on.stdout).toBe(
      "Pertanyaan keselamatan aktif: ditanyakan setelah 68 butir kuesioner. Jawaban 3 atau lebih membuka tindak lanjut mendesak, dan mahasiswa diarahkan ke Konselor fakultas (+62 812-3456-7890).\n",
    );
    expect(setting(dataDir)).toEqual({ aktif: 1, nama_kontak: "Konselor fakultas", telepon_kontak: "+62 812-3456-7890" });
    expect((await cli(dataDir, ["safety", "status"])).stdout).toContain("Pertanyaan keselamatan: aktif\nKontak: Konselor fakultas (+62 812-3456-7890)\nDiubah: ");
    expect((await cli(dataDir, ["safety", "off"])).stdout).toBe("Pertanyaan keselamatan nonaktif: tidak ditanyakan lagi, dan jawabannya diabaikan bila dikirim.\n");
    expect(setting(dataDir)).toEqual({ aktif: 0, nama_kontak: "Konselor fakultas", telepon_kontak: "+62 812-3456-7890" });
    expect(updateRows(dataDir)).toEqual([
      { target: "skrining safety on", detail: "pertanyaan keselamatan aktif; kontak Konselor fakultas (+62 812-3456-7890)" },
      { target: "skrining safety off", detail: "pertanyaan keselamatan nonaktif" },
    ]);
  });

  test.each([
    ["without --phone", ["safety", "on", "--contact", "Konselor"], "error: required option '--phone <nomor>' not specified"],
    ["a phone that is no number", ["safety", "on", "--contact", "Konselor", "--phone", "panggil saja"], "Nomor telepon kontak wajib diisi"],
    ["an empty contact", ["safety", "on", "--contact", " ", "--phone", "0812 3456 7890"], "Nama kontak wajib diisi"],
  ])("%s is refused (exit 1), and nothing changes", async (_, args, message) => {
    const dataDir = await dataFolder();
    const refused = await cli(dataDir, args);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain(message.includes("required option") ? "--phone" : message);
    expect(setting(dataDir)).toEqual({ aktif: 0, nama_kontak: null, telepon_kontak: null });
    expect(updateRows(dataDir)).toEqual([]);
  });
});
