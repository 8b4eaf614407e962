import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, boxOf, checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, signIn, type Served } from "./support";
import { stressTinggiModel } from "./model-fixture";

// Decisions §20 in the browser, at 360 and 1280 px: staff read a screening's caution in
// words; the admin reads the local validation with its charts on the console's Model page;
// with the safety question on, a student answers it after the 68 items and sees whom to call
// before anything else, and the case asks for a contact today.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

const widths = ["narrow", "desktop"] as const;
type Width = (typeof widths)[number];

const lecturer = { username: "dosen.ukur", password: "dosen-ukur-pass", nip: "D045", nama: "Dr. Ukur Santoso" };
/** Each width's own students: one read with caution, one who answers the safety question. */
const cast: Record<Width, { careless: { nim: string; nama: string }; safety: { username: string; password: string; nim: string; nama: string } }> = {
  narrow: { careless: { nim: "U101", nama: "Mahasiswa Asal Isi" }, safety: { username: "u201", password: "pass-U201", nim: "U201", nama: "Mahasiswa Jujur" } },
  desktop: { careless: { nim: "U102", nama: "Mahasiswa Terburu" }, safety: { username: "u202", password: "pass-U202", nim: "U202", nama: "Mahasiswa Berani" } },
};
/** Students whose cases are closed with a judgement: the validation's outcomes. */
const judged = ["U301", "U302", "U303", "U304"];

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

