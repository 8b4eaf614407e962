import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { extract } from "tar";
import { addNote, addScreening } from "../dosen/support";
import { everyTableButAudit, populatedService, privacyCli, recountedSummaries, storedSummaries, textsOf, type Populated } from "./support";

let populated: Populated;
let service: Populated["service"];

beforeEach(async () => {
  populated = await populatedService();
  service = populated.service;
});

afterEach(() => service.close());

const sqlite = () => service.context.db.$client;
const column = (sql: string) => sqlite().query<{ value: string | number }, []>(sql).all().map((row) => row.value);

describe("skrining privacy purge --before", () => {
  beforeEach(() => {
    // Around local midnight of 2026-01-10 in Asia/Jakarta (UTC+7), 2026-01-09T17:00Z.
    addScreening(service, "N001", "2026-01-09T16:59:59.000Z", "Tinggi", "Rendah", 150);
    addScreening(service, "N001", "2026-01-09T17:00:00.000Z", "Rendah", "Tinggi", 20);
    addScreening(service, "N002", "2025-06-01T00:00:00.000Z", "Sedang", "Sedang");
    sqlite().run("INSERT INTO mood_entries (nim, date, mood_value, created_at, updated_at) VALUES ('N001', '2026-01-09', 1, 'x', 'x'), ('N001', '2026-01-10', 5, 'x', 'x')");
    sqlite().run("INSERT INTO diary_entries (nim, date, title, content, created_at, updated_at) VALUES ('N002', '2026-01-09', '', 'lama sekali', 'x', 'x'), ('N002', '2026-01-10', '', 'hari batas', 'x', 'x')");
  });

  test("--dry-run counts by the local day and changes nothing", async () => {
    const tables = everyTableButAudit(sqlite());
    const result = await privacyCli(service, ["purge", "--before", "2026-01-10", "--dry-run"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Uji coba \(--dry-run\): tidak ada yang diubah\.\nAkan dihapus: data sebelum 2026-01-10 \(baris per tabel\):\n\s+riwayat_skrining\s+2\n\s+mood_entries\s+1\n\s+diary_entries\s+1\n$/);
    expect(everyTableButAudit(sqlite())).toBe(tables);
  });

  test("removes screenings, moods and diaries before the local day, keeps the rest, the summaries equal a recount", async () => {
    const result = await privacyCli(service, ["purge", "--before", "2026-01-10"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Dihapus: data sebelum 2026-01-10 \(baris per tabel\):\n\s+riwayat_skrining\s+2\n\s+mood_entries\s+1\n\s+diary_entries\s+1\n$/);
    expect(column("SELECT tanggal_skrining AS value FROM riwayat_skrining WHERE tanggal_skrining < '2026-11' ORDER BY 1")).toEqual(["2026-01-09T17:00:00.000Z"]);
    expect(column("SELECT date AS value FROM mood_entries WHERE date LIKE '2026-01%'")).toEqual(["2026-01-10"]);
    expect(column("SELECT content AS value FROM diary_entries WHERE date LIKE '2026-01%'")).toEqual(["hari batas"]);
    expect(storedSummaries(sqlite())).toEqual(recountedSummaries(sqlite()));
    expect(sqlite().query("SELECT action, nim, target, detail FROM audit_log WHERE action = 'privacy'").all()).toEqual([
      { action: "privacy", nim: null, target: "skrining privacy purge", detail: "sebelum 2026-01-10: riwayat_skrining=2 mood_entries=1 diary_entries=1" },
    ]);
    expect(readFileSync(join(service.dataDir, "skrining.db")).includes("lama sekali")).toBe(false);
  });

  test.each([
    ["a date that does not exist", ["purge", "--before", "2026-02-30"]],
    ["no date", ["purge"]],
  ])("%s is refused (exit 1) and nothing changes", async (_, args) => {
    const tables = everyTableButAudit(sqlite());
    const result = await privacyCli(service, args);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toBe("");
    expect(everyTableButAudit(sqlite())).toBe(tables);
  });
});

describe("skrining privacy purge --angkatan", () => {
  beforeEach(async () => {
    // Cohort 2019: N019 left long ago; N020 still writes notes with the lecturer.
    await service.importAccounts(
      "role,username,password,nim,nama,angkatan,nip_doswal,activated\nmahasiswa,m019,pass-0190,N019,Lulus Lama,2019,D001,true\nmahasiswa,m020,pass-0200,N020,Masih Aktif,2019,D001,true\n",
    );
    addScreening(service, "N019", "2023-05-01T00:00:00.000Z", "Tinggi", "Tinggi");
    addScreening(service, "N020", "2023-05-01T00:00:00.000Z", "Sedang", "Tinggi");
    addNote(service, "N020", "D001", "masih dibimbing", "2026-02-01T00:00:00.000Z");
  });

  test("--dry-run names who would go and who stays, and changes nothing", async () => {
    const tables = everyTableButAudit(sqlite());
    const result = await privacyCli(service, ["purge", "--before", "2024-01-01", "--angkatan", "2019", "--dry-run"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toStartWith("Uji coba (--dry-run): tidak ada yang diubah.\nAkan dihapus: 1 mahasiswa angkatan 2019 yang tidak aktif sejak 2024-01-01.\nN019:\n");
    expect(result.stdout).toEndWith("Tetap disimpan (masih aktif sejak 2024-01-01): N020\n");
    expect(everyTableButAudit(sqlite())).toBe(tables);
  });

  test("erases the cohort's inactive students as erase does, keeps the active one, the summaries equal a recount", async () => {
    const result = await privacyCli(service, ["purge", "--before", "2024-01-01", "--angkatan", "2019"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Dihapus: 1 mahasiswa angkatan 2019 yang tidak aktif sejak 2024-01-01.\nN019:\n");
    expect(result.stdout).toMatch(/N019:\n\s+tindak_lanjut_riwayat\s+0\n\s+permintaan_kontak\s+0\n\s+tindak_lanjut\s+0\n\s+pergantian_dosen_wali\s+0\n\s+riwayat_skrining\s+1\n/);
    const tables = everyTableButAudit(sqlite());
    expect(tables).not.toContain("N019");
    expect(tables).not.toContain("Lulus Lama");
    expect(tables).toContain("N020");
    expect(storedSummaries(sqlite())).toEqual(recountedSummaries(sqlite()));
    expect(sqlite().query("SELECT (SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = id) AS nim, target FROM audit_log WHERE action = 'privacy'").all()).toEqual([{ nim: "N019", target: "skrining privacy purge" }]);
  });
});

describe("skrining privacy export", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "skrining-export-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test("writes the data-saya document and the photo as one .tar.gz, 0600, with an audit row", async () => {
    const out = join(folder, "N001.tar.gz");
    const result = await privacyCli(service, ["export", "--nim", "N001", "--out", out]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Data mahasiswa N001 ditulis ke ${out}:\n`);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const unpacked = join(folder, "unpacked");
    await Bun.write(join(unpacked, ".keep"), "");
    await extract({ file: out, cwd: unpacked });
    expect(readdirSync(join(unpacked, "data-saya-N001")).sort()).toEqual(["data-saya.json", "foto.jpg"]);
    const document = JSON.parse(readFileSync(join(unpacked, "data-saya-N001", "data-saya.json"), "utf8"));
    // The document the route gives the student, but for its time and the accesses (the export's own row comes after the file).
    const fromRoute = (await service.request("GET", "/api/mahasiswa/data-saya", { token: populated.tokens.mhs1 })).body;
    expect({ ...document, dibuat_pada: null, dilihat_oleh: null }).toEqual({ ...fromRoute, dibuat_pada: null, dilihat_oleh: null });
    expect(JSON.stringify(document)).toContain(textsOf("N001").reply);
    expect(JSON.stringify(document)).not.toContain("N002");
    const photo = sqlite().query<{ foto: string }, []>("SELECT foto_profil AS foto FROM mahasiswa WHERE NIM = 'N001'").get()!.foto;
    expect(readFileSync(join(unpacked, "data-saya-N001", "foto.jpg")).equals(readFileSync(join(service.dataDir, photo)))).toBe(true);

    expect(sqlite().query(`SELECT action, (SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = id) AS nim, target, actor_role FROM audit_log WHERE action = 'privacy'`).all()).toEqual([
      { action: "privacy", nim: "N001", target: "skrining privacy export", actor_role: "cli" },
    ]);
    // The student sees the export among the accesses to their data.
    expect(fromRoute.dilihat_oleh[0]).toMatchObject({ peran: "cli", aksi: "privacy", rute: "skrining privacy export" });
  });

  test("keeps an existing file unless --force; --dry-run writes nothing", async () => {
    const out = join(folder, "ada.tar.gz");
    await Bun.write(out, "lama");
    const refused = await privacyCli(service, ["export", "--nim", "N001", "--out", out]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("sudah ada; pilih nama lain, atau tambahkan --force");
    expect(readFileSync(out, "utf8")).toBe("lama");

    const dry = await privacyCli(service, ["export", "--nim", "N001", "--out", join(folder, "baru.tar.gz"), "--dry-run"]);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toStartWith("Uji coba (--dry-run): tidak ada yang diubah.\n");
    expect(dry.stdout).toContain("isi arsip: data-saya-N001/foto.jpg");
    expect(existsSync(join(folder, "baru.tar.gz"))).toBe(false);
    expect(sqlite().query("SELECT count(*) AS n FROM audit_log WHERE action = 'privacy'").get()).toEqual({ n: 0 });

    expect((await privacyCli(service, ["export", "--nim", "N001", "--out", out, "--force"])).exitCode).toBe(0);
    expect(readFileSync(out).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  test.each([
    ["an unknown NIM", ["export", "--nim", "N999", "--out", "x.tar.gz"], 'skrining: Mahasiswa dengan NIM "N999" tidak ditemukan.\n'],
    ["no --out", ["export", "--nim", "N001"], "skrining: --out wajib diisi.\n"],
  ])("%s is refused (exit 1)", async (_, args, message) => {
    expect(await privacyCli(service, args)).toEqual({ exitCode: 1, stdout: "", stderr: message });
  });
});
