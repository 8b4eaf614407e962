import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { checkPage, closePage, demo, launchBrowser, openMenu, openPage, serveExecutable, viewports, type Served, type ViewportName } from "./support";

// The admin console's "Akun" as an admin walks it, at 360 and 1280 px: the list by role and
// state, a roster with bad lines fixed and imported, one new account, a one-time password
// used at the student's next sign-in, and a deactivation.

let served: Served;
let browser: Browser;
let folder: string;

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  folder = mkdtempSync(join(tmpdir(), "skrining-konsol-"));
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** The console at a phone's narrowest width (360 px) or a desktop's. */
export async function openConsole(viewport: ViewportName): Promise<Page> {
  const page = await openPage(browser, served, viewport);
  if (viewport === "phone") await page.setViewportSize({ width: 360, height: 780 });
  return page;
}

const heading = (page: Page, name: string, level = 1) => page.getByRole("heading", { level, name });

/** Signs the admin in on the form the console's address shows. */
async function signInAdmin(page: Page): Promise<void> {
  await page.goto("/admin");
  await heading(page, "Masuk").waitFor();
  await page.getByLabel("Username").fill(demo.admin.username);
  await page.getByLabel("Password", { exact: true }).fill(demo.admin.password);
  await page.getByRole("button", { name: "Masuk", exact: true }).click();
  await heading(page, "Akun").waitFor();
}

/** Each viewport's own accounts, so the two runs do not meet. */
const runs: Record<ViewportName, { reset: { username: string; nama: string }; roster: string[]; added: string; admin: string }> = {
  phone: { reset: { username: "2301003", nama: "Rizky Maulana" }, roster: ["2501101", "2501102"], added: "2501199", admin: "admin-ponsel" },
  desktop: { reset: { username: "2201008", nama: "Nadia Rahma" }, roster: ["2501201", "2501202"], added: "2501299", admin: "admin-meja" },
};

