import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pngSized } from "../test/photos/fixtures";
import { apiOf, checkPage, closePage, demo, launchBrowser, openMenu, openPage, serveExecutable, viewports, type Served, type ViewportName } from "./support";

// The privacy notice at a student's first sign-in (and again for a new version), and the
// "Data saya" page: every kind of data of the student, who else opened it, and the download.

let served: Served;
let browser: Browser;
let folder: string;

const { call, tokenOf } = apiOf(() => served.base);

/** `skrining notice import` of the same executable, as the faculty's admin runs it. */
async function importNotice(version: string, title: string): Promise<void> {
  const file = join(folder, `notice-${version}.json`);
  writeFileSync(file, JSON.stringify({ version, title, text: `Isi pemberitahuan ${version}.\n\nParagraf kedua.` }));
  const result = await served.command(["notice", "import", file]);
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
}

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });
const gate = (page: Page) => heading(page, "Pemberitahuan privasi");
const accept = (page: Page) => page.getByRole("button", { name: "Saya sudah membaca dan menyetujui" });

/** Signs in on the form without accepting anything: the test decides what happens next. */
async function signInOnly(page: Page, account: { username: string; password: string }): Promise<void> {
  await heading(page, "Masuk").waitFor();
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Masuk", exact: true }).click();
  await heading(page, "Masuk").waitFor({ state: "detached" });
}

/** Each viewport's student, so that each meets the notice for the first time. */
const students: Record<ViewportName, { username: string; password: string; nim: string; nama: string }> = {
  phone: { username: "2201006", password: "demo-mhs-06", nim: "2201006", nama: "Putri Ayu" },
  desktop: { username: "2201007", password: "demo-mhs-07", nim: "2201007", nama: "Yoga Saputra" },
};

beforeAll(async () => {
  served = await serveExecutable({ SKRINING_STUDENT_WRITES: "1000" });
  browser = await launchBrowser();
  folder = mkdtempSync(join(tmpdir(), "skrining-privasi-"));

  // Andi (advised by dosen.rina) with data of every kind, and views of it by his advisor.
  const andi = await tokenOf(demo.student);
  const notice = await call<{ version: string }>("GET", "/api/privasi/pemberitahuan", andi);
  expect((await call("POST", "/api/privasi/pemberitahuan/setuju", andi, { version: notice.body.version })).status).toBe(201);
  const jawaban: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) jawaban[`S${item}`] = 3;
  for (let item = 1; item <= 28; item++) jawaban[`M${item}`] = item <= 16 ? 6 : 2;
  expect((await call("POST", "/api/mahasiswa/kuesioner", andi, { jawaban })).status).toBe(201);
  expect((await call("POST", "/api/mahasiswa/mood", andi, { date: "2026-11-02", mood_value: 4 })).status).toBe(201);
  expect((await call("POST", "/api/mahasiswa/diary", andi, { date: "2026-11-03", title: "Minggu ujian", content: "Belajar bersama teman sampai sore." })).status).toBe(201);
  const form = new FormData();
  form.append("foto", new Blob([new Uint8Array(pngSized(2, 2))], { type: "image/png" }), "foto.png");
  expect((await fetch(`${served.base}/api/mahasiswa/profil/foto`, { method: "PUT", headers: { authorization: `Bearer ${andi}` }, body: form })).status).toBe(200);
  const rina = await tokenOf(demo.lecturer);
  const note = await call<{ id: number }>("POST", "/api/dosen/catatan", rina, { NIM: demo.student.nim, isi_catatan: "Mari bertemu hari Kamis." });
  expect(note.status).toBe(201);
  expect((await call("POST", `/api/mahasiswa/catatan/${note.body.id}/reply`, andi, { reply: "Baik, Bu." })).status).toBe(200);
  expect((await call("GET", `/api/dosen/mahasiswa/${demo.student.nim}`, rina)).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  test("the first sign-in shows the notice before any page, a reload keeps it, accepting leads on to the page asked for", async () => {
    const student = students[viewport];
    const page = await openPage(browser, served, viewport);
    await page.goto("/riwayat");
    await signInOnly(page, student);
    await gate(page).waitFor();
    await heading(page, "Pemberitahuan Privasi skrining", 2).waitFor();
    // Nothing else is reachable: no navigation, and a reload shows the notice again.
    expect(await page.getByRole("navigation", { name: "Navigasi utama" }).count()).toBe(0);
    await checkPage(page, "pemberitahuan-privasi", viewport);
    await page.reload();
    await gate(page).waitFor();

    await accept(page).click();
    await heading(page, "Riwayat").waitFor();
    expect(new URL(page.url()).pathname).toBe("/riwayat");
    await page.reload();
    await heading(page, "Riwayat").waitFor();
    await closePage(page);
  });
});

