import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeBackup } from "../../src/backup/archive";
import { AutomaticBackups } from "../../src/backup/automatic";
import { automaticBackupName } from "../../src/backup/backup-names";
import { silentLogger } from "../../src/logger";
import { jawaban, passwords, runCli, temporaryDir } from "../helpers";
import { consoleService } from "./support";

// "Cadangan", "Jejak audit", "Teks" and "Statistik fakultas" through their routes.

let opened: Awaited<ReturnType<typeof consoleService>>;
let folder: string;
let backups: AutomaticBackups;
let failNext = false;
const takers = new Map<string, string>();

/** A downloaded CSV's text with its byte order mark, which spreadsheets need and `Response.text()` drops. */
const withBom = (bytes: ArrayBuffer) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);

beforeAll(async () => {
  folder = temporaryDir("skrining-konsol-cadangan-");
  opened = await consoleService({}, (context) => {
    backups = new AutomaticBackups({
      folder,
      everyMilliseconds: 24 * 3_600_000,
      keep: 2,
      logger: silentLogger,
      // Every archive of the test's folder is this data folder's own; who took a manual one is remembered as BackupFolder does.
      ownership: {
        written: (name, facts) => void (facts?.takenBy && takers.set(name, facts.takenBy)),
        own: async (names) => new Set(names),
        takenBy: (name) => takers.get(name) ?? null,
      },
      // The command's own writer, in process: the child process is the subject of test/backup.
      write: async (target) => {
        if (failNext) throw new Error("Disk penuh (uji)");
        await writeBackup({ sqlite: context.db.$client, dataDir: context.config.dataDir, target });
      },
    });
    return { backups };
  });
  const mhs1 = (await opened.service.login("mhs1", passwords.mhs1)).access;
  expect((await opened.service.request("POST", "/api/mahasiswa/kuesioner", { token: mhs1, body: { jawaban: jawaban(5, 1) } })).status).toBe(201);
});
afterAll(async () => {
  await backups.stop();
  opened.service.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("Cadangan", () => {
  test("the schedule and the folder's archives by kind; a backup now is a manual archive, checked, out of the rotation, naming who took it", async () => {
    writeFileSync(join(folder, "manual-2026.tar.gz"), "not really");
    writeFileSync(join(folder, "skrining-auto-20260101-000000Z.tar.gz.enc"), "an encrypted one");
    writeFileSync(join(folder, ".skrining-auto-20260101-000000Z.tar.gz.1.archive.tmp"), "half");
    const first = await opened.call("GET", "/api/admin/cadangan");
    expect(first.body.jadwal).toMatchObject({ folder, everyMilliseconds: 86_400_000, keep: 2, running: false, encrypted: false, last: null });
    writeFileSync(join(folder, "skrining-auto-20260102-000000Z-impor.tar.gz"), "after an import");
    expect(first.body.cadangan.map((backup: { name: string; automatic: boolean; kind: string | null; encrypted: boolean }) => [backup.name, backup.automatic, backup.kind, backup.encrypted]).sort()).toEqual([
      ["manual-2026.tar.gz", false, null, false],
      ["skrining-auto-20260101-000000Z.tar.gz.enc", true, "terjadwal", true],
    ]);
    expect((await opened.call("GET", "/api/admin/cadangan")).body.cadangan.find((backup: { name: string }) => backup.name.endsWith("-impor.tar.gz"))).toMatchObject({ automatic: true, kind: "impor", takenBy: null });

    const beforeBackup = opened.lastAuditId();
    const made = await opened.call("POST", "/api/admin/cadangan");
    expect(made.status).toBe(200);
    expect(made.body.nama).toMatch(/^skrining-manual-\d{8}-\d{6}Z\.tar\.gz$/);
    expect(made.body.message).toBe(`Cadangan manual ${made.body.nama} tersimpan dan sudah diperiksa utuh. Rotasi cadangan otomatis tidak menghapusnya: hapus sendiri bila tidak diperlukan lagi.`);
    const listed = (await opened.call("GET", "/api/admin/cadangan")).body;
    expect(listed.jadwal.last).toMatchObject({ ok: true, removed: 0, kind: "manual" });
    expect(listed.cadangan.find((backup: { name: string }) => backup.name === made.body.nama)).toMatchObject({ automatic: false, kind: "manual", takenBy: "admin", size: expect.any(Number) });
    // Who took it is in the trail too (issue 44).
    expect(opened.auditAfter(beforeBackup)).toEqual([expect.objectContaining({ action: "create", nim: null, detail: `cadangan manual ${made.body.nama} dibuat di folder cadangan` })]);
  });

  test("an encrypted schedule's backup now is encrypted too: the schedule's own writer, a manual name", async () => {
    const written: string[] = [];
    const encrypted = new AutomaticBackups({
      folder: temporaryDir("skrining-konsol-enc-"),
      everyMilliseconds: 86_400_000,
      keep: 2,
      encrypted: true,
      logger: silentLogger,
      ownership: { written: () => {}, own: async (names) => new Set(names) },
      write: async (target) => {
        written.push(target);
        writeFileSync(target, "terenkripsi");
      },
    });
    try {
      expect(encrypted.status().encrypted).toBe(true);
      const outcome = await encrypted.backUpNow("admin");
      expect(outcome).toMatchObject({ ok: true, kind: "manual" });
      expect(written).toEqual([outcome.target]);
      expect(outcome.target).toMatch(/skrining-manual-\d{8}-\d{6}Z\.tar\.gz\.enc$/);
    } finally {
      await encrypted.stop();
    }
  });

  test("a download hands out the archive with an export row; an unknown name is 404, never a path", async () => {
    const name = (await opened.call("GET", "/api/admin/cadangan")).body.cadangan.find((backup: { kind: string | null }) => backup.kind === "manual").name as string;
    const before = opened.lastAuditId();
    const response = await opened.service.app.handle(new Request(`http://localhost/api/admin/cadangan/${name}`, { headers: { authorization: `Bearer ${opened.admin}` } }));
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]));
    expect(opened.auditAfter(before)).toEqual([expect.objectContaining({ action: "export", nim: null, detail: expect.stringMatching(new RegExp(`^cadangan ${name} diunduh \\(\\d+ byte\\)$`)) })]);
    for (const bad of ["tidak-ada.tar.gz", "..%2Fskrining.db", ".skrining-auto-20260101-000000Z.tar.gz.1.archive.tmp"]) {
      expect((await opened.call("GET", `/api/admin/cadangan/${bad}`)).status).toBe(404);
    }
  });

  test("a failed backup is a clear 500 and keeps the old ones; without --backup-dir the console says how to get one", async () => {
    const names = (await opened.call("GET", "/api/admin/cadangan")).body.cadangan.map((backup: { name: string }) => backup.name);
    failNext = true;
    const failed = await opened.call("POST", "/api/admin/cadangan");
    failNext = false;
    expect(failed).toMatchObject({ status: 500, body: { error: "Cadangan gagal: Disk penuh (uji). Cadangan lama tidak dihapus." } });
    expect((await opened.call("GET", "/api/admin/cadangan")).body.cadangan.map((backup: { name: string }) => backup.name)).toEqual(names);

    const plain = await consoleService();
    try {
      expect((await plain.call("GET", "/api/admin/cadangan")).body).toEqual({ jadwal: null, cadangan: [] });
      const refused = await plain.call("POST", "/api/admin/cadangan");
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain("--backup-dir");
      expect((await plain.call("GET", `/api/admin/cadangan/${automaticBackupName(new Date())}`)).status).toBe(409);
    } finally {
      plain.service.close();
    }
  });
});