/** 68 answers without a long run of one value: read as they stand. */
function variedAnswers(): Record<string, number> {
  const jawaban: Record<string, number> = {};
  for (let item = 1; item <= 40; item++) jawaban[`S${item}`] = 1 + (item % 4);
  for (let item = 1; item <= 28; item++) jawaban[`M${item}`] = item % 2 === 0 ? 3 : 5;
  return jawaban;
}

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  const folder = mkdtempSync(join(tmpdir(), "skrining-measures-"));
  const rows = ["role,username,password,nim,nip,nama,nip_doswal,activated", `dosen,${lecturer.username},${lecturer.password},,${lecturer.nip},${lecturer.nama},,true`];
  for (const width of widths) {
    rows.push(`mahasiswa,${cast[width].careless.nim.toLowerCase()},pass-${cast[width].careless.nim},${cast[width].careless.nim},,${cast[width].careless.nama},${lecturer.nip},true`);
    const { safety } = cast[width];
    rows.push(`mahasiswa,${safety.username},${safety.password},${safety.nim},,${safety.nama},${lecturer.nip},true`);
  }
  for (const nim of judged) rows.push(`mahasiswa,${nim.toLowerCase()},pass-${nim},${nim},,Mahasiswa ${nim},${lecturer.nip},true`);
  writeFileSync(join(folder, "daftar.csv"), `${rows.join("\n")}\n`);
  // The calibration has a model to read.
  writeFileSync(join(folder, "model.json"), JSON.stringify(stressTinggiModel));
  expect((await served.command(["accounts", "import", join(folder, "daftar.csv")])).exitCode).toBe(0);
  expect((await served.command(["model", "add", "--type", "stress", "--file", join(folder, "model.json"), "--activate"])).exitCode).toBe(0);
  rmSync(folder, { recursive: true, force: true });

  const admin = await tokenOf(demo.admin);
  // Four outcomes: each screening opens a case (stress 200), closed with the handler's judgement.
  for (const [index, nim] of judged.entries()) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(5, "mid") })).status).toBe(201);
    const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
    const opened = cases.body.data.find((each) => each.NIM === nim)!;
    const closing = { status: "selesai", catatan: "Sudah dibicarakan.", alasan_selesai: "teratasi", perlu_dukungan: index < 3 ? "ya" : "tidak" };
    expect((await call("POST", `/api/dosen/tindak-lanjut/${opened.id}/status`, admin, closing)).status).toBe(200);
  }
  // Careless answers: one value throughout each scale, in 40 seconds.
  for (const width of widths) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: cast[width].careless.nim, jawaban: answers(3, "mid"), durasi_detik: 40 })).status).toBe(201);
  }
  expect((await served.command(["safety", "on", "--contact", "Konselor fakultas", "--phone", "0812 3456 7890"])).exitCode).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe.each(widths)("at %s size", (width) => {
  const { careless, safety } = cast[width];

  test("staff read a careless screening with caution, the reason in words, on the list and the student's page", async () => {
    const page = await openPage(browser, served, width);
    await signIn(page, lecturer);
    await page.goto(`/dosen?q=${careless.nim}`);
    const card = page.locator(".student-list > li").filter({ hasText: careless.nama });
    await card.getByText("Tafsirkan dengan hati-hati").waitFor();
    await checkPage(page, "bimbingan-hati-hati", width);
    await card.getByRole("link", { name: careless.nama }).click();
    await heading(page, careless.nama).waitFor();
    const caution = "Tafsirkan dengan hati-hati: semua butir satu skala dijawab sama dan diisi kurang dari 2 detik per butir.";
    // Under the latest levels, and on the screening in the history.
    expect(await page.getByText(caution).count()).toBe(2);
    await checkPage(page, "detail-hati-hati", width);
    await closePage(page);
  });

  test("the console's Model page: the caveat first, each type's rates as a chart with its tables, the model's calibration", async () => {
    const page = await openPage(browser, served, width);
    await page.goto("/admin/model");
    await signIn(page, demo.admin);
    await heading(page, "Validasi lokal", 2).waitFor();
    const section = page.locator("section[aria-labelledby=validasi-judul]");
    await section.getByText(/^Baca ini dulu:/).waitFor();
    await section.getByText("4 skrining punya hasil: perlu dukungan ya 3, tidak 1.").first().waitFor();
    // The rates: a picture for the eyes, the same numbers in tables for everyone.
    expect(await section.locator("svg.chart-bars").count()).toBe(2);
    expect(await section.locator("svg.chart-bars").first().getAttribute("aria-hidden")).toBe("true");
    await section.getByRole("table", { name: "Aturan skor, Stres: keputusan per tingkat" }).waitFor();
    await section.getByRole("table", { name: /^Model aktif #1 \(uji; 4 skrining yang diklasifikasikannya\), Stres/ }).waitFor();
    // The model said Tinggi with 0.7 each time: the Tinggi row forecasts ya at 70 %, and 3 of 4 were ya.
    await section.getByText("Tingkat Tinggi: skor Brier 0,190 (4 skrining)").waitFor();
    await section.locator("svg.chart-calibration").waitFor();
    const calibration = section.getByRole("table", { name: "Kalibrasi pada tingkat Tinggi, per kelompok prediksi" });
    await calibration.getByRole("row", { name: /60%–80% 4 70% 75%/ }).waitFor();
    await checkPage(page, "konsol-model-validasi", width);
    await closePage(page);
  });

  test("with the safety question on: asked after the 68 items, and an answer of 3 shows whom to call before anything else", async () => {
    const page = await openPage(browser, served, width);
    await signIn(page, safety);
    await heading(page, "Beranda").waitFor();
    // The 68 items answered in an earlier visit (the draft the page keeps), 15 minutes of it.
    const me = await call<{ Id_User: number }>("GET", "/api/auth/me", await tokenOf(safety));
    await page.evaluate(
      ([key, draft]) => sessionStorage.setItem(key, draft),
      [`skrining.draft.kuesioner.${me.body.Id_User}`, JSON.stringify({ answers: variedAnswers(), habits: {}, step: 8, seconds: 900 })] as const,
    );
    await page.goto("/kuesioner");
    await page.getByRole("button", { name: "Lanjutkan isian (68 dari 68 terjawab)" }).click();
    await heading(page, /^Langkah 9 dari 10/, 2).waitFor();
    await page.getByRole("button", { name: "Berikutnya" }).click();
    await heading(page, "Langkah 10 dari 10: Pertanyaan terakhir", 2).waitFor();
    await page.getByText(/Konselor fakultas, 0812 3456 7890/).waitFor();
    // Required like every item.
    await page.getByRole("button", { name: "Kirim jawaban" }).click();
    await page.getByRole("alert").filter({ hasText: "Masih ada 1 pertanyaan yang belum dijawab" }).waitFor();
    await page.getByRole("radio", { name: "3 Kadang-kadang" }).check();
    await checkPage(page, "kuesioner-keselamatan", width);
    const sent = page.waitForRequest((request) => request.url().endsWith("/api/mahasiswa/kuesioner") && request.method() === "POST");
    await page.getByRole("button", { name: "Kirim jawaban" }).click();
    const body = (await sent).postDataJSON() as { jawaban_keselamatan: number; durasi_detik: number; jawaban: Record<string, unknown> };
    expect(body.jawaban_keselamatan).toBe(3);
    expect(body.durasi_detik).toBeGreaterThanOrEqual(900);
    expect(Object.keys(body.jawaban)).not.toContain("keselamatan");

    // Hasil: whom to call comes first, above the word that the answers were sent.
    const help = heading(page, "Anda tidak sendirian: bicarakan hari ini", 2);
    await help.waitFor();
    const call0 = page.getByRole("link", { name: "Telepon Konselor fakultas: 0812 3456 7890" });
    expect(await call0.getAttribute("href")).toBe("tel:081234567890");
    expect((await boxOf(help)).y).toBeLessThan((await boxOf(page.getByText("Jawaban Anda sudah terkirim."))).y);
    await page.getByText("Hasil ini sudah diteruskan kepada dosen wali Anda, yang diminta menindaklanjutinya.").waitFor();
    await checkPage(page, "hasil-keselamatan", width);
    await closePage(page);

    // The advisor's case asks for a contact today.
    const cases = await call<{ data: { NIM: string; alasan: string[]; segera: boolean }[] }>("GET", "/api/dosen/tindak-lanjut", await tokenOf(lecturer));
    expect(cases.body.data.find((each) => each.NIM === safety.nim)).toMatchObject({ alasan: ["butir_kritis"], segera: true });
    const lecturerPage = await openPage(browser, served, width);
    await signIn(lecturerPage, lecturer);
    await lecturerPage.goto("/dosen/tindak-lanjut");
    await lecturerPage.locator(".student-list > li").filter({ hasText: safety.nama }).getByText("Hubungi hari ini").waitFor();
    await checkPage(lecturerPage, "tindak-lanjut-segera", width);
    await closePage(lecturerPage);
  });
});
