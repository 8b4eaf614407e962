import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers";
import { type Lecturers, lecturerService } from "./support";

// Decisions §19: a lecturer's telephone/WhatsApp number, set by themselves (PUT
// /api/dosen/profil) or by the roster's `telepon` column, shown to their advisees.

let lecturers: Lecturers;
beforeEach(async () => {
  lecturers = await lecturerService();
});
afterEach(() => lecturers.service.close());

const as = (who: keyof Lecturers["tokens"], method: string, path: string, body?: unknown) => lecturers.service.request(method, path, { token: lecturers.tokens[who], body });
const storedTelepon = (nip: string) => lecturers.service.context.db.$client.query<{ telepon: string | null }, [string]>("SELECT telepon FROM dosen WHERE NIP = ?").get(nip)!.telepon;
const teleponMessage = "telepon harus nomor telepon: angka, boleh diawali + dan berisi spasi, tanda kurung atau -, paling banyak 24 karakter.";

describe("PUT /api/dosen/profil", () => {
  test("sets the number (trimmed), which the advisee then sees beside the advisor's name; \"\" and null clear it", async () => {
    const saved = await as("dosen1", "PUT", "/api/dosen/profil", { telepon: "  +62 812-3456-7890 " });
    expect(saved).toMatchObject({ status: 200, body: { message: "Profil dosen berhasil diperbarui.", data: { NIP: "D001", nama_dosen: "Dosen Satu", telepon: "+62 812-3456-7890" } } });
    expect(storedTelepon("D001")).toBe("+62 812-3456-7890");
    expect((await as("dosen1", "GET", "/api/dosen/profil")).body).toEqual({ NIP: "D001", nama_dosen: "Dosen Satu", telepon: "+62 812-3456-7890" });
    expect((await as("mhs1", "GET", "/api/mahasiswa/profil/data/N001")).body).toMatchObject({ nama_dosen_wali: "Dosen Satu", telepon_dosen_wali: "+62 812-3456-7890" });
    for (const cleared of ["", null]) {
      await as("dosen1", "PUT", "/api/dosen/profil", { telepon: "0812 1111 2222" });
      expect(await as("dosen1", "PUT", "/api/dosen/profil", { telepon: cleared })).toMatchObject({ status: 200, body: { data: { telepon: null } } });
      expect(storedTelepon("D001")).toBeNull();
    }
    expect((await as("mhs1", "GET", "/api/mahasiswa/profil/data/N001")).body.telepon_dosen_wali).toBe("");
  });

  test.each([
    ["an admin", "admin", { telepon: "0812" }, 403, "Akses ditolak."],
    ["a student", "mhs1", { telepon: "0812" }, 403, "Akses ditolak."],
    ["a dosen account without a lecturer profile", "tanpaProfil", { telepon: "0812" }, 404, "Dosen tidak ditemukan."],
    ["no telepon", "dosen1", {}, 400, 'telepon wajib disertakan; kirim "" untuk menghapusnya.'],
    ["words", "dosen1", { telepon: "hubungi saya" }, 400, teleponMessage],
    ["a number", "dosen1", { telepon: 812345 }, 400, teleponMessage],
    ["too long", "dosen1", { telepon: "0".repeat(25) }, 400, teleponMessage],
  ] as const)("%s → %d, nothing written", async (_name, who, body, status, error) => {
    expect(await as(who, "PUT", "/api/dosen/profil", body)).toMatchObject({ status, body: { error } });
    expect(storedTelepon("D001")).toBeNull();
  });

  test("a change leaves an update row naming no student", async () => {
    await as("dosen1", "PUT", "/api/dosen/profil", { telepon: "0812 3456 7890" });
    await lecturers.service.context.audit.flush();
    const rows = lecturers.service.context.db.$client.query<{ action: string; target: string }, []>("SELECT action, target FROM audit_log WHERE target LIKE '%/profil'").all();
    expect(rows).toEqual([{ action: "update", target: "PUT /api/dosen/profil" }]);
  });
});

describe("the roster's telepon column", () => {
  test("sets a lecturer's number; refuses it for a student and a number that is no number, nothing written", async () => {
    const file = (rows: string) => {
      const path = join(lecturers.service.dataDir, "daftar.csv");
      writeFileSync(path, rows);
      return path;
    };
    const good = await runCli(["--data", lecturers.service.dataDir, "accounts", "import", file("role,username,password,nip,telepon\ndosen,dosen1,,D001,(021) 555-0101\n")]);
    expect(good.exitCode).toBe(0);
    expect(storedTelepon("D001")).toBe("(021) 555-0101");
    const bad = await runCli([
      "--data",
      lecturers.service.dataDir,
      "accounts",
      "import",
      file("role,username,password,nim,nip,telepon\ndosen,dosen2,,,D002,bukan nomor\nmahasiswa,mhs1,,N001,,0812\n"),
    ]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`baris 2: ${teleponMessage}`);
    expect(bad.stderr).toContain("baris 3: telepon hanya untuk dosen");
    expect(storedTelepon("D002")).toBeNull();
  });
});
