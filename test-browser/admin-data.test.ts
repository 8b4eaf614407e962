import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { stringifyModelDocument } from "../src/models/format";
import { constantModel } from "../test/models/support";
import { answers, apiOf, checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, viewports, type Served, type ViewportName } from "./support";

// The rest of the admin console as an admin walks it, at 360 and 1280 px: Cadangan,
// Permintaan data pribadi (an erasure confirmed by typing the NIM), Jejak audit, Model,
// Teks and Statistik fakultas.

let served: Served;
let browser: Browser;
let folder: string;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  // A model limit of 1,5 MB: the page and the refusal name it alike, with the decimal comma (issue 44, item 13).
  served = await serveExecutable({ SKRINING_MODEL_LIMIT: String(1.5 * 1024 * 1024) }, (serveFolder) => {
    mkdirSync(join(serveFolder, "cadangan"));
    return ["--backup-dir", join(serveFolder, "cadangan"), "--backup-every", "7d"];
  });
  browser = await launchBrowser();
  folder = mkdtempSync(join(tmpdir(), "skrining-konsol-data-"));
  const admin = await tokenOf(demo.admin);
  for (const [nim, stress] of [["2301005", 4], ["2201009", 2], [demo.student.nim, 5]] as const) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(stress, "mid") })).status).toBe(201);
  }
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const heading = (page: Page, name: string, level = 1) => page.getByRole("heading", { level, name });

/** The admin on a console page, at a phone's narrowest width (360 px) or a desktop's. */
async function consolePage(viewport: ViewportName, path: string, title: string): Promise<Page> {
  const page = await openPage(browser, served, viewport);
  if (viewport === "phone") await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(path);
  await heading(page, "Masuk").waitFor();
  await page.getByLabel("Username").fill(demo.admin.username);
  await page.getByLabel("Password", { exact: true }).fill(demo.admin.password);
  await page.getByRole("button", { name: "Masuk", exact: true }).click();
  await heading(page, title).waitFor();
  return page;
}

/** Clicks what starts a download and gives the file's name and bytes. */
async function downloaded(page: Page, start: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), start()]);
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

