import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, checkPage, closePage, demo, launchBrowser, openMenu, openPage, serveExecutable, signIn, type Served, type SizeName } from "./support";

// What the pages tell a student about who reads their data, checked against what the
// service lets others read; and Data saya's account of who did: per person per day, in
// plain words, short on a phone, with notes signed by their lecturer's name.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable({ SKRINING_STUDENT_WRITES: "1000" });
  browser = await launchBrowser();

  const andi = await tokenOf(demo.student);
  const notice = await call<{ version: string }>("GET", "/api/privasi/pemberitahuan", andi);
  expect((await call("POST", "/api/privasi/pemberitahuan/setuju", andi, { version: notice.body.version })).status).toBe(201);
  expect((await call("POST", "/api/mahasiswa/mood", andi, { date: "2026-11-02", mood_value: 4 })).status).toBe(201);
  expect((await call("POST", "/api/mahasiswa/diary", andi, { date: "2026-11-03", title: "Minggu ujian", content: "Belajar bersama teman." })).status).toBe(201);
  // A screening that opens a case; the advisor and an admin then go through Andi's data
  // as ten minutes of staff work would: 35 reads and writes.
  const admin = await tokenOf(demo.admin);
  expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: demo.student.nim, jawaban: answers(4, "low") })).status).toBe(201);
  const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
  const caseId = cases.body.data.find((each) => each.NIM === demo.student.nim)!.id;
  const rina = await tokenOf(demo.lecturer);
  const nim = demo.student.nim;
  const reads: [string, string, number][] = [
    [rina, "/api/dosen/mahasiswa", 3],
    [rina, `/api/dosen/mahasiswa/${nim}`, 4],
    [rina, `/api/mahasiswa/hasil/${nim}`, 3],
    [rina, `/api/mahasiswa/mood/${nim}`, 3],
    [rina, `/api/mahasiswa/diary/${nim}`, 3],
    [rina, `/api/mahasiswa/profil/data/${nim}`, 2],
    [rina, `/api/dosen/catatan/${nim}`, 2],
    [rina, `/api/dosen/tindak-lanjut/${caseId}`, 3],
    [admin, "/api/dosen/tindak-lanjut?per_page=100", 2],
    [admin, `/api/dosen/tindak-lanjut/${caseId}`, 4],
    [admin, `/api/mahasiswa/history?nim=${nim}`, 2],
  ];
  for (const [token, path, times] of reads) {
    // One at a time, a moment apart: each is its own row of the trail, as over ten minutes.
    for (let time = 0; time < times; time++) {
      const answer = await call<unknown[]>("GET", path, token);
      expect(answer.status).toBe(200);
      // What the pages say below, as the service answers the advisor: the moods, and of the diary none (the entry is not shared).
      if (path.startsWith("/api/mahasiswa/mood/")) expect(answer.body).toHaveLength(1);
      if (path.startsWith("/api/mahasiswa/diary/")) expect(answer.body).toEqual([]);
      await Bun.sleep(30);
    }
  }
  expect((await call("POST", "/api/dosen/catatan", rina, { NIM: nim, isi_catatan: "Mari bertemu hari Kamis." })).status).toBe(201);
  // A note an admin writes in the name of a lecturer who is not Andi's advisor.
  expect((await call("POST", "/api/dosen/catatan", admin, { NIM: nim, NIP: demo.otherLecturer.nip, isi_catatan: "Dari bagian konseling." })).status).toBe(201);
  // The trail notes reads a moment later: wait until Data saya has them all.
  for (let attempt = 0; ; attempt++) {
    const data = await call<{ dilihat_oleh: { kali: number }[] }>("GET", "/api/mahasiswa/data-saya", andi);
    if (data.body.dilihat_oleh.reduce((sum, each) => sum + each.kali, 0) >= 33) break;
    if (attempt > 50) throw new Error("the audit trail did not note the reads");
    await Bun.sleep(100);
  }
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

/** Whose data a page says the advisor, the handler of an open case and the admins read. */
const readersSaid = /dapat dibaca oleh dosen wali Anda, oleh dosen yang menangani tindak lanjut Anda selama tindak lanjut itu masih terbuka, dan oleh admin fakultas\./;

async function goTo(page: Page, link: string): Promise<void> {
  await openMenu(page);
  // A menu entry may carry a count ("Catatan dosen (1 belum dibaca)").
  await page.getByRole("navigation", { name: "Navigasi utama" }).getByRole("link", { name: new RegExp(`^${link}( \\(.+\\))?$`) }).click();
  await heading(page, link).waitFor();
}

