import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { checkPage, closePage, demo, launchBrowser, openPage, serveExecutable, viewports, type Served, type ViewportName } from "./support";
import { goTo, heading, jakartaDate, signInAs } from "./student-support";

// A student's mood log and diary through the executable, at each size with a student of its
// own: today's mood in one tap, dates refused when taken, a lost connection that keeps the text.

let served: Served;
let browser: Browser;
beforeAll(async () => {
  // Every flow writes a lot within a minute; the fair-use limit is not what is tested here.
  served = await serveExecutable({ SKRINING_STUDENT_WRITES: "1000" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const accounts: Record<ViewportName, { username: string; password: string }> = { phone: demo.student, desktop: demo.otherStudent };

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  test("mood: today's in one tap on Beranda, then add, change (a taken date is refused), delete", async () => {
    const page = await openPage(browser, served, viewport);
    await signInAs(page, accounts[viewport]);
    const picker = page.getByRole("group", { name: "Bagaimana perasaan Anda hari ini?" });
    await picker.getByRole("button", { name: "4 Baik" }).click();
    await page.getByRole("status").filter({ hasText: "Mood hari ini tersimpan: Baik." }).waitFor();
    expect(await picker.getByRole("button", { name: "4 Baik" }).getAttribute("aria-pressed")).toBe("true");
    await checkPage(page, "beranda", viewport);
    // Today's value is read back after a reload.
    await page.reload();
    await page.getByText("Mood hari ini: Baik.").waitFor();

    await goTo(page, "Mood");
    const entries = page.locator("li.entry");
    await entries.filter({ hasText: "4 · Baik" }).waitFor();

    // Saving without a value points at the missing choice.
    await page.getByLabel("Tanggal").fill(jakartaDate(-1));
    await page.getByRole("button", { name: "Simpan mood" }).click();
    await page.getByText("Pilih salah satu mood.").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "mood-baru-1");
    await page.getByRole("radio", { name: "2 Buruk" }).check();
    await page.getByRole("button", { name: "Simpan mood" }).click();
    await page.getByRole("status").filter({ hasText: /Mood Buruk untuk .* tersimpan\./ }).waitFor();
    await entries.filter({ hasText: "2 · Buruk" }).waitFor();
    expect(await entries.count()).toBe(2);
    await checkPage(page, "mood", viewport);

    // Change: to a date that has a mood already → the server's 409 text; then only the value.
    const yesterday = entries.filter({ hasText: "2 · Buruk" });
    await yesterday.getByRole("button", { name: /^Ubah mood/ }).click();
    const form = page.locator("form.edit-form");
    await form.getByLabel("Tanggal").fill(jakartaDate(0));
    await form.getByRole("radio", { name: "5 Sangat baik" }).check();
    await form.getByRole("button", { name: "Simpan" }).click();
    await form.getByRole("alert").filter({ hasText: "Mood untuk tanggal itu sudah ada." }).waitFor();
    await form.getByLabel("Tanggal").fill(jakartaDate(-1));
    await form.getByRole("button", { name: "Simpan" }).click();
    await page.getByRole("status").filter({ hasText: /diperbarui/ }).waitFor();
    await entries.filter({ hasText: "5 · Sangat baik" }).waitFor();
    expect(await entries.filter({ hasText: "2 · Buruk" }).count()).toBe(0);

    // Delete, asked in the page: cancelling keeps it, confirming removes it.
    const changed = entries.filter({ hasText: "5 · Sangat baik" });
    await changed.getByRole("button", { name: /^Hapus mood/ }).click();
    const question = changed.getByRole("group", { name: /^Hapus mood .*\?$/ });
    await question.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === "Batal");
    await question.getByRole("button", { name: "Batal" }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label")?.startsWith("Hapus mood"));
    await changed.getByRole("button", { name: /^Hapus mood/ }).click();
    await changed.getByRole("button", { name: "Ya, hapus" }).click();
    await page.getByRole("status").filter({ hasText: /dihapus/ }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll("li.entry").length === 1);
    await closePage(page);
  });

  test("diary: a lost connection keeps the text, also across a reload; write, edit, delete", async () => {
    const page = await openPage(browser, served, viewport);
    await signInAs(page, accounts[viewport]);
    await goTo(page, "Jurnal");
    await page.getByLabel("Judul (boleh kosong)").fill("Minggu ujian");
    await page.getByText("12 dari 200 karakter").waitFor();
    const content = "Hari ini tiga ujian.\n\nBesok istirahat dulu.";
    await page.getByLabel("Isi", { exact: true }).fill(content);

    await page.route("**/api/mahasiswa/diary", (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: "Simpan jurnal" }).click();
    await page.getByRole("alert").filter({ hasText: "Tidak dapat menghubungi server" }).waitFor();
    expect(await page.getByLabel("Isi", { exact: true }).inputValue()).toBe(content);
    await page.unroute("**/api/mahasiswa/diary");

    await page.reload();
    await heading(page, "Jurnal").waitFor();
    expect(await page.getByLabel("Judul (boleh kosong)").inputValue()).toBe("Minggu ujian");
    expect(await page.getByLabel("Isi", { exact: true }).inputValue()).toBe(content);
    await page.getByRole("button", { name: "Simpan jurnal" }).click();
    await page.getByRole("status").filter({ hasText: "Jurnal tersimpan." }).waitFor();
    expect(await page.getByLabel("Isi", { exact: true }).inputValue()).toBe("");
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("skrining.draft.jurnal")))).toEqual([]);
    const entry = page.locator("li.entry").filter({ has: heading(page, "Minggu ujian", 3) });
    expect(await entry.locator(".entry-content").textContent()).toBe(content);

    // Empty content is pointed out before anything is sent.
    await page.getByRole("button", { name: "Simpan jurnal" }).click();
    await page.getByText("Isi jurnal tidak boleh kosong.").waitFor();
    await checkPage(page, "jurnal", viewport);

    await entry.getByRole("button", { name: "Ubah jurnal Minggu ujian" }).click();
    const edit = page.locator("li.entry form");
    expect(await edit.getByLabel("Judul (boleh kosong)").inputValue()).toBe("Minggu ujian");
    await edit.getByLabel("Judul (boleh kosong)").fill("Minggu ujian selesai");
    await edit.getByRole("button", { name: "Simpan perubahan" }).click();
    await page.getByRole("status").filter({ hasText: "Perubahan jurnal tersimpan." }).waitFor();
    const renamed = page.locator("li.entry").filter({ has: heading(page, "Minggu ujian selesai", 3) });
    await renamed.waitFor();

    await renamed.getByRole("button", { name: "Hapus jurnal Minggu ujian selesai" }).click();
    await renamed.getByRole("button", { name: "Ya, hapus" }).click();
    await page.getByRole("status").filter({ hasText: "dihapus" }).waitFor();
    await page.getByText("Belum ada jurnal.").waitFor();
    await closePage(page);
  });
});
