import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { jpegWithExif } from "../test/photos/fixtures";
import { boxOf, checkPage, closePage, demo, expectNoSidewaysScroll, launchBrowser, openMenu, openPage, pageSettled, serveExecutable, signIn, viewports, type Served, type ViewportName } from "./support";
import { goTo, heading, signInAs } from "./student-support";

// The student's pages through the executable: the questionnaire (with a reload and a lost
// connection in the middle, and the weekly limit), the result and the history, mood,
// the lecturer's notes, the profile with its photo, the password change, logout.
// Each viewport has its own student, so that each answers the questionnaire once.

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

/**
 * Each viewport's student; the password changes in the last test of each. The phone's
 * student is not activated yet: their journey starts with the activation page.
 */
const accounts: Record<ViewportName, { username: string; password: string; nim: string }> = { phone: { ...demo.notActivated }, desktop: { ...demo.otherStudent } };
/** Stress answers per viewport: 2 × 40 = 80 (Sedang) and 4 × 40 = 160 (Tinggi). */
const stressAnswer: Record<ViewportName, number> = { phone: 2, desktop: 4 };

/** Motivation answers that give SDI = 2·6 + 6 − 4 − 2·1 = 12 (Tinggi). */
function answerOf(key: string, viewport: ViewportName): number {
  if (key.startsWith("S")) return stressAnswer[viewport];
  const item = Number(key.slice(1));
  return item <= 16 ? 6 : item <= 24 ? 4 : 1;
}

/** Answers every item of the step shown. */
async function answerStep(page: Page, viewport: ViewportName): Promise<void> {
  const keys = await page.locator("fieldset.question").evaluateAll((sets) => sets.map((set) => set.querySelector("input")!.name));
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) await page.locator(`input[name="${key}"][value="${answerOf(key, viewport)}"]`).check();
}

describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  test("the questionnaire: the weekly rule before starting, unanswered items pointed out, a reload and a lost connection lose nothing, result, history, then the limit", async () => {
    const page = await openPage(browser, served, viewport);
    if (viewport === "phone") {
      // A new student's first visit: activation under the privacy notice signs them in.
      await page.goto("/aktivasi");
      await page.getByLabel("Username").fill(accounts.phone.username);
      await page.getByLabel("Password awal dari fakultas").fill(accounts.phone.password);
      // Activation replaces the faculty's initial password with the student's own.
      accounts.phone.password = "andi-punya-sendiri-1";
      await page.getByLabel("Password baru", { exact: true }).fill(accounts.phone.password);
      await page.getByLabel("Ulangi password baru").fill(accounts.phone.password);
      await page.getByRole("button", { name: "Aktivasi dan setujui" }).click();
      await heading(page, "Beranda").waitFor();
    } else {
      await signInAs(page, accounts[viewport]);
    }
    await page.getByText("Anda dapat mengisi kuesioner sekarang.").waitFor();
    await page.getByText("Anda belum pernah mengisi kuesioner.").waitFor();
    await checkPage(page, "beranda-baru", viewport);

    // No result yet: a friendly empty state, no error.
    await goTo(page, "Hasil");
    await heading(page, "Belum ada hasil", 2).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    await checkPage(page, "hasil-kosong", viewport);

    await page.getByRole("link", { name: "Isi kuesioner" }).click();
    await heading(page, "Kuesioner").waitFor();
    await page.getByText("Kuesioner dapat diisi sekali dalam 7 hari.").waitFor();
    await page.getByText("68 pertanyaan dalam 9 langkah").waitFor();
    await checkPage(page, "kuesioner-awal", viewport);
    await page.getByRole("button", { name: "Mulai mengisi" }).click();
    await heading(page, /^Langkah 1 dari 9/, 2).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Langkah 1 dari 9/);

    // Moving on with nothing answered lists the missing items and takes the focus there.
    await page.getByRole("button", { name: "Berikutnya" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "Masih ada 8 pertanyaan yang belum dijawab" });
    await summary.waitFor();
    expect(await page.evaluate(() => document.activeElement?.classList.contains("missing-summary"))).toBe(true);
    await heading(page, /^Langkah 1 dari 9/, 2).waitFor();
    await checkPage(page, "kuesioner", viewport);
    if (viewport === "phone") {
      // The narrowest phone the faculty supports, on the page with the most in one row.
      await page.setViewportSize({ width: 360, height: 740 });
      await expectNoSidewaysScroll(page);
      await page.setViewportSize(viewports.phone);
    }
    // By keyboard: the link leads to the item's first choice, Space chooses it.
    await summary.getByRole("link", { name: "Pertanyaan 1", exact: true }).focus();
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("S1-1");
    await page.keyboard.press("Space");
    expect(await page.locator("#S1-1").isChecked()).toBe(true);
    expect(await page.locator(".missing-summary").textContent()).toContain("Masih ada 7 pertanyaan");

    for (let step = 1; step <= 4; step++) {
      await heading(page, new RegExp(`^Langkah ${step} dari 9`), 2).waitFor();
      await answerStep(page, viewport);
      await page.getByRole("button", { name: "Berikutnya" }).click();
    }
    await heading(page, /^Langkah 5 dari 9: Stres akademik/, 2).waitFor();
    await page.getByText("32 dari 68 pertanyaan terjawab").waitFor();

    // A reload in the middle: the draft is still there and continues where it was.
    await page.reload();
    await heading(page, "Kuesioner").waitFor();
    await page.getByRole("button", { name: "Lanjutkan isian (32 dari 68 terjawab)" }).click();
    await heading(page, /^Langkah 5 dari 9/, 2).waitFor();
    await page.getByRole("button", { name: "Sebelumnya" }).click();
    await heading(page, /^Langkah 4 dari 9/, 2).waitFor();
    expect(await page.locator(`input[name="S32"][value="${stressAnswer[viewport]}"]`).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Berikutnya" }).click();

    for (let step = 5; step <= 9; step++) {
      const title = await heading(page, new RegExp(`^Langkah ${step} dari 9`), 2).textContent();
      expect(title).toContain(step <= 5 ? "Stres akademik" : "Motivasi belajar");
      await answerStep(page, viewport);
      if (step < 9) await page.getByRole("button", { name: "Berikutnya" }).click();
    }
    await page.getByLabel("Seberapa sering Anda berolahraga?").selectOption("1-3 kali");
    await page.getByLabel("Berapa lama Anda biasanya tidur dalam semalam?").selectOption("6-7 Jam");
    await page.getByText("68 dari 68 pertanyaan terjawab").waitFor();

    // A second tab opened from this one (it gets a copy of the tab's storage, as "open in a
    // new tab" does) continues the same draft (it is sent later, below).
    const [otherTab] = await Promise.all([page.context().waitForEvent("page"), page.evaluate(() => void window.open("/kuesioner"))]);
    otherTab.on("pageerror", (error) => {
      throw error;
    });
    await otherTab.getByRole("button", { name: "Lanjutkan isian (68 dari 68 terjawab)" }).click();
    await heading(otherTab, /^Langkah 9 dari 9/, 2).waitFor();

    // The connection is lost while sending: the page says so and every answer stays.
    await page.route("**/api/mahasiswa/kuesioner", (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: "Kirim jawaban" }).click();
    await page.getByRole("alert").filter({ hasText: "Tidak dapat menghubungi server" }).waitFor();
    expect(await page.locator(`input[name="M28"][value="1"]`).isChecked()).toBe(true);
    expect(await page.getByLabel("Seberapa sering Anda berolahraga?").inputValue()).toBe("1-3 kali");
    await page.unroute("**/api/mahasiswa/kuesioner");

    await page.getByRole("button", { name: "Kirim jawaban" }).click();
    await page.waitForURL("**/hasil?baru=1");
    await heading(page, "Hasil").waitFor();
    await page.getByText("Jawaban Anda sudah terkirim.").waitFor();
    const stressScore = stressAnswer[viewport] * 40;
    await page.getByText(`Skor stres: ${stressScore} `).waitFor();
    await page.getByText("Indeks motivasi (SDI): 12 ").waitFor();
    const stressLevel = viewport === "phone" ? "Sedang" : "Tinggi";
    expect(await page.locator("#hasil-stres + .level-large").textContent()).toBe(stressLevel);
    expect(await page.locator("#hasil-motivasi + .level-large").textContent()).toBe("Tinggi");
    expect(await page.locator(".disclaimer").textContent()).toStartWith("Ini hasil skrining, bukan diagnosis.");
    await heading(page, "Saran untuk Anda", 2).waitFor();
    expect(await page.locator(".suggestions li").count()).toBeGreaterThanOrEqual(4);
    await heading(page, "Butuh teman bicara?", 2).waitFor();
    await page.getByRole("link", { name: "Telepon SEJIWA, layanan kesehatan jiwa: 119" }).waitFor();
    if (stressLevel === "Tinggi") {
      // 160 reaches a person (decisions §13): help comes first, and the student is told the advisor was alerted.
      expect(await page.locator(".help p").count()).toBe(3);
      const [help, levels] = [await boxOf(page.locator(".help")), await boxOf(page.locator("#hasil-stres"))];
      expect(help.y).toBeLessThan(levels.y);
      await page.getByText("Hasil ini sudah diteruskan kepada dosen wali Anda, yang diminta menindaklanjutinya.").waitFor();
    } else {
      expect(await page.locator(".help p").count()).toBe(2);
      expect(await page.locator(".reach").count()).toBe(0);
    }
    await checkPage(page, "hasil", viewport);
    // The draft is gone once the answers are in.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("skrining.draft.kuesioner")))).toEqual([]);

    // The other tab still has every answer; sending again meets the weekly limit, said in the server's words.
    await otherTab.getByRole("button", { name: "Kirim jawaban" }).click();
    const limit = otherTab.getByRole("alert").filter({ hasText: "Batasan mingguan" });
    await limit.waitFor();
    expect(await limit.textContent()).toContain("Anda sudah mengisi kuesioner dalam 7 hari terakhir. Silakan isi kembali dalam 7 hari.");
    expect(await otherTab.locator(`input[name="M28"][value="1"]`).isChecked()).toBe(true);
    await otherTab.close();

    await page.getByRole("link", { name: "Lihat riwayat skrining" }).click();
    await heading(page, "Riwayat").waitFor();
    await page.locator("tbody tr").first().waitFor();
    expect(await page.locator("svg.chart").count()).toBe(2);
    const row = page.locator("tbody tr").first();
    expect(await row.locator("td").first().textContent()).toBe(`${stressLevel} skor ${stressScore}`);
    expect(await row.locator("td").last().textContent()).toBe("Tinggi SDI 12");
    await checkPage(page, "riwayat", viewport);

    // A second try: the limit is shown before starting, and there is nothing to start.
    await goTo(page, "Kuesioner");
    await page.getByText("Anda sudah mengisi kuesioner dalam 7 hari terakhir. Silakan isi kembali dalam 7 hari.").waitFor();
    expect(await page.getByRole("button", { name: /Mulai mengisi|Lanjutkan isian/ }).count()).toBe(0);
    await checkPage(page, "kuesioner-batas", viewport);

    await goTo(page, "Beranda");
    await page.getByText("Kuesioner dapat diisi lagi dalam 7 hari.").waitFor();
    expect(await page.locator(".level-pair").textContent()).toBe(`Stres: ${stressLevel} Motivasi: Tinggi`);
    await closePage(page);
  });

  test("the lecturer's note: answered, then the answer changed", async () => {
    // The lecturer writes the note through the API, as the advisor's page does.
    const login = await fetch(`${served.base}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: demo.lecturer.username, password: demo.lecturer.password }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const written = await fetch(`${served.base}/api/dosen/catatan`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ NIM: accounts[viewport].nim, isi_catatan: "Bagaimana persiapan ujianmu? Mampir ke ruang saya hari Kamis." }),
    });
    expect(written.status).toBe(201);

    const page = await openPage(browser, served, viewport);
    await signInAs(page, accounts[viewport]);
    await goTo(page, "Catatan dosen");
    const note = page.locator("li.entry").filter({ hasText: "Mampir ke ruang saya" });
    await note.getByRole("heading", { level: 2, name: `Dari ${demo.lecturer.nama}`, exact: false }).waitFor();
    await note.getByText("Belum dibalas").waitFor();
    await note.getByRole("button", { name: "Kirim balasan" }).click();
    await note.getByText("Balasan tidak boleh kosong.").waitFor();
    await note.getByLabel("Balasan Anda").fill("Baik, Bu. Saya datang Kamis.");
    await note.getByRole("button", { name: "Kirim balasan" }).click();
    await page.getByRole("status").filter({ hasText: "Balasan berhasil dikirim." }).waitFor();
    await note.getByText("Sudah dibalas").waitFor();
    await checkPage(page, "catatan", viewport);

    await note.getByRole("button", { name: "Ubah balasan" }).click();
    // The field opens with the reply in it and takes the focus.
    await page.waitForFunction(() => document.activeElement instanceof HTMLTextAreaElement && document.activeElement.value === "Baik, Bu. Saya datang Kamis.");
    await note.getByLabel("Balasan Anda").fill("Baik, Bu. Saya datang Kamis pukul 10.");
    await note.getByRole("button", { name: "Simpan balasan" }).click();
    await page.getByRole("status").filter({ hasText: "Balasan berhasil diperbarui." }).waitFor();
    await note.getByText("Saya datang Kamis pukul 10.").waitFor();
    await closePage(page);
  });

  test("profile: a server error at its field, a saved change; the photo previewed, uploaded, shown and deleted", async () => {
    const page = await openPage(browser, served, viewport);
    await signInAs(page, accounts[viewport]);
    await goTo(page, "Profil");
    await page.getByText(demo.lecturer.nama).waitFor();

    await page.getByLabel("Usia (tahun)").fill("dua puluh");
    await page.getByRole("button", { name: "Simpan profil" }).click();
    await page.getByText("Usia harus berupa angka.").waitFor();
    expect(await page.getByLabel("Usia (tahun)").getAttribute("aria-invalid")).toBe("true");
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "usia");
    await page.getByLabel("Usia (tahun)").fill("21");
    await page.getByLabel("IPK").fill("3,5");
    await page.getByLabel("Jenis kelamin").selectOption("Perempuan");
    await page.getByRole("button", { name: "Simpan profil" }).click();
    await page.getByRole("status").filter({ hasText: "Profil berhasil diperbarui." }).waitFor();

    await page.getByText("Belum ada foto profil.").waitFor();
    await page.getByLabel("Pilih foto").setInputFiles({ name: "foto.jpg", mimeType: "image/jpeg", buffer: Buffer.from(jpegWithExif()) });
    const preview = page.getByRole("img", { name: "Pratinjau foto yang dipilih" });
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toStartWith("blob:");
    await page.waitForFunction(() => (document.querySelector(".preview img") as HTMLImageElement | null)?.naturalWidth === 8);
    await checkPage(page, "profil-pratinjau", viewport);
    // The photo is fetched with the student's token (so the audit trail knows whose read it is) and shown from memory.
    const photoRequest = page.waitForRequest((request) => request.url().includes(`/api/mahasiswa/profil/foto/${accounts[viewport].nim}?v=`));
    await page.getByRole("button", { name: "Unggah foto" }).click();
    await page.getByRole("status").filter({ hasText: "Foto profil berhasil diperbarui." }).waitFor();
    expect((await photoRequest).headers().authorization).toStartWith("Bearer ");
    const photo = page.getByRole("img", { name: "Foto profil Anda" });
    await photo.waitFor();
    expect(await photo.getAttribute("src")).toStartWith("blob:");
    await page.waitForFunction(() => (document.querySelector("img.photo") as HTMLImageElement | null)?.naturalWidth === 8);
    expect(await preview.count()).toBe(0);
    await checkPage(page, "profil", viewport);

    await page.getByRole("button", { name: "Hapus foto" }).click();
    await page.getByRole("group", { name: "Hapus foto profil Anda?" }).getByRole("button", { name: "Ya, hapus" }).click();
    await page.getByRole("status").filter({ hasText: "Foto profil berhasil dihapus." }).waitFor();
    await page.getByText("Belum ada foto profil.").waitFor();
    await closePage(page);
  });

  test("the password: a wrong old one keeps the session; a change ends it, the new one signs in; logout", async () => {
    const page = await openPage(browser, served, viewport);
    await signInAs(page, accounts[viewport]);
    await goTo(page, "Profil");
    const newPassword = `baru-${viewport}-2026`;

    await page.getByLabel("Password lama").fill("bukan-password-lama");
    await page.getByLabel("Password baru", { exact: true }).fill(newPassword);
    await page.getByLabel("Ulangi password baru").fill(`${newPassword}x`);
    await page.getByRole("button", { name: "Ganti password" }).click();
    await page.getByText("Password baru dan ulangannya tidak sama.").waitFor();
    await page.getByLabel("Ulangi password baru").fill(newPassword);
    await page.getByRole("button", { name: "Ganti password" }).click();
    await page.getByRole("alert").filter({ hasText: "Password lama salah." }).waitFor();
    // Still signed in: the wrong old password is no ended session.
    await heading(page, "Profil").waitFor();
    await page.reload();
    await heading(page, "Profil").waitFor();

    await page.getByLabel("Password lama").fill(accounts[viewport].password);
    await page.getByLabel("Password baru", { exact: true }).fill(newPassword);
    await page.getByLabel("Ulangi password baru").fill(newPassword);
    await page.getByRole("button", { name: "Ganti password" }).click();
    await heading(page, "Masuk").waitFor();
    await page.getByText("Password berhasil diganti. Silakan masuk lagi dengan password baru.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/masuk");
    accounts[viewport].password = newPassword;

    await signIn(page, accounts[viewport]);
    await heading(page, "Beranda").waitFor();
    // An unsent diary text is kept in this tab (the student did not ask to be remembered) until the student signs out: a lab PC is shared.
    await goTo(page, "Jurnal");
    await page.getByLabel("Isi", { exact: true }).fill("Belum dikirim");
    const kept = () => page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((key) => key.startsWith("skrining.")).sort());
    await page.waitForFunction(() => Object.keys(sessionStorage).some((key) => key.startsWith("skrining.draft.jurnal.")));
    await openMenu(page);
    await page.getByRole("button", { name: "Keluar" }).click();
    await heading(page, "Masuk").waitFor();
    expect(await kept()).toEqual([]);
    await page.goto("/profil");
    await heading(page, "Masuk").waitFor();
    await closePage(page);
  });
});

test("every student page fits a 360 px screen without sideways scrolling", async () => {
  const page = await openPage(browser, served, "phone");
  await page.setViewportSize({ width: 360, height: 740 });
  await signInAs(page, accounts.phone);
  await expectNoSidewaysScroll(page);
  for (const [link, title] of [
    ["Kuesioner", "Kuesioner"],
    ["Hasil", "Hasil"],
    ["Riwayat", "Riwayat"],
    ["Mood", "Mood"],
    ["Jurnal", "Jurnal"],
    ["Catatan dosen", "Catatan dosen"],
    ["Profil", "Profil"],
    ["Data saya", "Data saya"],
  ] as const) {
    await goTo(page, link, title);
    await pageSettled(page);
    await expectNoSidewaysScroll(page);
  }
  await closePage(page);
});
