import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, signIn, type Served, type SizeName } from "./support";

// The smaller things a first trial found: Enter on a questionnaire choice, words a student
// cannot know (the SDI, "model prediksi"), English in the case timeline, "login" where the
// pages say "masuk", a page of the other role, and an account that is not activated yet.
// (One full stop after a name that ends with one: test-browser/staff.test.ts.)

let served: Served;
let browser: Browser;
let caseId = 0;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  const admin = await tokenOf(demo.admin);
  for (const [stress, motivation] of [[2, "mid"], [4, "low"]] as const) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: demo.student.nim, jawaban: answers(stress, motivation) })).status).toBe(201);
  }
  const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
  caseId = cases.body.data.find((each) => each.NIM === demo.student.nim)!.id;
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

/** Students who have not answered the questionnaire, one per size. */
const starters: Record<"narrow" | "desktop", { username: string; password: string }> = {
  narrow: { username: "2201006", password: "demo-mhs-06" },
  desktop: { username: "2201007", password: "demo-mhs-07" },
};

describe.each(["narrow", "desktop"] as SizeName[])("at %s size", (size) => {
  test("Enter on a questionnaire choice moves on to the next item, then to the step's button; it never sends the step", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/kuesioner");
    await signIn(page, starters[size as "narrow" | "desktop"]);
    await page.getByRole("button", { name: "Mulai mengisi" }).click();
    await heading(page, /^Langkah 1 dari 9/, 2).waitFor();
    await page.locator("#S1-1").focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("Enter");
    // Still the first step, nothing pointed out as missing, the focus at the next item's first choice.
    expect(await focusedId(page)).toBe("S2-1");
    expect(await page.getByRole("alert").count()).toBe(0);
    await heading(page, /^Langkah 1 dari 9/, 2).waitFor();
    // An item already answered is met at its answer.
    await page.locator("#S4-3").check();
    await page.locator("#S3-2").focus();
    await page.keyboard.press("Enter");
    expect(await focusedId(page)).toBe("S4-3");
    // From the step's last item to its button.
    await page.locator("#S8-1").focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Berikutnya");
    expect(await page.getByRole("alert").count()).toBe(0);
    await closePage(page);
  });

  test("a page of the other role says whose it is and leads home; an account not yet activated is offered its activation", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/dosen");
    await signIn(page, demo.student);
    await heading(page, "Halaman ini untuk dosen dan admin").waitFor();
    await page.getByText("Anda masuk dengan akun mahasiswa").waitFor();
    await checkPage(page, "peran-lain-mahasiswa", size);
    await page.getByRole("link", { name: "Ke Beranda" }).click();
    await heading(page, "Beranda").waitFor();
    await closePage(page);

    const lecturer = await openPage(browser, served, size);
    await lecturer.goto("/riwayat");
    await signIn(lecturer, demo.lecturer);
    await heading(lecturer, "Halaman ini untuk mahasiswa").waitFor();
    await checkPage(lecturer, "peran-lain-dosen", size);
    await lecturer.getByRole("link", { name: "Ke halaman utama Anda" }).click();
    // A lecturer's first page (decisions §19).
    await heading(lecturer, "Hari ini").waitFor();
    await closePage(lecturer);

    const newcomer = await openPage(browser, served, size);
    await newcomer.goto("/masuk");
    await newcomer.getByLabel("Username").fill("2301005");
    await newcomer.getByLabel("Password", { exact: true }).fill("demo-mhs-05");
    await newcomer.getByRole("button", { name: "Masuk", exact: true }).click();
    const alert = newcomer.getByRole("alert").filter({ hasText: "Akun belum diaktivasi." });
    await alert.waitFor();
    await checkPage(newcomer, "masuk-belum-aktivasi", size);
    await alert.getByRole("link", { name: "Aktivasi akun sekarang" }).click();
    await heading(newcomer, "Aktivasi akun").waitFor();
    await closePage(newcomer);
  });
});

test("Riwayat explains the SDI and leaves out the prediction model", async () => {
  const page = await openPage(browser, served, "narrow");
  await page.goto("/riwayat");
  await signIn(page, demo.student);
  await heading(page, "Riwayat").waitFor();
  await page.locator("tbody tr").first().waitFor();
  const shown = await page.evaluate(() => document.querySelector("main")!.innerText);
  expect(shown).toContain("SDI (Self-Determination Index) merangkum jawaban motivasi Anda");
  expect(shown).not.toContain("model prediksi");
  expect(shown).not.toMatch(/[^.]\.\.(?!\.)/);
  await checkPage(page, "riwayat-sdi", "narrow");
  await closePage(page);
});

test("the case timeline's opening says why in Indonesian", async () => {
  const page = await openPage(browser, served, "desktop");
  await page.goto(`/dosen/tindak-lanjut/${caseId}`);
  await signIn(page, demo.lecturer);
  await heading(page, "Riwayat tindak lanjut", 2).waitFor();
  await page.getByText(/peringatan dini \(stres Tinggi dengan motivasi Rendah\)/).waitFor();
  expect(await page.evaluate(() => document.body.innerText)).not.toContain("early warning");
  await closePage(page);
});

test("activating an account twice answers in the pages' words: masuk, not login", async () => {
  const page = await openPage(browser, served, "narrow");
  await page.goto("/aktivasi");
  await page.getByLabel("Username").fill(demo.student.username);
  // The initial password, and a new one in every further password field the form has.
  const passwords = await page.locator("form input[type=password]").all();
  for (const [index, field] of passwords.entries()) await field.fill(index === 0 ? demo.student.password : "kata-sandi-baru-2026");
  await page.getByRole("button", { name: /^Aktivasi/ }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toContain("Akun ini sudah diaktivasi sebelumnya. Silakan masuk.");
  expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/login/i);
  await closePage(page);
});
