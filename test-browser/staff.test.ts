import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pngSized } from "../test/photos/fixtures";
import { answers, apiOf, checkPage, closePage, demo, expectNoSidewaysScroll, launchBrowser, openMenu, openPage, pageSettled, serveExecutable, signIn, viewports, type Served, type ViewportName } from "./support";

// The advisor's pages (and the admin's view of them) through the executable: the advisee
// list with search, order and pages, one student with charts and notes, the statistics.

let served: Served;
let browser: Browser;

/** A lecturer without advisees, for the statistics' empty answer. */
const newLecturer = { username: "dosen.maya", nip: "199003032019032003", nama: "Maya Sari M.Psi." };
/** Sixteen more advisees of dosen.rina (21 in all), so that her list has two pages of 20. */
const extraStudents = Array.from({ length: 16 }, (_, index) => ({ nim: `23091${String(index + 1).padStart(2, "0")}`, nama: `Mahasiswa Contoh ${index + 1}` }));

const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();

  const folder = mkdtempSync(join(tmpdir(), "skrining-staff-"));
  const csv = [
    "role,username,password,nim,nip,nama,jurusan,angkatan,kelas,nip_doswal,ipk,usia,gender,activated",
    `dosen,${newLecturer.username},demo-dosen-3,,${newLecturer.nip},${newLecturer.nama},,,,,,,,true`,
    ...extraStudents.map((student) => `mahasiswa,${student.nim},contoh-mhs-1,${student.nim},,${student.nama},Informatika,2023,TI-D,${demo.lecturer.nip},,,,false`),
  ].join("\n");
  writeFileSync(join(folder, "tambahan.csv"), csv);
  const imported = await served.command(["accounts", "import", join(folder, "tambahan.csv")]);
  rmSync(folder, { recursive: true, force: true });
  expect(imported.exitCode).toBe(0);

  // Screenings through the API as the admin (exempt from the weekly limit): Andi's stress
  // jumps from 80 to 160 (a spike), Rizky is Tinggi with motivation Rendah (an early
  // warning), Siti and Fajar are calm, Dewi has never screened.
  const admin = await tokenOf(demo.admin);
  const seeds: [string, number, "low" | "mid" | "high"][] = [
    [demo.student.nim, 2, "mid"],
    [demo.student.nim, 2, "high"],
    [demo.student.nim, 4, "mid"],
    [demo.otherStudent.nim, 1, "high"],
    ["2301003", 4, "low"],
    ["2301005", 3, "mid"],
  ];
  for (const [nim, stress, motivation] of seeds) {
    const { status } = await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(stress, motivation) });
    expect(status).toBe(201);
  }

  // Siti has a photo (a one-pixel PNG); nobody else does.
  const form = new FormData();
  form.append("foto", new Blob([new Uint8Array(pngSized(1, 1))], { type: "image/png" }), "foto.png");
  const uploaded = await fetch(`${served.base}/api/mahasiswa/profil/foto`, { method: "PUT", headers: { authorization: `Bearer ${await tokenOf(demo.otherStudent)}` }, body: form });
  expect(uploaded.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** The cards of the advisee list, in order. */
const cards = (page: Page) => page.getByRole("list").filter({ has: page.getByRole("heading", { level: 3 }) }).getByRole("listitem");
const card = (page: Page, name: string) => cards(page).filter({ has: page.getByRole("link", { name, exact: true }) });
const query = (page: Page) => new URL(page.url()).searchParams;

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  test("a lecturer's advisees: levels and badges, search by name and NIM, order by risk, pages, all in the URL", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto("/dosen");
    await signIn(page, demo.lecturer);
    await page.getByRole("heading", { level: 1, name: "Mahasiswa bimbingan" }).waitFor();
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();
    await checkPage(page, "bimbingan", viewport);

    expect(await cards(page).count()).toBe(20);
    const andi = card(page, demo.student.nama);
    for (const words of ["Perlu perhatian", "Lonjakan stres", "Stres: Tinggi", "Motivasi: Sedang", "Skrining terakhir"]) await andi.getByText(words).waitFor();
    const rizky = card(page, "Rizky Maulana");
    await rizky.getByText("Perlu perhatian").waitFor();
    expect(await rizky.getByText("Lonjakan stres").count()).toBe(0);
    const siti = card(page, demo.otherStudent.nama);
    await siti.getByText("Stres: Rendah").waitFor();
    await siti.getByText("Motivasi: Tinggi").waitFor();
    // Her stress items all answered 1: no warning, only the caution of decisions §20 (jawaban_seragam).
    expect(await siti.locator(".badge").allTextContents()).toEqual(["Tafsirkan dengan hati-hati: semua butir satu skala dijawab sama"]);
    expect(await siti.locator("img").evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : new Promise((done) => (img.onload = () => done(img.naturalWidth)))))).toBe(1);
    expect(await andi.locator("img").count()).toBe(0);
    await card(page, demo.notActivated.nama).getByText("Belum pernah mengisi kuesioner.").waitFor();

    // Search by name with the keyboard alone: the field, Enter.
    const search = page.getByLabel("Cari mahasiswa");
    await search.focus();
    await page.keyboard.type("siti");
    await page.keyboard.press("Enter");
    await page.getByText("1 mahasiswa cocok dengan “siti”").waitFor();
    expect(query(page).get("q")).toBe("siti");
    // The list may be drawn a moment after the count above it on a loaded machine.
    await cards(page).nth(1).waitFor({ state: "detached" });
    expect(await cards(page).count()).toBe(1);
    await card(page, demo.otherStudent.nama).waitFor();

    // Back shows the whole list again, and the field follows.
    await page.goBack();
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();
    expect(await search.inputValue()).toBe("");

    await search.fill("2301003");
    await page.getByRole("button", { name: "Cari", exact: true }).click();
    await page.getByText("1 mahasiswa cocok dengan “2301003”").waitFor();
    await card(page, "Rizky Maulana").waitFor();
    await search.fill("tidak-ada-yang-begini");
    await search.press("Enter");
    await page.getByText("Tidak ada mahasiswa bimbingan yang cocok dengan “tidak-ada-yang-begini”.").waitFor();
    await page.getByRole("button", { name: "Hapus pencarian" }).click();
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();

    // Early warnings first; the order survives a reload.
    await page.getByLabel("Urutkan").selectOption({ label: "Yang perlu perhatian dahulu" });
    await page.waitForURL(/sort=risk/);
    // By NIM the second card is Siti's, without a warning; by risk it has one.
    await cards(page).nth(1).getByText("Perlu perhatian").waitFor();
    const firstTwo = [await cards(page).nth(0).getByRole("link").textContent(), await cards(page).nth(1).getByRole("link").textContent()];
    expect(firstTwo.sort()).toEqual([demo.student.nama, "Rizky Maulana"]);
    expect(await cards(page).nth(2).getByText("Perlu perhatian").count()).toBe(0);
    await page.reload();
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();
    expect(await page.getByLabel("Urutkan").inputValue()).toBe("risk");
    await page.getByLabel("Urutkan").selectOption({ label: "Menurut NIM" });
    await page.waitForURL((url) => !url.searchParams.has("sort"));

    // The second page: the last advisee by NIM; reading goes on at the list's heading.
    await page.getByRole("navigation", { name: "Halaman daftar mahasiswa" }).getByRole("link", { name: "Berikutnya" }).click();
    await page.getByText("21 mahasiswa · Halaman 2 dari 2").waitFor();
    expect(query(page).get("page")).toBe("2");
    expect(await cards(page).count()).toBe(1);
    await card(page, extraStudents.at(-1)!.nama).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Daftar mahasiswa");
    await page.reload();
    await page.getByText("21 mahasiswa · Halaman 2 dari 2").waitFor();
    await page.getByRole("link", { name: "Sebelumnya" }).click();
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();

    await siti.getByRole("link").click();
    await page.getByRole("img", { name: `Foto ${demo.otherStudent.nama}` }).waitFor();
    await page.goBack();

    // A card leads to the student.
    await andi.getByRole("link").click();
    await page.getByRole("heading", { level: 1, name: demo.student.nama }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dosen/mahasiswa/${demo.student.nim}`);
    await closePage(page);
  });

  test("a student in full: profile, stress and SDI charts with their tables, every screening, the notes", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto(`/dosen/mahasiswa/${demo.student.nim}`);
    await signIn(page, demo.lecturer);
    await page.getByRole("heading", { level: 1, name: demo.student.nama }).waitFor();
    // The heading takes the focus, so that a screen reader says where the user is.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    for (const name of ["Profil", "Perkembangan hasil skrining", "Catatan konseling"]) await page.getByRole("heading", { level: 2, name }).waitFor();
    await page.getByText("TI-A").waitFor();

    expect(await page.locator("svg.chart").count()).toBe(2);
    const stress = page.getByRole("table", { name: "Skor stres per skrining, terlama dahulu" });
    const scores = await stress.locator("tbody td.number").allTextContents();
    expect(scores).toEqual(["80", "80", "160"]);
    expect(await stress.locator("tbody tr").last().getByText("Tinggi").count()).toBe(1);
    const sdi = page.getByRole("table", { name: "Indeks motivasi (SDI) per skrining, terlama dahulu" });
    expect(await sdi.locator("tbody td.number").allTextContents()).toEqual(["0", "18", "0"]);
    await page.getByText("3 kali skrining, terbaru dahulu.").waitFor();
    expect(await page.locator(".screening-list > li").count()).toBe(3);
    await checkPage(page, "detail-mahasiswa", viewport);
    await closePage(page);
  });

  test("a note: an empty one is refused, a lost connection and a 429 keep the text, then it is saved; the student replies on their page and the lecturer sees it", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto(`/dosen/mahasiswa/${demo.student.nim}`);
    await signIn(page, demo.lecturer);
    await page.getByRole("heading", { level: 1, name: demo.student.nama }).waitFor();
    const field = page.getByLabel("Isi catatan");
    const save = page.getByRole("button", { name: "Simpan catatan" });

    await save.click();
    await page.getByText("Tulis isi catatan terlebih dahulu.").waitFor();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);

    const text = `Mari bertemu hari Kamis di ruang dosen untuk membahas jadwal kuliah Anda (${viewport}).`;
    await field.fill(text);
    await page.context().setOffline(true);
    await save.click();
    await page.getByRole("alert").filter({ hasText: "Tidak dapat menghubungi server" }).waitFor();
    expect(await field.inputValue()).toBe(text);
    await page.context().setOffline(false);

    // The server's words and when to retry (a stand-in answer: staff writes are not limited).
    await page.route("**/api/dosen/catatan", (route) =>
      route.fulfill({ status: 429, headers: { "retry-after": "42" }, contentType: "application/json", body: JSON.stringify({ error: "Terlalu banyak permintaan." }) }),
    );
    await save.click();
    await page.getByRole("alert").filter({ hasText: "Terlalu banyak permintaan. Coba lagi dalam 42 detik." }).waitFor();
    expect(await field.inputValue()).toBe(text);
    await page.unroute("**/api/dosen/catatan");

    await save.click();
    await page.getByRole("status").filter({ hasText: "Catatan berhasil disimpan." }).waitFor();
    expect(await field.inputValue()).toBe("");
    const note = page.locator(".note-list > li").filter({ hasText: text });
    await note.getByText("Belum dibalas").waitFor();

    // The student, in a browser of their own, replies on their notes page.
    const reply = `Baik, Bu. Saya datang hari Kamis (${viewport}).`;
    const studentPage = await openPage(browser, served, viewport);
    await studentPage.goto("/catatan");
    await signIn(studentPage, demo.student);
    await studentPage.getByRole("heading", { level: 1, name: "Catatan dosen" }).waitFor();
    const received = studentPage.getByRole("article").filter({ hasText: text });
    await received.getByLabel("Balasan Anda").fill(reply);
    await received.getByRole("button", { name: "Kirim balasan" }).click();
    await received.getByText("Sudah dibalas").waitFor();
    await closePage(studentPage);

    await page.reload();
    await note.getByText("Sudah dibalas").waitFor();
    await note.getByText(reply).waitFor();
    await note.getByText(/^Balasan mahasiswa, /).waitFor();
    await checkPage(page, "detail-catatan", viewport);
    await closePage(page);
  });

  test("statistics: totals, the latest levels and the 12-week trend, each as a chart and a table", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto("/dosen/statistik");
    await signIn(page, demo.lecturer);
    await page.getByRole("heading", { level: 1, name: "Statistik" }).waitFor();
    const totals = page.locator("dl.stat-totals");
    await totals.waitFor();
    expect(await totals.locator("dd").allTextContents()).toEqual(["21", "4", "17"]);

    const stress = page.getByRole("table", { name: "Jumlah mahasiswa per tingkat stres" });
    expect(await stress.locator("tbody tr").allInnerTexts()).toEqual(["Rendah\t1\t25%", "Sedang\t1\t25%", "Tinggi\t2\t50%"]);
    const motivation = page.getByRole("table", { name: "Jumlah mahasiswa per tingkat motivasi" });
    expect(await motivation.locator("tbody tr").allInnerTexts()).toEqual(["Rendah\t1\t25%", "Sedang\t2\t50%", "Tinggi\t1\t25%"]);

    // All six screenings fall in this week, the last of the twelve rows; the tables are folded away under the charts.
    await page.getByText("Tabel per minggu: stres", { exact: true }).click();
    await page.getByText("Tabel per minggu: motivasi", { exact: true }).click();
    const weekly = page.getByRole("table", { name: "Jumlah skrining per tingkat stres setiap minggu" });
    expect(await weekly.locator("tbody tr").count()).toBe(12);
    expect((await weekly.locator("tbody tr").last().locator("td").allTextContents()).map(Number).reduce((sum, value) => sum + value, 0)).toBe(6);
    await page.getByRole("table", { name: "Jumlah skrining per tingkat motivasi setiap minggu" }).waitFor();
    expect(await page.locator("svg.chart").count()).toBe(4);
    await checkPage(page, "statistik", viewport);
    await closePage(page);
  });

  test("an admin picks a lecturer: that lecturer's list, statistics and students, the choice kept in the URL", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto("/dosen");
    await signIn(page, demo.admin);
    await page.getByRole("heading", { level: 1, name: "Mahasiswa bimbingan" }).waitFor();
    await page.getByText("Pilih dosen terlebih dahulu untuk melihat mahasiswa bimbingannya.").waitFor();
    await checkPage(page, "bimbingan-admin-pilih", viewport);

    const picker = page.getByLabel("Pilih dosen");
    await picker.selectOption({ label: `${demo.otherLecturer.nama} (4 mahasiswa)` });
    await page.waitForURL(`**/dosen?nip=${demo.otherLecturer.nip}`);
    await page.getByText("4 mahasiswa · Halaman 1 dari 1").waitFor();
    await card(page, "Putri Ayu").waitFor();
    expect(await card(page, demo.student.nama).count()).toBe(0);

    await picker.selectOption({ label: `${demo.lecturer.nama} (21 mahasiswa)` });
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();
    expect(query(page).get("nip")).toBe(demo.lecturer.nip);
    await checkPage(page, "bimbingan-admin", viewport);

    // The menu's link has no query: the tab's choice is put back into the URL.
    await openMenu(page);
    await page.getByRole("link", { name: "Statistik" }).click();
    await page.getByRole("heading", { level: 1, name: "Statistik" }).waitFor();
    await page.waitForURL(`**/dosen/statistik?nip=${demo.lecturer.nip}`);
    await page.locator("dl.stat-totals").waitFor();
    expect(await page.locator("dl.stat-totals dd").allTextContents()).toEqual(["21", "4", "17"]);
    expect(await page.getByLabel("Pilih dosen").inputValue()).toBe(demo.lecturer.nip);

    // A lecturer without advisees: a friendly word instead of empty charts.
    await page.getByLabel("Pilih dosen").selectOption({ label: `${newLecturer.nama} (0 mahasiswa)` });
    await page.getByText("Belum ada mahasiswa bimbingan, jadi belum ada statistik yang bisa ditampilkan.").waitFor();
    expect(await page.locator("svg.chart").count()).toBe(0);
    await checkPage(page, "statistik-admin-kosong", viewport);

    // The admin writes a note in the chosen lecturer's name.
    await page.goto(`/dosen?nip=${demo.lecturer.nip}`);
    await card(page, "Rizky Maulana").getByRole("link").click();
    await page.getByRole("heading", { level: 1, name: "Rizky Maulana" }).waitFor();
    expect(query(page).get("nip")).toBe(demo.lecturer.nip);
    await page.getByText(`Catatan disimpan atas nama ${demo.lecturer.nama}.`).waitFor();
    const text = `Catatan dari admin atas nama dosen wali (${viewport}).`;
    await page.getByLabel("Isi catatan").fill(text);
    await page.getByRole("button", { name: "Simpan catatan" }).click();
    await page.getByRole("status").filter({ hasText: "Catatan berhasil disimpan." }).waitFor();
    await page.locator(".note-list > li").filter({ hasText: text }).waitFor();
    const admin = await tokenOf(demo.admin);
    const notes = await call<{ isi_catatan: string; NIP: string }[]>("GET", "/api/dosen/catatan/2301003", admin);
    expect(notes.body.find((note) => note.isi_catatan === text)?.NIP).toBe(demo.lecturer.nip);

    // Opened directly, a student's page writes in the name of the student's own advisor,
    // not of the lecturer chosen last for the list.
    await page.goto("/dosen/mahasiswa/2201006");
    await page.getByRole("heading", { level: 1, name: "Putri Ayu" }).waitFor();
    // The name ends with a full stop of its own (`M.Kom.`): the sentence keeps just that one.
    await page.getByText(`Catatan disimpan atas nama ${demo.otherLecturer.nama}`, { exact: true }).waitFor();

    // "— Pilih dosen —" forgets the choice: the prompt again, also after the menu.
    await page.goto("/dosen");
    await page.getByText("21 mahasiswa · Halaman 1 dari 2").waitFor();
    await page.getByLabel("Pilih dosen").selectOption({ label: "— Pilih dosen —" });
    await page.getByText("Pilih dosen terlebih dahulu untuk melihat mahasiswa bimbingannya.").waitFor();
    await openMenu(page);
    await page.getByRole("link", { name: "Statistik" }).click();
    await page.getByText("Pilih dosen terlebih dahulu untuk melihat statistik mahasiswa bimbingannya.").waitFor();
    await closePage(page);
  });
});

test("every lecturer page fits a 360 px screen without sideways scrolling", async () => {
  const page = await openPage(browser, served, "phone");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/dosen");
  await signIn(page, demo.lecturer);
  for (const [path, title] of [
    ["/dosen", "Mahasiswa bimbingan"],
    [`/dosen/mahasiswa/${demo.student.nim}`, demo.student.nama],
    ["/dosen/statistik", "Statistik"],
  ] as const) {
    await page.goto(path);
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    // Every part of the page loaded (the student's page loads its moods and diary on its own).
    await pageSettled(page);
    await expectNoSidewaysScroll(page);
  }
  await closePage(page);
});

test("another lecturer opening a student who is not theirs reads the server's refusal", async () => {
  const page = await openPage(browser, served, "phone");
  await page.goto(`/dosen/mahasiswa/${demo.student.nim}`);
  await signIn(page, demo.otherLecturer);
  await page.getByRole("heading", { level: 1, name: "Detail mahasiswa" }).waitFor();
  await page.getByRole("alert").filter({ hasText: "Mahasiswa bukan bimbingan Anda." }).waitFor();
  // Trying again cannot help with a refusal: no retry button.
  expect(await page.getByRole("button", { name: "Coba lagi" }).count()).toBe(0);
  expect(await page.getByText(demo.student.nama).count()).toBe(0);
  await checkPage(page, "detail-ditolak", "phone");

  // Their own list holds only their advisees.
  await page.getByRole("link", { name: "Kembali ke daftar mahasiswa" }).click();
  await page.getByText("4 mahasiswa · Halaman 1 dari 1").waitFor();
  await closePage(page);
});

test("an admin's note without any lecturer (a student without an advisor) shows the server's 400 text", async () => {
  const page = await openPage(browser, served, "desktop");
  await page.goto("/dosen/mahasiswa/2401010");
  await signIn(page, demo.admin);
  await page.getByRole("heading", { level: 1, name: "Intan Permata" }).waitFor();
  await page.getByText("Mahasiswa ini belum pernah mengisi kuesioner, jadi belum ada grafik dan riwayat.").waitFor();
  await page.getByLabel("Isi catatan").fill("Catatan tanpa dosen.");
  await page.getByRole("button", { name: "Simpan catatan" }).click();
  await page.getByRole("alert").filter({ hasText: "NIP wajib disertakan oleh admin." }).waitFor();
  expect(await page.getByLabel("Isi catatan").inputValue()).toBe("Catatan tanpa dosen.");
  await closePage(page);
});
