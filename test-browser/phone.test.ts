import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import {
  answers,
  apiOf,
  closePage,
  demo,
  expectAccessible,
  expectNoSidewaysScroll,
  expectScrollableTablesSaySo,
  expectTouchTargets,
  launchBrowser,
  openPage,
  pageSettled,
  serveExecutable,
  signIn,
  type Served,
  type SizeName,
} from "./support";

// Every page on the narrowest phone the faculty supports (360 px) and on a desktop, with
// data in it: nothing wider than the screen, every control that stands alone at least 44 px
// high, tables wider than a phone saying that they scroll, and the advisee's whole card a link.

let served: Served;
let browser: Browser;
let caseId = 0;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable({ SKRINING_STUDENT_WRITES: "1000" });
  browser = await launchBrowser();
  // Andi's stress jumps to Tinggi with motivation Rendah (a case opens); Rizky's case too.
  const admin = await tokenOf(demo.admin);
  for (const [nim, stress, motivation] of [
    [demo.student.nim, 2, "mid"],
    [demo.student.nim, 4, "low"],
    ["2301003", 4, "low"],
  ] as const) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(stress, motivation) })).status).toBe(201);
  }
  const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
  caseId = cases.body.data.find((each) => each.NIM === demo.student.nim)!.id;
  const rina = await tokenOf(demo.lecturer);
  expect((await call("POST", "/api/dosen/catatan", rina, { NIM: demo.student.nim, isi_catatan: "Mari bertemu hari Kamis." })).status).toBe(201);
  const andi = await tokenOf(demo.student);
  expect((await call("POST", "/api/mahasiswa/mood", andi, { date: "2026-11-02", mood_value: 4 })).status).toBe(201);
  expect((await call("POST", "/api/mahasiswa/diary", andi, { date: "2026-11-03", title: "Minggu ujian", content: "Belajar bersama teman." })).status).toBe(201);
  // Andi's data was read: Data saya has entries to show.
  expect((await call("GET", `/api/dosen/mahasiswa/${demo.student.nim}`, rina)).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** A page as a person meets it: loaded, then every check of this file. */
async function check(page: Page, label: string): Promise<void> {
  await pageSettled(page);
  await expectNoSidewaysScroll(page);
  await expectTouchTargets(page, label);
  await expectScrollableTablesSaySo(page);
  await expectAccessible(page, label);
}

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

const sizesChecked: SizeName[] = ["narrow", "desktop"];

describe.each(sizesChecked)("at %s size", (size) => {
  test("the guest's and the student's pages", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/masuk");
    await check(page, `masuk (${size})`);
    await page.goto("/aktivasi");
    await heading(page, "Aktivasi akun").waitFor();
    await check(page, `aktivasi (${size})`);

    await page.goto("/masuk");
    await signIn(page, demo.student);
    for (const [path, title] of [
      ["/", "Beranda"],
      ["/kuesioner", "Kuesioner"],
      ["/hasil", "Hasil"],
      ["/riwayat", "Riwayat"],
      ["/mood", "Mood"],
      ["/jurnal", "Jurnal"],
      ["/catatan", "Catatan dosen"],
      ["/profil", "Profil"],
      ["/data-saya", "Data saya"],
    ] as const) {
      await page.goto(path);
      await heading(page, title).waitFor();
      await check(page, `${path} (${size})`);
    }
    // The access list's times, unfolded.
    await page.getByText(/^Waktu tiap akses/).first().click();
    await check(page, `/data-saya, times (${size})`);
    await closePage(page);

    // A step of the questionnaire, for a student who has not answered it yet.
    const other = await openPage(browser, served, size);
    await other.goto("/kuesioner");
    await signIn(other, demo.otherStudent);
    await other.getByRole("button", { name: "Mulai mengisi" }).click();
    await heading(other, /^Langkah 1 dari 9/, 2).waitFor();
    await check(other, `/kuesioner step (${size})`);
    await closePage(other);
  });

  test("the lecturer's pages; the whole advisee card leads to the student", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/dosen");
    await signIn(page, demo.lecturer);
    await heading(page, "Mahasiswa bimbingan").waitFor();
    await check(page, `/dosen (${size})`);

    // A tap on the card's corner, far from the name, opens the student.
    const card = page.locator(".student-card").filter({ has: page.getByRole("link", { name: demo.student.nama, exact: true }) });
    await card.scrollIntoViewIfNeeded();
    const box = (await card.boundingBox())!;
    await page.mouse.click(box.x + box.width - 6, box.y + box.height - 6);
    await heading(page, demo.student.nama).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dosen/mahasiswa/${demo.student.nim}`);
    await check(page, `detail mahasiswa (${size})`);

    await page.goto("/dosen/tindak-lanjut");
    await heading(page, "Daftar tindak lanjut", 2).waitFor();
    await check(page, `/dosen/tindak-lanjut (${size})`);
    await page.goto(`/dosen/tindak-lanjut/${caseId}`);
    await heading(page, "Riwayat tindak lanjut", 2).waitFor();
    await check(page, `case (${size})`);
    // The case's levels are wider than a phone: they scroll in their box, and say so.
    if (size === "narrow") expect(await expectScrollableTablesSaySo(page)).toBeGreaterThan(0);

    await page.goto("/dosen/statistik");
    await page.locator("dl.stat-totals").waitFor();
    await check(page, `statistik (${size})`);
    for (const summary of await page.locator("summary").all()) await summary.click();
    await check(page, `statistik, tables unfolded (${size})`);
    await closePage(page);
  });

  test("the admin's figures and a case with its reassignment", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/dosen/tindak-lanjut");
    await signIn(page, demo.admin);
    await heading(page, "Ringkasan fakultas", 2).waitFor();
    await check(page, `admin figures (${size})`);
    if (size === "narrow") expect(await expectScrollableTablesSaySo(page)).toBeGreaterThan(0);
    await page.goto(`/dosen/tindak-lanjut/${caseId}`);
    await heading(page, "Serahkan ke penangan lain", 2).waitFor();
    await check(page, `admin case (${size})`);
    await closePage(page);
  });
});

test("a table that fits its box says nothing about scrolling", async () => {
  const page = await openPage(browser, served, "desktop");
  await page.goto("/dosen/tindak-lanjut");
  await signIn(page, demo.admin);
  await heading(page, "Ringkasan fakultas", 2).waitFor();
  await page.waitForLoadState("networkidle");
  expect(await page.locator(".scroll-hint").count()).toBe(0);
  // Narrowed to a phone, the same page says it.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.locator(".scroll-hint").first().waitFor();
  expect(await expectScrollableTablesSaySo(page)).toBeGreaterThan(0);
  await closePage(page);
});
