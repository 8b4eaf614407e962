import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { makeCampusLan, type CampusLan } from "./campus-lan";
import { checkPage, closePage, demo, launchBrowser, openMenu, openPage, serveExecutable, signIn, type ServedTls } from "./support";

// Issue 44, item 11: under `--admin-web local` (the default) an admin signed in at a LAN PC
// saw "Konsol admin" in the menu and console pages whose every form failed, and the refusal
// named http://127.0.0.1 without the port. Here the admin's browser is on the campus LAN (a
// network namespace of the test's own) and the server serves HTTPS at the PC's LAN address.

const lan = makeCampusLan();
const unavailable = typeof lan === "string" ? lan : null;
if (unavailable) console.warn(`test-browser/console-lan.test.ts skipped: ${unavailable}. It needs root, iproute2 and libnss3-tools (.ci/run installs them).`);

let served: ServedTls;
let browser: Browser;

beforeAll(async () => {
  if (unavailable) return;
  const campus = lan as CampusLan;
  served = (await serveExecutable({}, () => [], { host: campus.pcAddress, tls: true })) as ServedTls;
  browser = await launchBrowser(campus.browserIn(served.authority));
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
  if (!unavailable) (lan as CampusLan).remove();
});

describe.skipIf(unavailable !== null)("an admin at a LAN PC under --admin-web local", () => {
  test("no Konsol admin in the menu; a console page, reached inside the app or typed, says why and names the console's whole address on the PC", async () => {
    const port = new URL(served.base).port;
    const consoleAddress = `https://127.0.0.1:${port}/admin`;
    const page = await openPage(browser, served, "phone");
    await signIn(page, demo.admin);
    await page.getByRole("heading", { level: 1, name: "Mahasiswa bimbingan" }).waitFor();
    await openMenu(page);
    const menu = page.getByRole("navigation", { name: "Navigasi utama" });
    await menu.getByRole("link", { name: "Tindak lanjut" }).waitFor();
    // The answer of GET /api/admin/konsol has come back once the link is gone.
    await page.waitForFunction(() => ![...document.querySelectorAll("nav a")].some((link) => link.textContent === "Konsol admin"));
    expect(await menu.getByRole("link", { name: "Konsol admin" }).count()).toBe(0);

    // Inside the app (no page load): the console's page says why instead of forms that fail.
    await page.evaluate(() => {
      history.pushState(null, "", "/admin/akun");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await page.getByRole("heading", { level: 1, name: "Konsol admin tidak dapat dibuka" }).waitFor();
    await page.getByText(`Bukalah di PC itu lewat ${consoleAddress},`, { exact: false }).waitFor();
    expect(await page.getByRole("button", { name: "Password sekali pakai" }).count()).toBe(0);
    await checkPage(page, "konsol-tertutup", "phone");

    // Typed in the address bar: the server's own page, with the same address.
    const typed = await page.goto(`${served.base}/admin/akun`);
    expect(typed?.status()).toBe(403);
    await page.getByText(`Bukalah di PC itu lewat ${consoleAddress},`, { exact: false }).waitFor();
    await closePage(page);
  });
});