describe("Jejak audit", () => {
  test("filters by student, user, action and local day, newest first by page", async () => {
    const all = await opened.call("GET", "/api/admin/jejak?per_page=2");
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(2);
    expect(all.body.data[0].id).toBeGreaterThan(all.body.data[1].id);
    const logins = await opened.call("GET", "/api/admin/jejak?aksi=login&pengguna=mhs1");
    expect(logins.body.data.length).toBeGreaterThan(0);
    expect(logins.body.data.every((row: { aksi: string; pengguna: string }) => row.aksi === "login" && row.pengguna === "mhs1")).toBe(true);
    expect((await opened.call("GET", "/api/admin/jejak?nim=N001&aksi=create")).body.data.map((row: { target: string }) => row.target)).toEqual(["POST /api/mahasiswa/kuesioner"]);
    expect((await opened.call("GET", "/api/admin/jejak?sejak=2000-01-01&sampai=2000-01-31")).body).toEqual({ data: [], total: 0, page: 1, total_pages: 0 });
    expect(await opened.call("GET", "/api/admin/jejak?sejak=2026-02-30")).toMatchObject({ status: 400, body: { error: "Tanggal harus YYYY-MM-DD, misalnya 2026-03-01." } });
    expect((await opened.call("GET", "/api/admin/jejak?sejak=2026-03-02&sampai=2026-03-01")).status).toBe(400);
  });

  test("the CSV is audit list's, with the filter", async () => {
    const response = await opened.service.app.handle(new Request("http://localhost/api/admin/jejak/csv?nim=N001&csv=standard", { headers: { authorization: `Bearer ${opened.admin}` } }));
    expect(response.headers.get("content-disposition")).toMatch(/jejak-audit-\d{4}-\d{2}-\d{2}\.csv/);
    const text = withBom(await response.arrayBuffer());
    const cli = await runCli(["--data", opened.service.dataDir, "audit", "list", "--nim", "N001", "--format", "csv", "--csv", "standard"]);
    expect(text).toBe(cli.stdout);
  });

  test("verify says intact with the anchor, and names a changed row", async () => {
    const intact = await opened.call("GET", "/api/admin/jejak/periksa");
    expect(intact.body).toMatchObject({ utuh: true, masalah: [] });
    expect(intact.body.jangkar).toMatch(/^\d+:[0-9a-f]{64}$/);
    // audit verify --anchor: the anchor written down earlier is checked too.
    const anchored = await opened.call("GET", `/api/admin/jejak/periksa?jangkar=${intact.body.jangkar}`);
    expect(anchored.body).toMatchObject({ utuh: true, jangkar_diperiksa: intact.body.jangkar });
    const [id] = intact.body.jangkar.split(":");
    const forged = await opened.call("GET", `/api/admin/jejak/periksa?jangkar=${id}:${"0".repeat(64)}`);
    expect(forged.body.utuh).toBe(false);
    expect(forged.body.masalah).toEqual([`baris ${id}: baris jangkar ada, tetapi hash-nya bukan yang dicatat: jejak sampai baris ini ditulis ulang`]);
    expect((await opened.call("GET", "/api/admin/jejak/periksa?jangkar=bukan")).status).toBe(400);
    const sqlite = opened.service.context.db.$client;
    sqlite.run("DROP TRIGGER audit_log_no_update");
    sqlite.run("UPDATE audit_log SET detail = 'diubah' WHERE id = 2");
    const broken = await opened.call("GET", "/api/admin/jejak/periksa");
    expect(broken.body.utuh).toBe(false);
    expect(broken.body.masalah).toEqual([
      "pemicu audit_log_no_update tidak ada: tabel jejak audit dapat diubah tanpa ditolak",
      "baris 2: isi baris tidak cocok dengan hash-nya: baris ini (atau daftar mahasiswanya) diubah",
    ]);
  });
});