test("a new version is asked for again; one published while the notice is open is shown instead; declining signs out", async () => {
  const page = await openPage(browser, served, "desktop");
  await page.goto("/");
  await signInOnly(page, demo.otherStudent);
  await gate(page).waitFor();
  await accept(page).click();
  await heading(page, "Beranda").waitFor();

  await importNotice("2027-1", "Pemberitahuan Privasi 2027");
  await page.reload();
  await gate(page).waitFor();
  await heading(page, "Pemberitahuan Privasi 2027", 2).waitFor();
  await page.getByText("Versi 2027-1", { exact: true }).waitFor();

  // The admin publishes another version while the student reads this one.
  await importNotice("2027-2", "Pemberitahuan Privasi 2027 (revisi)");
  await accept(page).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toContain("Pemberitahuan privasi sudah diperbarui ke versi 2027-2.");
  await heading(page, "Pemberitahuan Privasi 2027 (revisi)", 2).waitFor();
  await checkPage(page, "pemberitahuan-privasi-baru", "desktop");

  await page.getByRole("button", { name: "Tidak sekarang, keluar" }).click();
  await heading(page, "Masuk").waitFor();
  await signInOnly(page, demo.otherStudent);
  await gate(page).waitFor();
  await accept(page).click();
  await heading(page, "Beranda").waitFor();
  await closePage(page);
});

describe.each(Object.keys(viewports) as ViewportName[])("Data saya at %s size", (viewport) => {
  test("every section of the student's data, who else opened it, and the same document as a file", async () => {
    // The advisor reads the student's moods three times at once: one entry that counts them.
    const lecturerToken = await tokenOf(demo.lecturer);
    for (const answer of await Promise.all([1, 2, 3].map(() => call("GET", `/api/mahasiswa/mood/${demo.student.nim}`, lecturerToken)))) expect(answer.status).toBe(200);
    const page = await openPage(browser, served, viewport);
    await page.goto("/");
    await signInOnly(page, demo.student);
    // Andi acknowledged the project's version; the test before published a newer one, which he accepts on his first sign-in since.
    if (viewport === "phone") {
      await gate(page).waitFor();
      await accept(page).click();
    }
    await heading(page, "Beranda").waitFor();
    await openMenu(page);
    await page.getByRole("navigation", { name: "Navigasi utama" }).getByRole("link", { name: "Data saya", exact: true }).click();
    await heading(page, "Data saya").waitFor();

    for (const section of ["Profil", "Skrining", "Mood", "Jurnal", "Catatan konseling", "Persetujuan pemberitahuan privasi", "Siapa yang membuka data Anda"]) {
      await heading(page, section, 2).waitFor();
    }
    await page.getByText("Andi Pratama", { exact: true }).waitFor();
    await page.getByRole("img", { name: "Foto profil Anda" }).waitFor();
    await page.getByText("Jawaban (").first().waitFor();
    await page.getByText("4 · Baik").waitFor();
    await page.getByText("Belajar bersama teman sampai sore.").waitFor();
    await page.getByText("Mari bertemu hari Kamis.").waitFor();
    await page.getByText("Baik, Bu.").waitFor();
    await page.getByText(/^Versi 2026-4, disetujui /).waitFor();
    const accesses = page.getByRole("list", { name: /akses oleh orang lain/ });
    const advisor = accesses.locator(":scope > li").filter({ hasText: `${demo.lecturer.nama} (dosen), ` });
    await advisor.getByText("membuka halaman data Anda (profil, skrining, catatan)", { exact: true }).waitFor();
    await advisor.getByText("menulis catatan konseling untuk Anda", { exact: true }).waitFor();
    // The phone's test read the moods three times and the desktop's three more, on the same day.
    await advisor.getByText(/^melihat mood Anda, [36] kali$/).waitFor();
    await checkPage(page, "data-saya", viewport);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Unduh data saya (JSON)" }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^data-saya-${demo.student.nim}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const file = JSON.parse(readFileSync((await download.path())!, "utf8"));
    const fresh = (await call<Record<string, unknown>>("GET", "/api/mahasiswa/data-saya", await tokenOf(demo.student))).body;
    expect(Object.keys(file).sort()).toEqual(Object.keys(fresh).sort());
    for (const key of ["profil", "foto_url", "skrining", "mood", "jurnal", "catatan", "dibatasi_sejak"]) expect({ key, value: file[key] }).toEqual({ key, value: fresh[key] });
    expect(file.skrining[0].input_jawaban.S1).toBe(3);
    await closePage(page);
  });
});

test("Data saya of a student with nothing yet: every section says so", async () => {
  const page = await openPage(browser, served, "phone");
  await page.goto("/data-saya");
  await signInOnly(page, { username: "2401010", password: "demo-mhs-10" });
  await accept(page).click();
  await heading(page, "Data saya").waitFor();
  for (const empty of ["Belum ada skrining.", "Belum ada mood yang dicatat.", "Belum ada jurnal.", "Belum ada catatan dari dosen.", "Belum ada orang lain yang membuka data Anda."]) {
    await page.getByText(empty).waitFor();
  }
  await checkPage(page, "data-saya-kosong", "phone");
  await closePage(page);
});
