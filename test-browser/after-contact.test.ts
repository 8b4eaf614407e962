import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, boxOf, checkPage, closePage, demo, expectTouchTargets, launchBrowser, openMenu, openPage, serveExecutable, signIn, sizes, type Served } from "./support";

// Decisions §19 in the browser, at 360 and 1280 px: the counsellor's day (she lands on her
// case, writes to the student, closes the case with a reason and reads the reply after);
// a lecturer with 40 advisees reaches the student who replied from his first screen; a
// student asks to be contacted and sees where the request stands; the advisor reads the
// mood chart and a diary entry the student shared.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

const widths = { narrow: "narrow", desktop: "desktop" } as const;
type Width = keyof typeof widths;

/** Each width's own cast, so that the two runs never meet. */
const cast: Record<Width, { counsellor: { username: string; password: string; nip: string; nama: string }; student: { username: string; password: string; nim: string; nama: string }; lecturer: { username: string; password: string; nip: string; nama: string }; prefix: string }> = {
  narrow: {
    counsellor: { username: "konselor.wulan", password: "konselor-pass-1", nip: "K001", nama: "Dra. Wulan Sari" },
    student: { username: "2301002", password: "demo-mhs-02", nim: "2301002", nama: "Siti Aminah" },
    lecturer: { username: "dosen.hadi", password: "dosen-hadi-pass", nip: "D040", nama: "Dr. Hadi Wijaya" },
    prefix: "A",
  },
  desktop: {
    counsellor: { username: "konselor.tono", password: "konselor-pass-2", nip: "K002", nama: "Drs. Tono Hartono" },
    student: { username: "2201008", password: "demo-mhs-08", nim: "2201008", nama: "Nadia Rahma" },
    lecturer: { username: "dosen.sari", password: "dosen-sari-pass", nip: "D041", nama: "Dr. Sari Dewi" },
    prefix: "B",
  },
};

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });
/** The local date in Jakarta `days` ago, as the mood log names days. */
const localDay = (days: number) => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Jakarta" }).format(new Date(Date.now() - days * 24 * 3600 * 1000));

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  // Two counsellors, and two lecturers with forty advisees each (one of whom will reply).
  const folder = mkdtempSync(join(tmpdir(), "skrining-roster-"));
  const rows = ["role,username,password,nim,nip,nama,nip_doswal,activated"];
  for (const width of Object.keys(cast) as Width[]) {
    const { counsellor, lecturer, prefix } = cast[width];
    rows.push(`dosen,${counsellor.username},${counsellor.password},,${counsellor.nip},${counsellor.nama},,true`);
    rows.push(`dosen,${lecturer.username},${lecturer.password},,${lecturer.nip},${lecturer.nama},,true`);
    for (let index = 1; index <= 40; index++) {
      const nim = `${prefix}${String(index).padStart(3, "0")}`;
      rows.push(`mahasiswa,${nim.toLowerCase()},pass-${nim},${nim},,Mahasiswa ${prefix} ${String(index).padStart(2, "0")},${lecturer.nip},true`);
    }
  }
  const roster = join(folder, "daftar.csv");
  writeFileSync(roster, `${rows.join("\n")}\n`);
  const imported = await served.command(["accounts", "import", roster]);
  expect(imported.exitCode).toBe(0);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe.each(Object.keys(widths) as Width[])("at %s size", (width) => {
  const { counsellor, student, lecturer, prefix } = cast[width];

  test("the counsellor's day: she lands on her case, writes to the student, closes it with a reason, and reads the reply afterwards", async () => {
    // A very high stress score opens a case for the student's advisor; an admin hands it to the counsellor.
    const admin = await tokenOf(demo.admin);
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: student.nim, jawaban: answers(5, "mid") })).status).toBe(201);
    const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100&status=baru", admin);
    const opened = cases.body.data.find((each) => each.NIM === student.nim)!;
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${opened.id}/pemilik`, admin, { NIP: counsellor.nip })).status).toBe(200);

    const page = await openPage(browser, served, width);
    await signIn(page, counsellor);
    // No advisees: she lands on her cases, her case listed first.
    await heading(page, "Tindak lanjut").waitFor();
    const mine = page.locator(".student-list > li").first();
    await mine.getByRole("heading", { level: 3, name: student.nama }).waitFor();
    await checkPage(page, `konselor-tindak-lanjut`, width);
    await mine.getByRole("link", { name: student.nama }).click();
    await heading(page, `Tindak lanjut: ${student.nama}`).waitFor();

    // She writes to the student from the student's page, which she reads while the case is open.
    await page.getByRole("link", { name: "Lihat data lengkap mahasiswa" }).click();
    await heading(page, student.nama).waitFor();
    await page.getByLabel("Isi catatan").fill("Balas catatan ini: bagaimana tidurmu minggu ini?");
    await page.getByRole("button", { name: "Simpan catatan" }).click();
    await page.getByRole("status").filter({ hasText: "Catatan berhasil disimpan." }).waitFor();
    await page.locator(".note-list").getByText(`Oleh ${counsellor.nama}`).first().waitFor();

    // Back on the case: a contact that went unanswered, then the closing with its reason and judgement.
    await page.goBack();
    await heading(page, `Tindak lanjut: ${student.nama}`).waitFor();
    await page.getByRole("radio", { name: /^Dihubungi/ }).check();
    await page.getByRole("radio", { name: /^Tidak merespons/ }).check();
    await page.getByLabel("Catatan", { exact: true }).fill("Ditelepon, tidak diangkat.");
    await page.getByRole("button", { name: "Simpan status" }).click();
    await page.getByRole("status").filter({ hasText: "Status diubah menjadi: Sudah dihubungi." }).waitFor();
    await page.getByRole("radio", { name: /^Selesai/ }).check();
    // Closing for want of a response needs three attempts; one is recorded.
    expect(await page.getByRole("radio", { name: /^Mahasiswa tidak merespons/ }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Simpan status" }).click();
    await page.getByText("Pilih alasan tindak lanjut ditutup.").waitFor();
    await page.getByRole("radio", { name: /^Dirujuk ke layanan konseling/ }).check();
    await page.getByRole("radio", { name: /^Ya, membutuhkan dukungan/ }).check();
    await page.getByLabel("Catatan", { exact: true }).fill("Dirujuk ke layanan konseling fakultas.");
    await checkPage(page, "tindak-lanjut-menutup", width);
    await expectTouchTargets(page, `tindak-lanjut-menutup (${width})`);
    await page.getByRole("button", { name: "Simpan status" }).click();
    await page.getByRole("status").filter({ hasText: "Status diubah menjadi: Selesai." }).waitFor();
    await page.getByText("Dirujuk ke layanan konseling").first().waitFor();
    await page.locator(".follow-up-timeline").getByText(`oleh ${counsellor.nama}`).first().waitFor();

    // The student replies after the case closed.
    const studentToken = await tokenOf(student);
    const notes = await call<{ Id_catatan: number; NIP: string }[]>("GET", "/api/mahasiswa/catatan", studentToken);
    const note = notes.body.find((each) => each.NIP === counsellor.nip)!;
    expect((await call("POST", `/api/mahasiswa/catatan/${note.Id_catatan}/reply`, studentToken, { reply: "Hampir tidak bisa tidur." })).status).toBe(200);

    // She sees the reply flagged, from her cases, and reads it on the closed case.
    await page.goto("/dosen/tindak-lanjut");
    const closed = page.locator(".student-list > li").filter({ has: page.getByRole("heading", { level: 3, name: student.nama }) });
    await closed.getByText("1 balasan baru").waitFor();
    await closed.getByText(/Ditutup: Dirujuk ke layanan konseling/).waitFor();
    await closed.getByRole("link", { name: student.nama }).click();
    await heading(page, "Catatan konseling Anda untuk mahasiswa ini", 2).waitFor();
    const reply = page.locator(".note-list > li").filter({ hasText: "Hampir tidak bisa tidur." });
    await reply.getByText("Balasan baru").waitFor();
    await checkPage(page, "konselor-balasan", width);
    // Her first page said so too, before she looked; now it is seen.
    await page.goto("/dosen/hari-ini");
    await heading(page, "Hari ini").waitFor();
    await page.getByText("Tidak ada yang menunggu Anda hari ini.", { exact: false }).waitFor();
    await closePage(page);

    // The advisor learns of the closing, with its reason.
    const advisor = await openPage(browser, served, width);
    await signIn(advisor, width === "narrow" ? demo.lecturer : demo.otherLecturer);
    await heading(advisor, "Hari ini").waitFor();
    const news = advisor.locator("#hari-ini-ditutup").locator("xpath=..");
    await news.getByRole("link", { name: student.nama }).waitFor();
    await closePage(advisor);
  });

  test("a lecturer with 40 advisees reaches the student who replied from his first screen", async () => {
    const replying = `${prefix}029`;
    const lecturerToken = await tokenOf(lecturer);
    const note = await call<{ id: number }>("POST", "/api/dosen/catatan", lecturerToken, { NIM: replying, isi_catatan: "Bagaimana persiapan ujianmu?" });
    expect(note.status).toBe(201);
    const studentToken = await tokenOf({ username: replying.toLowerCase(), password: `pass-${replying}` });
    expect((await call("POST", `/api/mahasiswa/catatan/${note.body.id}/reply`, studentToken, { reply: "Boleh saya ketemu Bapak minggu ini?" })).status).toBe(200);
    // Two advisees at risk: one at the threshold (160), one at the top (200); both get the same badge.
    const admin = await tokenOf(demo.admin);
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: `${prefix}003`, jawaban: answers(4, "mid") })).status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: `${prefix}004`, jawaban: answers(5, "mid") })).status).toBe(201);

    const page = await openPage(browser, served, width);
    await signIn(page, lecturer);
    await heading(page, "Hari ini").waitFor();
    const link = page.locator("#hari-ini-balasan").locator("xpath=..").getByRole("link", { name: `Mahasiswa ${prefix} 29` });
    const box = await boxOf(link);
    expect(box.y + box.height).toBeLessThanOrEqual(sizes[width].height);
    await checkPage(page, "hari-ini", width);
    await expectTouchTargets(page, `hari-ini (${width})`);
    // The menu counts what waits: the two new cases and the reply.
    await openMenu(page);
    await page.getByRole("link", { name: "Hari ini (3)" }).waitFor();
    await page.getByRole("link", { name: "Tindak lanjut (2 menunggu)" }).waitFor();
    if (width === "narrow") await page.getByRole("button", { name: "Tutup menu" }).click();
    await link.click();
    await heading(page, `Mahasiswa ${prefix} 29`).waitFor();
    await page.locator(".note-list > li").filter({ hasText: "Boleh saya ketemu Bapak minggu ini?" }).getByText("Balasan baru").waitFor();

    // Every reason for attention has its badge: the student at 200 as the one at 160.
    await page.goto("/dosen?sort=risk");
    for (const nim of [`${prefix}003`, `${prefix}004`]) {
      const card = page.locator(".student-list > li").filter({ hasText: `NIM ${nim}` });
      await card.getByText("Perlu perhatian", { exact: true }).waitFor();
      await card.getByText("Stres sangat tinggi").waitFor();
    }
    await closePage(page);
  });

  test("a student asks to be contacted and sees where the request stands", async () => {
    const asker = width === "narrow" ? { username: "a010", password: "pass-A010", name: "Mahasiswa A 10" } : { username: "b010", password: "pass-B010", name: "Mahasiswa B 10" };
    const lecturerToken = await tokenOf(lecturer);
    expect((await call("PUT", "/api/dosen/profil", lecturerToken, { telepon: "0812 3456 7890" })).status).toBe(200);
    const page = await openPage(browser, served, width);
    await signIn(page, asker);
    await heading(page, "Beranda").waitFor();
    const card = page.locator(".contact-card");
    await card.getByText(lecturer.nama).waitFor();
    expect(await card.getByRole("link", { name: "Telepon/WhatsApp 0812 3456 7890" }).getAttribute("href")).toBe("tel:081234567890");
    await card.getByLabel("Pesan (boleh kosong)").fill("Saya sulit tidur menjelang ujian.");
    await card.getByRole("button", { name: "Minta dihubungi" }).click();
    await card.getByText("Permintaan Anda sudah diterima dan menunggu ditanggapi.").waitFor();
    await card.getByText(/Anda dapat mengirim permintaan baru mulai/).waitFor();
    expect(await card.getByRole("button", { name: "Minta dihubungi" }).count()).toBe(0);
    await checkPage(page, "beranda-minta-dihubungi", width);

    // The lecturer calls back; Hasil says the request was answered.
    const cases = await call<{ data: { id: number; NIM: string; alasan: string[] }[] }>("GET", "/api/dosen/tindak-lanjut", lecturerToken);
    const asked = cases.body.data.find((each) => each.NIM === asker.username.toUpperCase())!;
    expect(asked.alasan).toEqual(["permintaan_mahasiswa"]);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${asked.id}/status`, lecturerToken, { status: "dihubungi", catatan: "Dijadwalkan Kamis.", hasil_kontak: "dijadwalkan" })).status).toBe(200);
    // Hasil shows the same card: the student has no screening, so it offers the questionnaire; Beranda shows the state.
    await page.reload();
    await page.locator(".contact-card").getByText("Permintaan Anda sudah ditanggapi; dosen sedang menindaklanjutinya.").waitFor();
    await closePage(page);
  });

  test("the advisor reads the mood chart and a diary entry the student shared, never a private one", async () => {
    const writer = width === "narrow" ? { username: "a011", password: "pass-A011", nim: "A011", name: "Mahasiswa A 11" } : { username: "b011", password: "pass-B011", nim: "B011", name: "Mahasiswa B 11" };
    const token = await tokenOf(writer);
    for (const [days, value] of [[1, 2], [2, 1], [4, 3], [7, 4], [12, 2], [40, 5]] as const) {
      expect((await call("POST", "/api/mahasiswa/mood", token, { date: localDay(days), mood_value: value })).status).toBe(201);
    }
    expect((await call("POST", "/api/mahasiswa/diary", token, { date: localDay(1), title: "Untuk Bapak", content: "Saya ingin bercerita tentang minggu ini.", dibagikan: true })).status).toBe(201);
    expect((await call("POST", "/api/mahasiswa/diary", token, { date: localDay(2), title: "Rahasia", content: "Hanya untuk saya sendiri." })).status).toBe(201);

    // The student's Jurnal says who reads what, and offers sharing, off by default.
    const own = await openPage(browser, served, width);
    await signIn(own, writer);
    await own.goto("/jurnal");
    await heading(own, "Jurnal").waitFor();
    await own.getByText(/jurnal Anda hanya untuk Anda/).waitFor();
    expect(await own.getByRole("checkbox", { name: "Bagikan ke dosen wali" }).first().isChecked()).toBe(false);
    await checkPage(own, "jurnal-bagikan", width);
    await closePage(own);

    const page = await openPage(browser, served, width);
    await signIn(page, lecturer);
    await page.goto(`/dosen/mahasiswa/${writer.nim}`);
    await heading(page, writer.name).waitFor();
    const mood = page.locator("section").filter({ has: heading(page, "Mood 30 hari terakhir", 2) });
    await mood.locator("svg.chart").waitFor();
    // Five days within the month (the one 40 days ago is not shown), three of them bad.
    await mood.getByText("5 hari tercatat dalam 30 hari terakhir; rata-rata 2,4; 3 hari buruk atau sangat buruk.").waitFor();
    expect(await mood.locator("tbody tr").count()).toBe(5);
    const diary = page.locator("section").filter({ has: heading(page, "Jurnal yang dibagikan", 2) });
    await diary.getByRole("heading", { level: 3, name: "Untuk Bapak" }).waitFor();
    expect(await diary.getByText("Rahasia").count()).toBe(0);
    await checkPage(page, "detail-mahasiswa-mood", width);
    await closePage(page);
  });
});