const row = (page: Page, username: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: username, exact: true }) });

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  const run = runs[viewport];

  test("Akun: the list by role and state, a roster with bad lines, one new account; a roster reset and a new admin, each confirmed", async () => {
    const page = await openConsole(viewport);
    await signInAdmin(page);
    expect(new URL(page.url()).pathname).toBe("/admin/akun");
    await page.getByText(/^\d+ akun · Halaman 1 dari 1$/).waitFor();
    await checkPage(page, "admin-akun", viewport);

    // Students not activated yet: a filter in the URL.
    const filters = page.getByRole("search");
    await filters.getByLabel("Peran").selectOption("mahasiswa");
    await filters.getByLabel("Status").selectOption("belum-aktif");
    await page.getByRole("button", { name: "Tampilkan" }).click();
    await page.waitForURL(/peran=mahasiswa/);
    for (const username of ["2301004", "2301005", "2201009"]) await row(page, username).waitFor();
    expect(await row(page, "2301001").count()).toBe(0);

    // A roster with two bad lines: every bad line with its number, and nothing written.
    const [first, second] = run.roster;
    const header = "role,username,password,nim,nama,jurusan,angkatan,nip_doswal,activated";
    const bad = join(folder, `daftar-salah-${viewport}.csv`);
    writeFileSync(bad, [header, `mahasiswa,${first},awal-mhs-baru,${first},Mahasiswa Baru Satu,Informatika,2025,${demo.lecturer.nip},`, `mahasiswa,${second},pendek,${second},Mahasiswa Baru Dua,,2025,,`, `rektor,rektor1,awal-rektor-1,,,,,,`].join("\n"));
    await page.getByLabel("File CSV").setInputFiles(bad);
    await page.getByRole("button", { name: "Pratinjau" }).click();
    const problems = page.getByRole("table", { name: "Baris yang tidak valid" });
    await problems.waitFor();
    await page.getByText("2 baris tidak valid.", { exact: false }).waitFor();
    await problems.getByRole("rowheader", { name: "3", exact: true }).waitFor();
    await problems.getByRole("rowheader", { name: "4", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Impor", exact: true }).count()).toBe(0);
    await checkPage(page, "admin-akun-impor-salah", viewport);

    // Fixed, previewed, imported.
    const good = join(folder, `daftar-${viewport}.csv`);
    writeFileSync(good, [header, `mahasiswa,${first},awal-mhs-baru,${first},Mahasiswa Baru Satu,Informatika,2025,${demo.lecturer.nip},`, `mahasiswa,${second},awal-mhs-baru,${second},Mahasiswa Baru Dua,,2025,,`, `mahasiswa,2301001,,2301001,Andi Pratama,,,,`].join("\n"));
    await page.getByLabel("File CSV").setInputFiles(good);
    await page.getByRole("button", { name: "Pratinjau" }).click();
    await page.getByText("2 akun akan dibuat, 0 diperbarui, 1 tidak berubah.").waitFor();
    const rows = page.getByRole("table", { name: "Yang akan terjadi per baris" });
    expect(await rows.getByRole("row").filter({ hasText: first! }).textContent()).toContain("dibuat");
    await checkPage(page, "admin-akun-impor-pratinjau", viewport);
    await page.getByRole("button", { name: "Impor", exact: true }).click();
    await page.getByText("Impor selesai: 2 akun dibuat, 0 diperbarui, 1 tidak berubah.").waitFor();
    await page.getByRole("button", { name: "Tampilkan" }).click();
    await row(page, first!).waitFor();

    // One account by the form.
    await page.getByLabel("Username", { exact: true }).fill(run.added);
    await page.getByLabel("Password awal").fill("awal-mhs-form");
    await page.getByLabel("NIM", { exact: true }).fill(run.added);
    await page.getByLabel("Nama", { exact: true }).fill("Mahasiswa Dari Formulir");
    await page.getByRole("button", { name: "Tambah akun" }).click();
    await page.getByText(`Akun ${run.added} dibuat, belum aktif`, { exact: false }).waitFor();

    // Decisions §21: the same roster again, its passwords given to the accounts it made: confirmed with the password.
    await page.getByLabel("Akun yang sudah ada juga mendapat password dari file", { exact: false }).check();
    await page.getByRole("button", { name: "Pratinjau" }).click();
    await page.getByText("0 akun akan dibuat, 2 diperbarui, 1 tidak berubah.").waitFor();
    await page.getByRole("button", { name: "Impor", exact: true }).click();
    await page.getByText("Impor daftar ini? 2 akun yang ada mendapat password dari file", { exact: false }).waitFor();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await checkPage(page, "admin-akun-impor-konfirmasi", viewport);
    await page.getByRole("button", { name: "Ya, impor" }).click();
    await page.getByText("Impor selesai: 0 akun dibuat, 2 diperbarui, 1 tidak berubah.").waitFor();

    // A new admin by the form: confirmed with the password too.
    await page.getByLabel("Peran", { exact: true }).last().selectOption("admin");
    await page.getByLabel("Username", { exact: true }).fill(run.admin);
    await page.getByLabel("Password awal").fill("awal-admin-baru");
    await page.getByRole("button", { name: "Tambah akun" }).click();
    await page.getByText(`Buat akun admin ${run.admin}?`, { exact: false }).waitFor();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByRole("button", { name: "Ya, buat akun admin" }).click();
    await page.getByText(`Akun ${run.admin} dibuat, belum aktif`, { exact: false }).waitFor();
    await closePage(page);
  });

  test("Akun: a one-time password, confirmed with the admin's password, used at the student's next sign-in; deactivation and reactivation, each confirmed", async () => {
    const page = await openConsole(viewport);
    await signInAdmin(page);
    await page.getByLabel("Cari").fill(run.reset.username);
    await page.getByRole("button", { name: "Tampilkan" }).click();
    await page.waitForURL(new RegExp(`q=${run.reset.username}`));
    await row(page, run.reset.username).getByRole("button", { name: "Password sekali pakai" }).click();
    await page.getByText(`Buat password sekali pakai untuk ${run.reset.username}?`, { exact: false }).waitFor();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await checkPage(page, "admin-akun-konfirmasi", viewport);
    await page.getByRole("button", { name: "Ya, buat password" }).click();
    const shown = page.locator(".one-time-password");
    await shown.waitFor();
    const oneTime = (await shown.textContent())!.trim();
    expect(oneTime).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await checkPage(page, "admin-akun-password-sekali", viewport);

    // The student signs in with it and must set their own first.
    const student = await openConsole(viewport);
    await student.goto("/masuk");
    await student.getByLabel("Username").fill(run.reset.username);
    await student.getByLabel("Password", { exact: true }).fill(oneTime);
    await student.getByRole("button", { name: "Masuk", exact: true }).click();
    await heading(student, "Ganti password sekali pakai").waitFor();
    await checkPage(student, "ganti-password-sekali", viewport);
    // A reload does not get past it: the password typed at sign-in is then asked again.
    await student.reload();
    await heading(student, "Ganti password sekali pakai").waitFor();
    await student.getByLabel("Password sekali pakai").fill(oneTime);
    await student.getByLabel("Password baru", { exact: true }).fill(oneTime);
    await student.getByLabel("Ulangi password baru").fill(oneTime);
    await student.getByRole("button", { name: "Simpan password baru" }).click();
    await student.getByText("Password baru harus berbeda dari password sekali pakai.").waitFor();
    await student.getByLabel("Password baru", { exact: true }).fill("milik-saya-sendiri");
    await student.getByLabel("Ulangi password baru").fill("milik-saya-sendiri");
    await student.getByRole("button", { name: "Simpan password baru" }).click();
    const notice = heading(student, "Pemberitahuan privasi");
    await Promise.race([notice.waitFor(), heading(student, "Beranda").waitFor()]);
    if (await notice.isVisible()) await student.getByRole("button", { name: "Saya sudah membaca dan menyetujui" }).click();
    await heading(student, "Beranda").waitFor();
    await closePage(student);

    // Deactivation and reactivation: a confirmation serves one act (decisions §21), so each asks for the password again.
    await row(page, run.reset.username).getByRole("button", { name: "Nonaktifkan" }).click();
    await page.getByText(`Nonaktifkan ${run.reset.username}?`, { exact: false }).waitFor();
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByRole("button", { name: "Ya, nonaktifkan" }).click();
    await page.getByText(`Akun ${run.reset.username} dinonaktifkan; semua sesinya berakhir.`).waitFor();
    await row(page, run.reset.username).getByRole("button", { name: "Aktifkan" }).click();
    await page.getByText(`Aktifkan ${run.reset.username}?`, { exact: false }).waitFor();
    expect(await page.getByLabel("Password Anda").inputValue()).toBe("");
    await page.getByLabel("Password Anda").fill(demo.admin.password);
    await page.getByRole("button", { name: "Ya, aktifkan" }).click();
    await page.getByText(`Akun ${run.reset.username} diaktifkan.`).waitFor();

    // The console is in the admin's menu, beside the lecturer pages.
    await openMenu(page);
    await page.getByRole("navigation", { name: "Navigasi utama" }).getByRole("link", { name: "Mahasiswa bimbingan" }).click();
    await heading(page, "Mahasiswa bimbingan").waitFor();
    await openMenu(page);
    await page.getByRole("link", { name: "Konsol admin" }).click();
    await heading(page, "Akun").waitFor();
    await closePage(page);
  });

  test("Akun: every row's actions on screen, also at 360 px (issue 44, item 15); the admin's own row offers no one-time password (item 5)", async () => {
    const page = await openConsole(viewport);
    await signInAdmin(page);
    await page.getByText(/^\d+ akun · Halaman 1 dari 1$/).waitFor();
    const width = page.viewportSize()!.width;
    const buttons = page.getByRole("table", { name: "Akun, urut username" }).getByRole("button");
    expect(await buttons.count()).toBeGreaterThan(5);
    for (const box of await buttons.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect))) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    const own = row(page, demo.admin.username);
    await own.waitFor();
    expect(await own.getByRole("button", { name: "Password sekali pakai" }).count()).toBe(0);
    expect(await own.getByRole("button", { name: "Nonaktifkan" }).count()).toBe(0);
    await closePage(page);
  });
});
