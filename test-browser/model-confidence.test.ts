import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { answers, apiOf, checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, signIn, type Served } from "./support";
import { stressTinggiModel } from "./model-fixture";

// The model's confidence on the lecturer's student page: a screening a model decided shows
// the model's probability of its level; a level the thresholds decided shows none.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

test("a screening a model decided shows the model's confidence beside its level; the thresholds' show none", async () => {
  const folder = mkdtempSync(join(tmpdir(), "skrining-model-"));
  writeFileSync(join(folder, "model.json"), JSON.stringify(stressTinggiModel));
  const added = await served.command(["model", "add", "--type", "stress", "--file", join(folder, "model.json"), "--activate"]);
  rmSync(folder, { recursive: true, force: true });
  expect(added.exitCode).toBe(0);
  const { status } = await call("POST", "/api/mahasiswa/kuesioner", await tokenOf(demo.admin), { NIM: demo.student.nim, jawaban: answers(1, "high") });
  expect(status).toBe(201);

  const page = await openPage(browser, served, "desktop");
  await page.goto(`/dosen/mahasiswa/${demo.student.nim}`);
  await signIn(page, demo.lecturer);
  await page.getByRole("heading", { level: 1, name: demo.student.nama }).waitFor();
  const screening = page.locator(".screening-list > li");
  await screening.getByText(/keyakinan model 70\s?%/).waitFor();
  // Motivation was decided by the thresholds: its score stands alone.
  expect(await screening.getByText(/keyakinan model/).count()).toBe(1);
  await checkPage(page, "detail-keyakinan-model", "desktop");
  await closePage(page);
});
