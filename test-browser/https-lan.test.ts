import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { makeCampusLan, type CampusLan } from "./campus-lan";
import { checkPage, closePage, demo, expectTouchTargets, launchBrowser, openMenu, openPage, serveExecutable, signIn, type ServedTls } from "./support";

// decisions §18 as a phone on the campus LAN meets it: Chromium in a network namespace of
// the test's own, trusting the faculty's CA (its profile's NSS database), reaching the
// executable over HTTPS at the PC's LAN address, not 127.0.0.1. There the page is a secure
// context: the service worker registers, the app shell reloads offline with the help
// numbers, and comes back by itself once the server answers again. The plain port's
// certificate page and the console's Sertifikat page pass axe at 360 px.

const lan = makeCampusLan();
const unavailable = typeof lan === "string" ? lan : null;
if (unavailable) console.warn(`test-browser/https-lan.test.ts skipped: ${unavailable}. It needs root, iproute2 and libnss3-tools (.ci/run installs them).`);

let served: ServedTls;
let browser: Browser;

beforeAll(async () => {
  if (unavailable) return;
  const campus = lan as CampusLan;
  served = (await serveExecutable({}, () => ["--admin-web", "lan"], { host: campus.pcAddress, tls: true })) as ServedTls;
  browser = await launchBrowser(campus.browserIn(served.authority));
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
  if (!unavailable) (lan as CampusLan).remove();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

describe.skipIf(unavailable !== null)("over HTTPS at the PC's LAN address", () => {
  test("the certificate page on the plain port, at 360 px: the fingerprint, the download, the steps, the QR code of the HTTPS address; it passes axe", async () => {
    const page = await openPage(browser, { ...served, base: served.plainBase }, "narrow");
    await page.goto("/");
    await heading(page, "Buka skrining lewat HTTPS").waitFor();
    const fingerprint = (await served.command(["tls", "status", "--json"])).stdout;
    expect(await page.locator(".fingerprint code").textContent()).toBe(JSON.parse(fingerprint).ca.sidik_jari);
    expect(await page.getByRole("link", { name: "Unduh sertifikat (skrining-ca.crt)" }).getAttribute("href")).toBe("/ca.crt");
    expect(await page.getByRole("link", { name: `Buka ${served.base}/` }).getAttribute("href")).toBe(`${served.base}/`);
    await page.getByRole("img", { name: `Kode QR alamat ${served.base}/` }).waitFor();
    await checkPage(page, "sertifikat", "narrow");
    await expectTouchTargets(page, "sertifikat");
    // Each platform's steps unfold without a script.
    for (const platform of ["Android", "iPhone dan iPad (iOS/iPadOS)", "Windows", "macOS", "Linux"]) await page.getByText(platform, { exact: true }).click();
    await page.getByText("Pengaturan Kepercayaan Sertifikat").first().waitFor();
    await checkPage(page, "sertifikat-langkah", "narrow");
    // Every page path is the certificate page; the API is refused with where to go.
    await page.goto("/kuesioner");
    await heading(page, "Buka skrining lewat HTTPS").waitFor();
    await closePage(page);
  });

  test("the service worker registers, an offline reload shows the app with the help numbers, and the page comes back by itself when the server returns", async () => {
    const page = await openPage(browser, served, "narrow", { serviceWorker: true });
    await page.goto("/masuk");
    expect(await page.evaluate(() => isSecureContext)).toBe(true);
    await signIn(page, demo.student);
    await heading(page, "Beranda").waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope)).toBe(`${served.base}/`);
    // The help contact is kept for the offline shell once the app has loaded it.
    await page.waitForFunction(() => localStorage.getItem("skrining.bantuan") !== null);

    // The server goes away (the Wi-Fi stays up: the browser hears no "offline" event).
    await served.halt();
    await page.reload();
    await heading(page, "Sedang offline").waitFor();
    await heading(page, "Butuh teman bicara?", 2).waitFor();
    expect(await page.getByRole("link", { name: /SEJIWA, layanan kesehatan jiwa/ }).getAttribute("href")).toBe("tel:119");
    await checkPage(page, "offline-https", "narrow");

    // Back: the page asks the server itself every few seconds and shows the app again.
    await served.resume();
    await heading(page, "Beranda").waitFor({ timeout: 20_000 });
    await closePage(page);
  });

  test("the console's Sertifikat page: the fingerprint, the days left, the QR code; Perbarui sekarang renews while the page is open; it passes axe", async () => {
    const page = await openPage(browser, served, "narrow");
    await page.goto("/masuk");
    await signIn(page, demo.admin);
    await page.goto("/admin/sertifikat");
    await heading(page, "Sertifikat").waitFor();
    const status = JSON.parse((await served.command(["tls", "status", "--json"])).stdout) as { ca: { sidik_jari: string } };
    await page.getByText(status.ca.sidik_jari).waitFor();
    await page.getByText(/hari lagi/).waitFor();
    await page.getByRole("img", { name: `Kode QR alamat ${served.base}/` }).waitFor();
    await checkPage(page, "konsol-sertifikat", "narrow");
    await openMenu(page);

    const before = JSON.parse((await served.command(["tls", "status", "--json"])).stdout) as { sertifikat: { berakhir: string } };
    await page.getByRole("button", { name: "Perbarui sekarang" }).click();
    await page.getByText("Sertifikat server baru dari CA lokal sudah dipakai").waitFor();
    const after = JSON.parse((await served.command(["tls", "status", "--json"])).stdout) as { ca: { sidik_jari: string }; sertifikat: { berakhir: string } };
    expect(after.ca.sidik_jari).toBe(status.ca.sidik_jari);
    expect(after.sertifikat.berakhir >= before.sertifikat.berakhir).toBe(true);
    // The console goes on over the new certificate.
    await page.reload();
    await heading(page, "Sertifikat").waitFor();
    await closePage(page);
  });
});
