import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, signIn, type Served, type SizeName } from "./support";

// The statistics read at a glance: every level's bar says its level and its numbers, a
// colour means the same in every chart (how worrying the level is) and says so in words,
// and the twelve weeks are a chart on a count axis with a sentence, the tables folded away.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  // Five screenings of dosen.rina's advisees this week. Latest: Andi and Rizky stress Tinggi
  // with motivation Rendah, Siti stress Rendah with motivation Tinggi, Fajar Sedang and Sedang.
  const admin = await tokenOf(demo.admin);
  for (const [nim, stress, motivation] of [
    [demo.student.nim, 2, "mid"],
    [demo.student.nim, 4, "low"],
    [demo.otherStudent.nim, 1, "high"],
    ["2301003", 4, "low"],
    ["2301005", 3, "mid"],
  ] as const) {
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(stress, motivation) })).status).toBe(201);
  }
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** A chart's section by its heading. */
const section = (page: Page, heading: string) => page.locator("section").filter({ has: page.getByRole("heading", { name: heading, exact: true }) });

/** The words drawn in a section's chart, and the fill of each bar, in order. */
const chartOf = (page: Page, heading: string) =>
  section(page, heading)
    .locator("svg.chart")
    .evaluate((svg) => ({
      words: [...svg.querySelectorAll("text")].map((text) => text.textContent),
      fills: [...svg.querySelectorAll("rect.bar")].map((bar) => getComputedStyle(bar).fill),
    }));

describe.each(["narrow", "desktop"] as SizeName[])("at %s size", (size) => {
  test("labelled level bars with their numbers, one meaning per colour, the weeks at a glance", async () => {
    const page = await openPage(browser, served, size);
    await page.goto("/dosen/statistik");
    await signIn(page, demo.lecturer);
    await page.locator("dl.stat-totals").waitFor();
    await page.waitForLoadState("networkidle");

    // Each bar with its level and its count and share (of the four screened students).
    const stress = await chartOf(page, "Tingkat stres");
    expect(stress.words).toEqual(["Rendah", "1 · 25%", "Sedang", "1 · 25%", "Tinggi", "2 · 50%"]);
    const motivation = await chartOf(page, "Tingkat motivasi");
    expect(motivation.words).toEqual(["Rendah", "2 · 50%", "Sedang", "1 · 25%", "Tinggi", "1 · 25%"]);
    // One meaning per colour: stress Tinggi and motivation Rendah (needing attention) share one,
    // stress Rendah and motivation Tinggi (not worrying) another; the page says which in words.
    const [stressLow, stressMiddle, stressHigh] = stress.fills;
    const [motivationLow, motivationMiddle, motivationHigh] = motivation.fills;
    expect(stressHigh).toBe(motivationLow!);
    expect(stressLow).toBe(motivationHigh!);
    expect(stressMiddle).toBe(motivationMiddle!);
    expect(new Set([stressLow, stressMiddle, stressHigh]).size).toBe(3);
    await page.getByText("hijau tidak mengkhawatirkan, kuning perlu dipantau, merah perlu perhatian (stres Tinggi, motivasi Rendah)", { exact: false }).waitFor();

    // The weeks: a sentence of what they add up to, a legend in words, a count axis; the table folded away.
    const weeks = section(page, "Stres per minggu");
    await weeks.getByText("Dalam 12 minggu terakhir ada 5 skrining; 2 di antaranya stres Tinggi (40%). Minggu terakhir: 5 skrining, 2 stres Tinggi.", { exact: true }).waitFor();
    await section(page, "Motivasi per minggu")
      .getByText("Dalam 12 minggu terakhir ada 5 skrining; 2 di antaranya motivasi Rendah (40%). Minggu terakhir: 5 skrining, 2 motivasi Rendah.", { exact: true })
      .waitFor();
    expect(await weeks.locator(".legend li").allTextContents()).toEqual(["Tinggi: perlu perhatian", "Sedang: perlu dipantau", "Rendah: tidak mengkhawatirkan"]);
    expect(await section(page, "Motivasi per minggu").locator(".legend li").allTextContents()).toEqual(["Rendah: perlu perhatian", "Sedang: perlu dipantau", "Tinggi: tidak mengkhawatirkan"]);
    const weekly = await chartOf(page, "Stres per minggu");
    // The axis 0 to 5 and this week's total above its bar; the bar's worrying part at the bottom, in the worrying colour.
    expect(weekly.words.slice(0, 3)).toEqual(["0", "3", "5"]);
    expect(weekly.words.filter((word) => word === "5")).toHaveLength(2);
    expect(weekly.fills[0]).toBe(stressHigh!);
    const table = page.getByRole("table", { name: "Jumlah skrining per tingkat stres setiap minggu" });
    expect(await table.isVisible()).toBe(false);
    await checkPage(page, "statistik-grafik", size);

    await weeks.getByText("Tabel per minggu: stres", { exact: true }).click();
    expect(await table.locator("tbody tr").count()).toBe(12);
    expect(await table.isVisible()).toBe(true);
    await checkPage(page, "statistik-tabel-minggu", size);
    await closePage(page);
  });
});