describe.each(["narrow", "desktop"] as SizeName[])("at %s size", (size) => {
  test("the diary, moods, notes and photo say who else reads them, as the service lets them", async () => {
    // What the pages claim is what the service does: the advisor read the diary and the moods above (200).
    const page = await openPage(browser, served, size);
    await page.goto("/");
    await signIn(page, demo.student);
    await heading(page, "Beranda").waitFor();
    await goTo(page, "Jurnal");
    const shown = () => page.evaluate(() => document.querySelector("main")!.innerText);
    // Decisions §19: the diary is the student's own unless an entry is shared, as the service answers the advisor.
    await page.getByText(/Entri yang Anda tandai “Bagikan ke dosen wali” dapat dibaca oleh dosen wali Anda, Dr\. Rina Kartika, oleh dosen yang menangani tindak lanjut Anda/).waitFor();
    expect(await shown()).toMatch(/Entri lainnya tidak ditampilkan kepada dosen maupun admin; entri itu hanya ikut dalam salinan lengkap data Anda/);
    await checkPage(page, "jurnal-pembaca", size);
    await goTo(page, "Mood");
    await page.getByText(/dosen wali Anda, Dr\. Rina Kartika melihat mood 30 hari terakhir Anda sebagai grafik di halaman mahasiswanya; dosen yang menangani tindak lanjut Anda melihatnya selama tindak lanjut itu masih terbuka; admin fakultas juga dapat membukanya\./).waitFor();

    await goTo(page, "Catatan dosen");
    expect(await shown()).toMatch(readersSaid);
    // Decisions §19: a note's author keeps reading it and its reply (GET /api/dosen/catatan/<nim> answers them their own notes).
    expect(await shown()).toMatch(/Dosen yang menulis sebuah catatan tetap dapat membaca catatan itu dan balasan Anda, juga setelah ia bukan lagi dosen wali/);
    await goTo(page, "Profil");
    await page.getByText(/Foto profil dapat dibuka tanpa masuk oleh siapa pun di jaringan kampus yang mengetahui NIM Anda/).waitFor();
    await closePage(page);
  });
});

test("the privacy notice shipped by default names the handler of an open case and the shared diary entries, in a new version", async () => {
  const page = await openPage(browser, served, "narrow");
  await page.goto("/aktivasi");
  await page.getByText("Versi 2026-4", { exact: true }).waitFor();
  const notice = await page.evaluate(() => document.querySelector("main")!.innerText);
  expect(notice).toContain("Dosen wali Anda melihat profil, hasil skrining, mood dan catatan konseling Anda, serta entri jurnal yang Anda tandai “Bagikan ke dosen wali”");
  expect(notice).toContain("dosen yang menangani tindak lanjut itu melihat data yang sama selama tindak lanjut masih terbuka");
  expect(notice).toContain("tetap dapat membaca catatan yang ditulisnya beserta balasan Anda");
  expect(notice).toContain("permintaan Anda agar dosen menghubungi Anda beserta pesannya");
  expect(notice).toContain("Foto profil dapat dibuka tanpa masuk");
  await closePage(page);
});

describe.each(["narrow", "desktop"] as SizeName[])("Data saya at %s size", (size) => {
  test("who opened the data: one card per person per day in plain words, the times folded away; notes signed by name", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/data-saya");
    await signIn(page, demo.student);
    await heading(page, "Data saya").waitFor();
    // The page does not hold everything: it says what it leaves out.
    await page.getByText(/Catatan penanganan tindak lanjut yang ditulis staf tidak ada di halaman ini/).waitFor();
    const accesses = page.getByRole("list", { name: /akses oleh orang lain, per orang per hari/ });
    await accesses.waitFor();
    // Two people on one day: two cards.
    expect(await accesses.locator(":scope > li").count()).toBe(2);
    const card = (who: string) => accesses.locator(":scope > li").filter({ has: page.getByText(new RegExp(`^${RegExp.escape(who)}, \\S+, \\d+ \\S+ \\d{4}:$`)) });
    const rina = card(`${demo.lecturer.nama} (dosen)`);
    for (const words of [
      "melihat hasil skrining Anda, 3 kali",
      "melihat mood Anda, 3 kali",
      "membaca jurnal Anda, 3 kali",
      "membuka halaman data Anda (profil, skrining, catatan), 4 kali",
      "melihat nama Anda di daftar mahasiswa bimbingan, 3 kali",
      "membuka tindak lanjut hasil skrining Anda, 3 kali",
      "menulis catatan konseling untuk Anda",
    ]) {
      await rina.getByText(words, { exact: true }).waitFor();
    }
    // The admin has no name on record: the role says who.
    await card("Seorang admin").getByText("membuka tindak lanjut hasil skrining Anda, 4 kali", { exact: true }).waitFor();
    // No route is shown to the student, and the list stays short on a phone (35 accesses, one by one, took 8,444 px).
    const section = page.locator("section").filter({ has: heading(page, "Siapa yang membuka data Anda", 2) });
    expect(await section.innerText()).not.toMatch(/\/api\/|GET |POST /);
    const height = (await section.boundingBox())!.height;
    expect(height).toBeLessThan(size === "narrow" ? 1300 : 850);
    await checkPage(page, "data-saya-akses", size);

    // The times, unfolded.
    await rina.getByText(/^Waktu tiap akses \(\d+\)$/).click();
    await rina.getByText(/^\d{2}\.\d{2}: melihat hasil skrining Anda/).first().waitFor();
    await checkPage(page, "data-saya-akses-waktu", size);

    // Notes are signed with their lecturer's name, here and on the notes page.
    await heading(page, new RegExp(`^Dari ${RegExp.escape(demo.lecturer.nama)}, \\d+ \\S+ \\d{4}$`), 3).waitFor();
    await heading(page, new RegExp(`^Dari ${RegExp.escape(demo.otherLecturer.nama)}, \\d+ \\S+ \\d{4}$`), 3).waitFor();
    expect(await page.getByText("Dari dosen dengan NIP").count()).toBe(0);
    await goTo(page, "Catatan dosen");
    await heading(page, new RegExp(`^Dari ${RegExp.escape(demo.otherLecturer.nama)}, `), 2).waitFor();
    await closePage(page);
  });
});
