import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { checkPage, closePage, launchBrowser, openPage, serveExecutable, signIn, type Served, type SizeName } from "./support";

// Without a connection the app still opens: the service worker keeps this build's page and
// assets, the page says it is offline, the questionnaire's draft stays, and once the
// connection is back the student carries on. A new build's worker replaces the old cache.

let served: Served;
let browser: Browser;

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

/** Each size's student, who has not answered the questionnaire yet. */
const students: Record<"narrow" | "desktop", { username: string; password: string }> = {
  narrow: { username: "2301002", password: "demo-mhs-02" },
  desktop: { username: "2301003", password: "demo-mhs-03" },
};

/** The questionnaire's first step answered, the draft kept, and the page under the service worker. */
async function startQuestionnaire(page: Page, student: { username: string; password: string }): Promise<void> {
  await page.goto("/kuesioner");
  await signIn(page, student);
  await page.getByRole("button", { name: "Mulai mengisi" }).click();
  await heading(page, /^Langkah 1 dari 9/, 2).waitFor();
  for (const item of await page.locator("fieldset.question").all()) await item.locator("input").nth(2).check();
  await page.getByText("8 dari 68 pertanyaan terjawab").waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** How many answers the stored questionnaire draft holds. */
/** The draft's answers, where the tab keeps them (its own storage: the student did not ask to be remembered, decisions §15). */
const draftAnswers = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((each) => each.startsWith("skrining.draft.kuesioner."));
    return key ? Object.keys(JSON.parse(sessionStorage.getItem(key)!).answers).length : 0;
  });

describe.each(["narrow", "desktop"] as SizeName[])("at %s size", (size) => {
  test("a reload offline opens the app with an offline banner and the draft; back online, the questionnaire carries on", async () => {
    const page = await openPage(browser, served, size, { serviceWorker: true });
    await startQuestionnaire(page, students[size as "narrow" | "desktop"]);

    await page.context().setOffline(true);
    const banner = page.getByRole("status").filter({ hasText: "Anda sedang offline" });
    await banner.waitFor();
    await page.reload();
    await heading(page, "Sedang offline").waitFor();
    await banner.waitFor();
    await page.getByText("Jawaban kuesioner Anda yang belum terkirim (8 pertanyaan) tetap tersimpan di perangkat ini.").waitFor();
    expect(await draftAnswers(page)).toBe(8);
    await checkPage(page, "offline", size);

    await page.context().setOffline(false);
    await heading(page, "Kuesioner").waitFor();
    await page.getByRole("button", { name: "Lanjutkan isian (8 dari 68 terjawab)" }).waitFor();
    expect(await banner.count()).toBe(0);
    await closePage(page);
  });
});

test("the worker's cache holds this build's page and assets, never the API; a new build's worker replaces it", async () => {
  const page = await openPage(browser, served, "desktop", { serviceWorker: true });
  await page.goto("/masuk");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cached = () =>
    page.evaluate(async () => Promise.all((await caches.keys()).map(async (name) => ({ name, paths: (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname) }))));
  const [current] = await cached();
  expect(current!.name).toMatch(/^skrining-[0-9a-f]{10}$/);
  const script = await page.evaluate(() => new URL(document.querySelector<HTMLScriptElement>("script[src]")!.src).pathname);
  expect(current!.paths).toContain("/");
  expect(current!.paths).toContain(script);
  expect(current!.paths.filter((path) => path.startsWith("/api/"))).toEqual([]);

  // A newer build serves a worker with another cache name: it installs, takes over and deletes the old cache.
  const worker = await (await fetch(`${served.base}/sw.js`)).text();
  const newer = "skrining-ffffffffff";
  await page.context().route("**/sw.js", (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: worker.replaceAll(current!.name, newer) }));
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
  await page.waitForFunction(async (name) => (await caches.keys()).join() === name, newer);
  await closePage(page);
});

// Last: it stops the server.
test("with the server gone the app still opens from the worker's cache and says that skrining cannot be reached", async () => {
  const page = await openPage(browser, served, "narrow", { serviceWorker: true });
  await startQuestionnaire(page, { username: "2301001", password: "demo-mhs-01" });
  await served.stop();
  await page.reload();
  await heading(page, "Sedang offline").waitFor();
  await page.getByRole("status").filter({ hasText: "Anda sedang offline" }).waitFor();
  expect(await draftAnswers(page)).toBe(8);
  await closePage(page);
});