describe("Teks", () => {
  test("the help contact and the notice in force; a replacement with problems lists them all and changes nothing", async () => {
    const current = (await opened.call("GET", "/api/admin/teks")).body;
    expect(current.bantuan.title).toBeString();
    expect(current.pemberitahuan.version).toBeString();
    const refused = await opened.call("PUT", "/api/admin/teks/bantuan", { body: { title: "", text: "", warna: "merah" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("3 masalah ditemukan; teks tempat mencari bantuan tidak diganti.");
    expect(refused.body.masalah).toHaveLength(3);
    expect((await opened.call("GET", "/api/admin/teks")).body).toEqual(current);
  });

  test("a new help text and a new notice version, each with the command's row; the same version is said to be the same", async () => {
    const before = opened.lastAuditId();
    const help = await opened.call("PUT", "/api/admin/teks/bantuan", { body: { title: "Layanan konseling", text: "Datang ke ruang 101.", telepon: [{ label: "Konselor", nomor: "0812 3456 7890" }] } });
    expect(help).toMatchObject({ status: 200, body: { bantuan: { title: "Layanan konseling", telepon: [{ label: "Konselor", nomor: "0812 3456 7890", keterangan: "" }] } } });
    expect((await opened.service.request("GET", "/api/konten/bantuan")).body.title).toBe("Layanan konseling");
    const notice = await opened.call("PUT", "/api/admin/teks/pemberitahuan", { body: { version: "2026-9", title: "Pemberitahuan", text: "Isi baru." } });
    expect(notice.body).toMatchObject({ versi_baru: true });
    expect(notice.body.message).toContain("diminta menyetujuinya");
    // Issue 44, item 12: new words under the version in force would leave the students who agreed to it unasked.
    const changed = await opened.call("PUT", "/api/admin/teks/pemberitahuan", { body: { version: "2026-9", title: "Pemberitahuan", text: "Isi baru, salah ketik dibetulkan." } });
    expect(changed.status).toBe(400);
    expect(changed.body.masalah).toEqual([
      'Judul atau teks berubah, tetapi versinya tetap "2026-9": mahasiswa yang sudah menyetujui versi itu tidak akan diminta lagi. Beri versi baru (misalnya "2026-9-b"), agar setiap mahasiswa membaca dan menyetujui teks yang baru.',
    ]);
    expect((await opened.service.request("GET", "/api/privasi/pemberitahuan")).body.text).toBe("Isi baru.");
    const same = await opened.call("PUT", "/api/admin/teks/pemberitahuan", { body: { version: "2026-9", title: "Pemberitahuan", text: "Isi baru." } });
    expect(same.body).toMatchObject({ versi_baru: false });
    expect(opened.auditAfter(before).map((row) => [row.action, row.detail])).toEqual([
      ["update", "teks tempat mencari bantuan diganti"],
      ["update", "pemberitahuan privasi untuk mahasiswa diganti"],
      ["update", "pemberitahuan privasi untuk mahasiswa diganti"],
    ]);
  });
});

describe("Teks: the safety question (decisions §20)", () => {
  test("off by default; on needs a contact and a number (400, nothing changes); aktif must be true or false", async () => {
    expect((await opened.call("GET", "/api/admin/teks")).body.keselamatan).toEqual({ aktif: false, nama_kontak: null, telepon_kontak: null, diubah_pada: null });
    const before = opened.lastAuditId();
    for (const [body, error] of [
      [{ aktif: true, nama_kontak: " ", telepon_kontak: "0812 3456 7890" }, "Nama kontak wajib diisi (1-100 karakter): orang yang menjawab pada hari yang sama."],
      [{ aktif: true, nama_kontak: "Konselor", telepon_kontak: "telepon" }, "Nomor telepon kontak wajib diisi: angka, boleh dengan +, spasi, tanda kurung dan - (3-24 karakter)."],
      [{ aktif: true, nama_kontak: "x".repeat(101), telepon_kontak: "0812 3456 7890" }, "Nama kontak wajib diisi (1-100 karakter): orang yang menjawab pada hari yang sama."],
      [{ aktif: "ya", nama_kontak: "Konselor", telepon_kontak: "0812 3456 7890" }, "aktif harus true atau false."],
      [{}, "aktif harus true atau false."],
    ] as const) {
      expect(await opened.call("PUT", "/api/admin/teks/keselamatan", { body })).toMatchObject({ status: 400, body: { error } });
    }
    expect((await opened.call("GET", "/api/admin/teks")).body.keselamatan.aktif).toBe(false);
    expect(opened.auditAfter(before)).toEqual([]);
  });

  test("on, then off: the questionnaire's route says so, each change with its update row; the contact is kept", async () => {
    const before = opened.lastAuditId();
    const on = await opened.call("PUT", "/api/admin/teks/keselamatan", { body: { aktif: true, nama_kontak: " Konselor fakultas ", telepon_kontak: "(021) 555-0101" } });
    expect(on).toMatchObject({ status: 200, body: { keselamatan: { aktif: true, nama_kontak: "Konselor fakultas", telepon_kontak: "(021) 555-0101", diubah_pada: expect.any(String) } } });
    expect(on.body.message).toContain("Konselor fakultas ((021) 555-0101)");
    const student = (await opened.service.login("mhs1", "mhs-pass-1")).access;
    const asked = await opened.service.request("GET", "/api/kuesioner/keselamatan", { token: student });
    expect(asked.body).toEqual({
      aktif: true,
      pertanyaan: expect.stringContaining("menyakiti diri sendiri"),
      skala: { min: 1, max: 5 },
      pilihan: ["Tidak pernah", "Jarang", "Kadang-kadang", "Sering", "Hampir setiap hari"],
      kontak: { nama: "Konselor fakultas", telepon: "(021) 555-0101" },
    });
    const off = await opened.call("PUT", "/api/admin/teks/keselamatan", { body: { aktif: false } });
    expect(off.body.keselamatan).toMatchObject({ aktif: false, nama_kontak: "Konselor fakultas" });
    expect((await opened.service.request("GET", "/api/kuesioner/keselamatan", { token: student })).body).toMatchObject({ aktif: false, pertanyaan: null, kontak: null });
    expect(opened.auditAfter(before).filter((row) => row.action !== "login").map((row) => [row.action, row.detail, row.target])).toEqual([
      ["update", "pertanyaan keselamatan aktif; kontak Konselor fakultas ((021) 555-0101)", "PUT /api/admin/teks/keselamatan"],
      ["update", "pertanyaan keselamatan nonaktif", "PUT /api/admin/teks/keselamatan"],
    ]);
  });
});

describe("Statistik fakultas", () => {
  test("every lecturer's row with the follow-up figures, a view row of aggregates", async () => {
    const before = opened.lastAuditId();
    const answer = await opened.call("GET", "/api/admin/statistik");
    expect(answer.body.csv_bawaan).toBe("excel-id");
    expect(answer.body.per_dosen.map((row: { NIP: string }) => row.NIP)).toEqual(["D001", "D002"]);
    expect(answer.body.per_dosen[0]).toMatchObject({ total_mahasiswa: 1, sudah_skrining: 1, terbuka: 1, terlambat: 0 });
    await opened.service.context.audit.flush();
    expect(opened.auditAfter(before)).toEqual([expect.objectContaining({ action: "view", nim: null, detail: "semua dosen", target: "GET /api/admin/statistik" })]);
  });

  test("the download is stats export's CSV, with its rows: aggregates, or one per student", async () => {
    const get = (query: string) => opened.service.app.handle(new Request(`http://localhost/api/admin/statistik/ekspor${query}`, { headers: { authorization: `Bearer ${opened.admin}` } }));
    const before = opened.lastAuditId();
    const all = await get("");
    expect(all.headers.get("content-disposition")).toMatch(/statistik-fakultas-\d{4}-\d{2}-\d{2}\.csv/);
    expect(withBom(await all.arrayBuffer())).toBe((await runCli(["--data", opened.service.dataDir, "stats", "export"])).stdout);
    const students = await get("?nip=D001&per_mahasiswa=ya&csv=standard");
    expect(withBom(await students.arrayBuffer()).split("\r\n")[0]).toBe("\uFEFFNIM,nama_mahasiswa,tanggal_skrining,tingkat_stres,tingkat_motivasi,score_stress,score_sdi,early_warning");
    const rows = opened.auditAfter(before).filter((row) => row.target.startsWith("GET /api/admin"));
    expect(rows.map((row) => [row.action, row.nim, row.detail])).toEqual([
      ["export", null, "semua dosen; csv (unduhan konsol)"],
      ["export", "N001", "NIP D001; csv (unduhan konsol)"],
    ]);
    expect((await get("?nip=D999")).status).toBe(400);
    expect((await get("?csv=tsv")).status).toBe(400);
  });

  test("the weekly follow-up report (issue 44, item 15) is followup report --week's, as JSON and as CSV, each with an export row; a wrong date is 400", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const command = (format: string) => runCli(["--data", opened.service.dataDir, "followup", "report", "--week", "--date", today, "--format", format]);
    const before = opened.lastAuditId();
    const table = await opened.call("GET", `/api/admin/statistik/mingguan?tanggal=${today}`);
    expect(table.status).toBe(200);
    expect(table.body).toEqual(JSON.parse((await command("json")).stdout));
    expect(table.body.per_dosen.map((row: { NIP: string }) => row.NIP)).toEqual(["D001", "D002"]);
    const csv = await opened.service.app.handle(new Request(`http://localhost/api/admin/statistik/mingguan/csv?tanggal=${today}`, { headers: { authorization: `Bearer ${opened.admin}` } }));
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="tindak-lanjut-\d{4}-W\d{2}\.csv"$/);
    expect(withBom(await csv.arrayBuffer())).toBe((await command("csv")).stdout);
    const rows = opened.auditAfter(before).filter((row) => row.target.startsWith("GET /api/admin"));
    expect(rows.map((row) => [row.action, row.nim, row.detail])).toEqual([
      ["export", null, `minggu ${table.body.minggu}; tabel konsol`],
      ["export", null, `minggu ${table.body.minggu}; csv (unduhan konsol)`],
    ]);
    for (const wrong of ["2026-02-30", "kemarin"]) {
      expect(await opened.call("GET", `/api/admin/statistik/mingguan?tanggal=${wrong}`)).toMatchObject({ status: 400, body: { error: "Tanggal harus YYYY-MM-DD, misalnya 2026-03-01." } });
    }
  });
});