const erased: Record<ViewportName, { nim: string; nama: string }> = {
  phone: { nim: "2301005", nama: "Fajar Nugroho" },
  desktop: { nim: "2201009", nama: "Bagas Wicaksono" },
};

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  test("Cadangan: the schedule, a backup now, and its download", async () => {
    const page = await consolePage(viewport, "/admin/cadangan", "Cadangan");
    await page.getByText("7 hari", { exact: true }).waitFor();
    // The schedule's first backup begins as the server starts (the folder had none): the page follows it to its end.
    await page.getByText(/^berhasil, /).waitFor();
    await page.getByRole("button", { name: "Cadangkan sekarang" }).click();
    // A manual archive, named and listed as such, with who took it (issue 44, items 9 and 14).
    await page.getByText(/^Cadangan manual skrining-manual-\d{8}-\d{6}Z\.tar\.gz tersimpan dan sudah diperiksa utuh/).waitFor();
    const table = page.getByRole("table", { name: "Arsip cadangan, terbaru dahulu" });
    await table.waitFor();
    const manual = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^skrining-manual-/ }) }).first();
    expect(await manual.textContent()).toContain(`manual, tidak dirotasi, oleh ${demo.admin.username}`);
    expect(await manual.textContent()).toMatch(/\d+(,\d)? KB/);
    expect(await table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /^skrining-auto-/ }) }).first().textContent()).toContain("otomatis, terjadwal");
    await checkPage(page, "admin-cadangan", viewport);
    const file = await downloaded(page, () => table.getByRole("button", { name: /^Unduh skrining-auto-/ }).first().click());
    expect(file.name).toMatch(/^skrining-auto-\d{8}-\d{6}Z\.tar\.gz$/);
    expect([...file.bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    await closePage(page);
  });

  test("Permintaan data pribadi: the dry run first, the export, a restriction, and an erasure confirmed by typing the NIM", async () => {
    const student = erased[viewport];
    const page = await consolePage(viewport, "/admin/data-pribadi", "Permintaan data pribadi");
    await checkPage(page, "admin-data-pribadi-kosong", viewport);
    await page.getByLabel("NIM mahasiswa").fill(student.nim);
    await page.getByRole("button", { name: "Cari" }).click();
    await heading(page, `${student.nama} (${student.nim})`, 2).waitFor();
    const plan = page.getByRole("table", { name: "Baris per tabel yang akan dihapus" });
    expect(await plan.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "riwayat_skrining" }) }).getByRole("cell").textContent()).toBe("1");
    await checkPage(page, "admin-data-pribadi", viewport);

    // One JSON file first (issue 44, item 14); the archive with the photo beside it.
    const file = await downloaded(page, () => page.getByRole("button", { name: "Unduh data mahasiswa (JSON)" }).click());
    expect(file.name).toMatch(new RegExp(`^data-saya-${student.nim}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    expect(JSON.parse(file.bytes.toString("utf8")).profil.nim).toBe(student.nim);
    const archive = await downloaded(page, () => page.getByRole("button", { name: "Unduh arsip dengan foto (.tar.gz)" }).click());
    expect(archive.name).toMatch(new RegExp(`^data-saya-${student.nim}-\\d{4}-\\d{2}-\\d{2}\\.tar\\.gz$`));

    await page.getByRole("button", { name: "Batasi pemrosesan" }).click();
    await page.getByText(`Pemrosesan data mahasiswa ${student.nim} dibatasi sejak`, { exact: false }).waitFor();
    // Its end lets the staff read again: confirmed with the password (decisions §21).
    await page.getByRole("button", { name: "Akhiri pembatasan" }).click();
    await page.getByText(`Akhiri pembatasan data mahasiswa ${student.nim}?`, { exact: false }).waitFor();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByRole("button", { name: "Ya, akhiri pembatasan" }).click();
    await page.getByText(`Pembatasan pemrosesan data mahasiswa ${student.nim} diakhiri.`).waitFor();

    await page.getByRole("button", { name: "Hapus data mahasiswa ini…" }).click();
    const erase = page.getByRole("button", { name: "Ya, hapus selamanya" });
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByLabel(`Ketik NIM ${student.nim} untuk mengonfirmasi`).fill("salah");
    expect(await erase.isDisabled()).toBe(true);
    await page.getByLabel(`Ketik NIM ${student.nim} untuk mengonfirmasi`).fill(student.nim);
    await checkPage(page, "admin-data-pribadi-hapus", viewport);
    await erase.click();
    await page.getByText(`Seluruh data mahasiswa ${student.nim} dihapus`, { exact: false }).waitFor();
    await page.getByRole("table", { name: "Baris yang dihapus per tabel" }).waitFor();
    expect((await call("POST", "/api/auth/login", null, { username: student.nim, password: "x".repeat(10) })).status).toBe(401);
    await page.getByRole("button", { name: "Cari" }).click();
    await page.getByText(`Mahasiswa dengan NIM "${student.nim}" tidak ditemukan.`).waitFor();
    await closePage(page);
  });

  test("Jejak audit: the erasure in the trail, filtered; the chain checked with its anchor; the CSV", async () => {
    const page = await consolePage(viewport, "/admin/jejak-audit", "Jejak audit");
    const { nim } = erased[viewport];
    const other = erased[viewport === "phone" ? "desktop" : "phone"].nim;
    await page.getByLabel("NIM").fill(nim);
    await page.getByLabel("Aksi").selectOption("privacy");
    // The list shown until the filtered one arrives is the whole trail: wait for the filtered answer.
    const filtered = page.waitForResponse((response) => response.url().includes("/api/admin/jejak?") && response.url().includes("aksi=privacy"));
    await page.getByRole("button", { name: "Tampilkan" }).click();
    await filtered;
    const trail = page.getByRole("table", { name: "Baris jejak audit, terbaru dahulu" });
    const rowsOf = (words: string) => trail.getByRole("row").filter({ hasText: words });
    await rowsOf("POST /api/admin/privasi/:nim/hapus").filter({ hasText: nim }).waitFor();
    // Both exports (issue 44, item 14), the action in words (item 13).
    await rowsOf("ekspor data-saya (data-saya.json, tanpa foto)").filter({ hasText: nim }).waitFor();
    await rowsOf("ekspor data-saya (1 file dalam arsip)").filter({ hasText: nim }).waitFor();
    expect(await rowsOf("Tindakan privasi").count()).toBeGreaterThanOrEqual(3);
    expect(await trail.getByRole("cell", { name: "privacy", exact: true }).count()).toBe(0);
    // Only this student's rows: the other run's erasure (once there is one) is filtered out.
    for (let wait = 0; (await rowsOf(other).count()) > 0 && wait < 50; wait++) await Bun.sleep(100);
    expect(await rowsOf(other).count()).toBe(0);
    expect(await trail.getByRole("row").filter({ hasNotText: nim }).count()).toBe(1);
    await checkPage(page, "admin-jejak-audit", viewport);
    await page.getByRole("button", { name: "Periksa keutuhan" }).click();
    await page.getByText(/^Jejak audit utuh: \d+ baris diperiksa/).waitFor();
    expect(await page.locator(".anchor").textContent()).toMatch(/^\d+:[0-9a-f]{64}$/);
    await checkPage(page, "admin-jejak-audit-periksa", viewport);
    const file = await downloaded(page, () => page.getByRole("button", { name: "Unduh CSV" }).click());
    expect(file.name).toMatch(/^jejak-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.bytes.toString("utf8")).toContain("POST /api/admin/privasi/:nim/hapus");
    // The CSV keeps the codes.
    expect(file.bytes.toString("utf8")).toContain("privacy");
    expect(file.bytes.toString("utf8")).not.toContain("Tindakan privasi");
    await closePage(page);
  });

  test("Model: an upload checked and converted, a try on a sample CSV, an activation confirmed", async () => {
    const page = await consolePage(viewport, "/admin/model", "Model");
    await checkPage(page, "admin-model-kosong", viewport);
    const bad = join(folder, `rusak-${viewport}.json`);
    writeFileSync(bad, '{"format": "skrining-model"');
    await page.getByLabel("File model").setInputFiles(bad);
    await page.getByRole("button", { name: "Tambah model" }).click();
    await page.getByRole("alert").filter({ hasText: `rusak-${viewport}.json tidak dapat dipakai: model JSON tidak dapat dibaca` }).waitFor();
    // A refused file says what to upload instead (issue 44, item 13).
    const notModel = join(folder, `catatan-${viewport}.txt`);
    writeFileSync(notModel, "bukan model");
    await page.getByLabel("File model").setInputFiles(notModel);
    await page.getByRole("button", { name: "Tambah model" }).click();
    await page.getByRole("alert").filter({ hasText: `catatan-${viewport}.txt tidak dapat dipakai` }).filter({ hasText: "Unggah model yang disimpan dengan joblib.dump dari scikit-learn seperti di docs/models.md" }).waitFor();
    // The limit the page states is the one the refusal names.
    await page.getByText(".joblib atau .json, paling besar 1,5 MB.").waitFor();
    const large = join(folder, `besar-${viewport}.json`);
    writeFileSync(large, " ".repeat(1.5 * 1024 * 1024 + 1));
    await page.getByLabel("File model").setInputFiles(large);
    await page.getByRole("button", { name: "Tambah model" }).click();
    await page.getByRole("alert").filter({ hasText: "Ukuran file melebihi batas 1,5 MB. Pilih file yang lebih kecil" }).waitFor();

    const good = join(folder, `sedang-${viewport}.json`);
    writeFileSync(good, stringifyModelDocument(constantModel("Sedang", "Tinggi")));
    await page.getByLabel("File model").setInputFiles(good);
    await page.getByRole("button", { name: "Tambah model" }).click();
    await page.getByText(/^Model \d+ \(stress\) ditambahkan\.$/).waitFor();
    const table = page.getByRole("table", { name: "Model terdaftar, terlama dahulu" });
    const id = (await table.getByRole("rowheader").last().textContent())!;

    const sample = join(folder, "contoh.csv");
    writeFileSync(sample, "NIM;S1\n2301001;3\n2301002;5\n");
    await page.getByLabel("Model", { exact: true }).selectOption(id);
    await page.getByLabel("CSV contoh", { exact: true }).setInputFiles(sample);
    await page.getByRole("button", { name: "Coba", exact: true }).click();
    const predicted = page.getByRole("table", { name: "Hasil prediksi, 2 baris" });
    await predicted.getByRole("row").filter({ hasText: "2301002" }).filter({ hasText: "Sedang" }).waitFor();
    await checkPage(page, "admin-model", viewport);

    await table.getByRole("group", { name: `Tindakan untuk model ${id}` }).getByRole("button", { name: "Aktifkan" }).click();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByRole("button", { name: "Ya, aktifkan" }).click();
    await page.getByText(`Model ${id} (stress) aktif; skrining berikutnya memakainya.`).waitFor();
    await table.getByRole("group", { name: `Tindakan untuk model ${id}` }).getByRole("button", { name: "Nonaktifkan" }).click();
    await page.getByText(`Model ${id} (stress) tidak aktif; skrining memakai ambang batas.`).waitFor();
    await closePage(page);
  });

  test("Teks: the help contact and the notice edited with a preview; problems are listed and nothing changes", async () => {
    const page = await consolePage(viewport, "/admin/teks", "Teks");
    const helpForm = page.getByRole("region", { name: "Pratinjau seperti dilihat mahasiswa: Tempat mencari bantuan" });
    await page.getByLabel("Judul").first().fill("");
    await page.getByRole("button", { name: "Simpan" }).first().click();
    await page.getByText("1 masalah ditemukan; teks tempat mencari bantuan tidak diganti.").waitFor();
    const title = `Layanan konseling fakultas (${viewport})`;
    await page.getByLabel("Judul").first().fill(title);
    await helpForm.getByRole("heading", { name: title }).waitFor();
    await page.getByRole("button", { name: "Tambah nomor" }).click();
    await page.getByLabel("Siapa", { exact: true }).last().fill(`Konselor fakultas ${viewport}`);
    await page.getByLabel("Nomor", { exact: true }).last().fill("0812 3456 7890");
    await helpForm.getByRole("link", { name: new RegExp(`Konselor fakultas ${viewport}`) }).waitFor();
    await checkPage(page, "admin-teks", viewport);
    await page.getByRole("button", { name: "Simpan" }).first().click();
    await page.getByText("Teks bantuan dipasang; mahasiswa melihatnya mulai sekarang.").waitFor();
    expect((await call<{ title: string }>("GET", "/api/konten/bantuan", null)).body.title).toBe(title);

    // New words under the version in force are refused (issue 44, item 12): the form says so, the save lists it, nothing changes.
    const notice = page.getByRole("region", { name: "Pemberitahuan privasi", exact: true });
    const before = (await call<{ version: string; text: string }>("GET", "/api/privasi/pemberitahuan", null)).body;
    await notice.getByLabel("Isi").fill(`${before.text}\n\nTambahan tanpa versi baru (${viewport}).`);
    await notice.getByText(`Judul atau teks berubah, tetapi versinya tetap ${before.version}`, { exact: false }).waitFor();
    await notice.getByRole("button", { name: "Simpan" }).click();
    await page.getByText("1 masalah ditemukan; pemberitahuan privasi untuk mahasiswa tidak diganti.").waitFor();
    await page.getByText(`beri versi baru (misalnya "${before.version}-b")`, { exact: false }).waitFor();
    expect((await call<{ version: string; text: string }>("GET", "/api/privasi/pemberitahuan", null)).body).toMatchObject({ version: before.version, text: before.text });

    const version = `2026-${viewport}`;
    await page.getByLabel("Versi").fill(version);
    await page.getByText(`Versi baru ${version}: setiap mahasiswa diminta menyetujuinya lagi.`).waitFor();
    await page.getByRole("region", { name: "Pemberitahuan privasi", exact: true }).getByRole("button", { name: "Simpan" }).click();
    await page.getByText(`Pemberitahuan privasi versi ${version} dipasang`, { exact: false }).waitFor();
    await closePage(page);
  });

  test("Statistik fakultas: every lecturer with the follow-up figures, and the CSV for Excel", async () => {
    const page = await consolePage(viewport, "/admin/statistik", "Statistik fakultas");
    const table = page.getByRole("table", { name: "Statistik per dosen wali" });
    await table.getByRole("rowheader", { name: `${demo.lecturer.nama} (${demo.lecturer.nip})` }).waitFor();
    await checkPage(page, "admin-statistik", viewport);
    const all = await downloaded(page, () => page.getByRole("button", { name: "Unduh CSV", exact: true }).click());
    expect(all.name).toMatch(/^statistik-fakultas-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.bytes.toString("utf8")).toStartWith("\uFEFFNIP;nama_dosen;total_mahasiswa");
    await page.getByLabel("Isi").selectOption("students");
    await page.getByLabel("Dosen", { exact: true }).selectOption(demo.lecturer.nip);
    await page.getByLabel("Jenis CSV").selectOption("standard");
    const students = await downloaded(page, () => page.getByRole("button", { name: "Unduh CSV", exact: true }).click());
    expect(students.bytes.toString("utf8")).toStartWith("\uFEFFNIM,nama_mahasiswa,tanggal_skrining");

    // The weekly follow-up report (issue 44, item 15): this week, then a chosen one, and its CSV.
    const moves = page.getByRole("table", { name: "Tindak lanjut minggu ini, dan yang terbuka di akhir minggu" });
    await moves.getByRole("rowheader", { name: "Seluruh fakultas" }).waitFor();
    await page.getByRole("table", { name: "Hasil kontak (percobaan dalam minggu ini)" }).waitFor();
    await page.getByRole("table", { name: "Alasan selesai (tindak lanjut yang ditutup minggu ini)" }).waitFor();
    await page.getByLabel("Minggu yang memuat tanggal").fill("2026-03-04");
    await page.getByRole("button", { name: "Tampilkan" }).click();
    await page.getByText("Minggu 2026-W10: Senin 2026-03-02 sampai Minggu 2026-03-08", { exact: false }).waitFor();
    await checkPage(page, "admin-statistik-mingguan", viewport);
    const weekly = await downloaded(page, () => page.getByRole("button", { name: "Unduh CSV laporan mingguan" }).click());
    expect(weekly.name).toBe("tindak-lanjut-2026-W10.csv");
    expect(weekly.bytes.toString("utf8")).toStartWith("\uFEFFminggu,NIP,nama_dosen,dibuka");
    await closePage(page);
  });
});
