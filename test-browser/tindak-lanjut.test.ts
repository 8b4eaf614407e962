import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, checkPage, closePage, demo, expectNoSidewaysScroll, launchBrowser, openMenu, openPage, serveExecutable, signIn, viewports, type Served, type ViewportName } from "./support";
import { card, cards, choice, median, note, offered, save, timeline } from "./tindak-lanjut-page";

// Follow-up cases (tindak lanjut) through the executable: a flagged screening opens a case,
// the advisor contacts, refers, closes and reopens it from the case page and acts on it from
// the student's page; an admin reads the faculty's figures and reassigns; the student never
// sees a case note.

let served: Served;
let browser: Browser;

const rizky = { username: "2301003", password: "demo-mhs-03", nim: "2301003", nama: "Rizky Maulana" };
/** Each size follows its own advisee of dosen.rina through the whole flow. */
const advisees: Record<ViewportName, { username: string; password: string; nim: string; nama: string }> = { phone: demo.student, desktop: rizky };
/** Each size's admin moves its own case: a case without an advisor, and one of dosen.budi's. */
const reassigned: Record<ViewportName, { nama: string; to: string }> = {
  phone: { nama: "Intan Permata", to: demo.lecturer.nama },
  desktop: { nama: "Yoga Saputra", to: demo.lecturer.nama },
};
/** Every case note the tests write, for the student's side to look for. */
const notesWritten: string[] = [];

const { call, tokenOf } = apiOf(() => served.base);

interface CaseAnswer {
  id: number;
  NIM: string;
  status: string;
}

/** The one case of a student, as an admin reads the list. */
async function caseOf(nim: string): Promise<CaseAnswer> {
  const admin = await tokenOf(demo.admin);
  const { status, body } = await call<{ data: CaseAnswer[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
  expect(status).toBe(200);
  const found = body.data.filter((each) => each.NIM === nim);
  expect(found).toHaveLength(1);
  return found[0]!;
}

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();

  // Screenings through the API as the admin (exempt from the weekly limit). Stress Tinggi with
  // motivation Rendah raises an early warning, and Andi's jump from 80 to 160 is a sudden
  // change too: each of those students gets one case. Siti is calm and gets none.
  const admin = await tokenOf(demo.admin);
  const seeds: [string, number, "low" | "mid" | "high"][] = [
    [demo.student.nim, 2, "mid"],
    [demo.student.nim, 4, "low"],
    [rizky.nim, 4, "low"],
    [demo.otherStudent.nim, 1, "high"],
    ["2201006", 4, "low"],
    ["2201007", 4, "low"],
    ["2401010", 4, "low"],
  ];
  for (const [nim, stress, motivation] of seeds) {
    const { status } = await call("POST", "/api/mahasiswa/kuesioner", admin, { NIM: nim, jawaban: answers(stress, motivation) });
    expect(status).toBe(201);
  }
  const { body } = await call<{ data: CaseAnswer[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
  expect(body.data.map((each) => each.NIM).sort()).toEqual(["2201006", "2201007", demo.student.nim, rizky.nim, "2401010"].sort());

  // Putri's case was opened ten days ago: written into the database file beside the running
  // server, as the executable has no clock to turn. Only the case's own dates move.
  const putri = await caseOf("2201006");
  const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600 * 1000).toISOString();
  const database = new Database(join(served.dataDir, "skrining.db"));
  database.run("PRAGMA busy_timeout = 5000");
  database.run("UPDATE tindak_lanjut SET dibuka_pada = ?, diperbarui_pada = ? WHERE Id_tindak_lanjut = ?", [tenDaysAgo, tenDaysAgo, putri.id]);
  database.run("UPDATE tindak_lanjut_riwayat SET waktu = ? WHERE Id_tindak_lanjut = ?", [tenDaysAgo, putri.id]);
  database.close();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });
const query = (page: Page) => new URL(page.url()).searchParams;

/**
 * Moves the case on the open page with a note (and what the move records: a contact's
 * outcome, a closing's reason and judgement), and waits for the page to say so.
 */
async function move(page: Page, to: RegExp, text: string, becomes: string, records: RegExp[] = []): Promise<void> {
  await choice(page, to).check();
  for (const label of records) await choice(page, label).check();
  await note(page).fill(text);
  notesWritten.push(text);
  await save(page).click();
  await page.getByRole("status").filter({ hasText: `Status diubah menjadi: ${becomes}.` }).waitFor();
  expect(await note(page).inputValue()).toBe("");
}

interface Figures {
  NIP: string | null;
  nama_dosen: string | null;
  terbuka: number;
  baru: number;
  lebih_dari_7_hari: number;
  terlambat: number;
  median_hari_ke_kontak_pertama: number | null;
}


describe.each(Object.keys(viewports) as ViewportName[])("at %s size", (viewport) => {
  const student = advisees[viewport];

  test("the advisor's flow: the flagged student's case is listed, contacted, referred, closed and reopened; a stale move shows the server's refusal", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto("/dosen");
    await signIn(page, demo.lecturer);
    await openMenu(page);
    // The menu counts the cases waiting (decisions §19).
    await page.getByRole("link", { name: /^Tindak lanjut \(\d+ menunggu\)$/ }).click();
    await heading(page, "Tindak lanjut").waitFor();
    await heading(page, "Ringkasan tindak lanjut Anda", 2).waitFor();

    // The lecturer's own figures are the API's.
    const lecturer = await tokenOf(demo.lecturer);
    const own = (await call<{ per_dosen: Figures[] }>("GET", "/api/dosen/tindak-lanjut/ringkasan", lecturer)).body.per_dosen;
    expect(own).toHaveLength(1);
    await page.locator("dl.stat-totals").waitFor();
    expect(await page.locator("dl.stat-totals dd").allTextContents()).toEqual([
      String(own[0]!.terbuka),
      String(own[0]!.terlambat),
      String(own[0]!.lebih_dari_7_hari),
      median(own[0]!.median_hari_ke_kontak_pertama),
    ]);

    // Only dosen.rina's cases: never dosen.budi's students nor the one without an advisor.
    const mine = card(page, student.nama);
    await mine.getByText("Baru, belum dihubungi").waitFor();
    await mine.getByText("Terbuka sejak hari ini").waitFor();
    await mine.getByText("Stres tinggi, motivasi rendah").waitFor();
    for (const other of ["Putri Ayu", "Yoga Saputra", demo.otherStudent.nama]) expect(await card(page, other).count()).toBe(0);
    await checkPage(page, "tindak-lanjut", viewport);

    await mine.getByRole("link", { name: student.nama }).click();
    await heading(page, `Tindak lanjut: ${student.nama}`).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
    expect(await timeline(page).count()).toBe(1);
    await timeline(page).first().getByText("Dibuka dengan status Baru, belum dihubungi").waitFor();
    await timeline(page).first().getByText(/^oleh Sistem, /).waitFor();
    const levels = page.getByRole("table", { name: /Tingkat stres dan motivasi pada skrining terakhir/ });
    expect(await levels.locator("tbody tr").first().locator(".level").allTextContents()).toEqual(["Tinggi", "Rendah"]);
    await levels.locator("tbody tr").first().getByText("Perlu perhatian").waitFor();
    if (viewport === "phone") {
      // Andi's jump from 80 to 160 names the sudden change beside the early warning.
      await page.getByText("Stres tinggi dengan motivasi rendah; Lonjakan stres sejak skrining sebelumnya").waitFor();
      expect(await levels.locator("tbody tr").count()).toBe(2);
    }
    expect(await offered(page)).toEqual(["dihubungi", "dirujuk", "selesai"]);
    await checkPage(page, "tindak-lanjut-kasus-baru", viewport);

    // Errors at their fields, and the focus on the first of them.
    await save(page).click();
    await page.getByText("Pilih status baru terlebih dahulu.").waitFor();
    await page.getByText("Tulis catatan singkat tentang perubahan ini.").waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe("radio");
    await choice(page, /^Dihubungi/).check();
    await save(page).click();
    await page.getByText("Pilih status baru terlebih dahulu.").waitFor({ state: "detached" });
    // Decisions §19: a contact says how it went.
    await page.getByText("Pilih hasil kontaknya.").waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("berhasil");
    await choice(page, /^Berhasil/).check();
    await save(page).click();
    await page.getByText("Pilih hasil kontaknya.").waitFor({ state: "detached" });
    expect(await note(page).evaluate((element) => element === document.activeElement)).toBe(true);

    // A lost connection keeps the typed note.
    const contacted = `Sudah bertemu di ruang dosen, mahasiswa bercerita tentang beban tugas (${viewport}).`;
    await note(page).fill(contacted);
    await page.context().setOffline(true);
    await save(page).click();
    await page.getByRole("alert").filter({ hasText: "Tidak dapat menghubungi server" }).waitFor();
    expect(await note(page).inputValue()).toBe(contacted);
    await page.context().setOffline(false);
    await save(page).click();
    notesWritten.push(contacted);
    await page.getByRole("status").filter({ hasText: "Status diubah menjadi: Sudah dihubungi." }).waitFor();
    await timeline(page).nth(1).waitFor();
    const entry = timeline(page).nth(1);
    await entry.getByText("Baru, belum dihubungi → Sudah dihubungi").waitFor();
    await entry.getByText("Hasil kontak: berhasil").waitFor();
    await entry.getByText(contacted).waitFor();
    await entry.getByText(new RegExp(`^oleh ${demo.lecturer.nama}, `)).waitFor();
    expect(await page.locator(".student-facts").getByText("Belum", { exact: true }).count()).toBe(0);
    expect(await offered(page)).toEqual(["dihubungi", "dirujuk", "selesai"]);

    await move(page, /^Dirujuk/, `Dirujuk ke layanan konseling fakultas untuk sesi pertama (${viewport}).`, "Dirujuk ke layanan konseling");
    await move(page, /^Selesai/, `Konseling berjalan, tindak lanjut ditutup (${viewport}).`, "Selesai", [/^Dirujuk ke layanan konseling/, /^Ya, membutuhkan dukungan/]);
    await page.locator(".student-facts").getByText("Ditutup").waitFor();
    await timeline(page).nth(3).getByText("Ditutup: Dirujuk ke layanan konseling; perlu dukungan").waitFor();
    expect(await offered(page)).toEqual(["baru"]);
    await move(page, /^Buka kembali/, `Mahasiswa datang lagi, perlu didampingi (${viewport}).`, "Baru, belum dihubungi");
    await timeline(page).nth(4).waitFor();
    expect(await timeline(page).count()).toBe(5);
    expect(await offered(page)).toEqual(["dihubungi", "dirujuk", "selesai"]);
    await checkPage(page, "tindak-lanjut-kasus", viewport);

    // Someone else moved the case meanwhile: the page's move is refused with the server's
    // words, the note stays, and the choices follow the case as it now is.
    const { id } = await caseOf(student.nim);
    const elsewhere = `Dirujuk lewat telepon oleh dosen yang sama di tab lain (${viewport}).`;
    notesWritten.push(elsewhere);
    expect((await call("POST", `/api/dosen/tindak-lanjut/${id}/status`, lecturer, { status: "dirujuk", catatan: elsewhere })).status).toBe(200);
    const stale = `Catatan yang tertahan (${viewport}).`;
    await choice(page, /^Dihubungi/).check();
    await choice(page, /^Tidak merespons/).check();
    await note(page).fill(stale);
    await save(page).click();
    await page.getByRole("alert").filter({ hasText: "Status tidak dapat diubah dari dirujuk ke dihubungi." }).waitFor();
    expect(await note(page).inputValue()).toBe(stale);
    await page.waitForFunction(() => document.querySelectorAll(".follow-up-timeline > li").length === 6);
    expect(await offered(page)).toEqual(["selesai"]);
    await closePage(page);
  });

  test("the student's page shows the open case with a link and the same form; closing it there leaves no form", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto(`/dosen/mahasiswa/${student.nim}`);
    await signIn(page, demo.lecturer);
    await heading(page, student.nama).waitFor();
    const section = page.locator("section").filter({ has: heading(page, "Tindak lanjut", 2) });
    await section.getByText("Dirujuk ke layanan konseling").first().waitFor();
    expect(await offered(page)).toEqual(["selesai"]);
    await checkPage(page, "detail-mahasiswa-tindak-lanjut", viewport);

    // Closed, the case leaves the page with the form: the success stays in its place.
    const closing = `Ditutup dari halaman mahasiswa (${viewport}).`;
    notesWritten.push(closing);
    await choice(page, /^Selesai/).check();
    await choice(page, /^Teratasi/).check();
    await choice(page, /^Tidak membutuhkan dukungan/).check();
    await note(page).fill(closing);
    await save(page).click();
    await section.getByRole("status").filter({ hasText: "Status diubah menjadi: Selesai." }).waitFor();
    await section.getByText("Tidak ada tindak lanjut yang terbuka untuk mahasiswa ini.").waitFor();
    expect(await page.getByRole("radio").count()).toBe(0);

    // The closed case is in the list under its status, the filter kept in the URL.
    await page.goto("/dosen/tindak-lanjut");
    await heading(page, "Tindak lanjut").waitFor();
    await page.getByLabel("Status", { exact: true }).selectOption("selesai");
    await page.waitForURL(/status=selesai/);
    await card(page, student.nama).getByText("Selesai", { exact: true }).waitFor();
    await page.reload();
    await card(page, student.nama).waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("selesai");
    expect(await cards(page).getByText("Baru, belum dihubungi").count()).toBe(0);
    await card(page, student.nama).getByRole("link").click();
    await heading(page, `Tindak lanjut: ${student.nama}`).waitFor();
    expect(await timeline(page).count()).toBe(7);
    await closePage(page);
  });

  test("a student never sees a case note: not on their pages, not in their data, and the staff pages are not theirs", async () => {
    expect(notesWritten.length).toBeGreaterThan(0);
    const page = await openPage(browser, served, viewport);
    await page.goto("/");
    await signIn(page, student);
    for (const [path, title] of [
      ["/", "Beranda"],
      ["/hasil", "Hasil"],
      ["/riwayat", "Riwayat"],
      ["/catatan", "Catatan dosen"],
      ["/data-saya", "Data saya"],
    ] as const) {
      await page.goto(path);
      await heading(page, title).waitFor();
      await page.waitForLoadState("networkidle");
      const shown = await page.evaluate(() => document.body.innerText);
      for (const text of notesWritten) expect(shown).not.toContain(text);
    }
    await page.goto("/dosen/tindak-lanjut");
    await heading(page, "Halaman ini untuk dosen dan admin").waitFor();

    const token = await tokenOf(student);
    expect((await call("GET", "/api/dosen/tindak-lanjut", token)).status).toBe(403);
    const data = await fetch(`${served.base}/api/mahasiswa/data-saya`, { headers: { authorization: `Bearer ${token}` } });
    expect(data.status).toBe(200);
    const studentData = await data.text();
    for (const text of notesWritten) expect(studentData).not.toContain(text);
    await closePage(page);
  });

  test("an admin's faculty view: figures per lecturer as the API counts them, a lecturer's old cases, every case, and a reassignment", async () => {
    const page = await openPage(browser, served, viewport);
    await page.goto("/dosen/tindak-lanjut");
    await signIn(page, demo.admin);
    await heading(page, "Tindak lanjut").waitFor();
    await heading(page, "Ringkasan fakultas", 2).waitFor();
    expect(await page.getByLabel("Pilih dosen").inputValue()).toBe("");

    // Every row of the table is the API's figure; dosen.budi's are known: Putri's case is ten days old.
    const admin = await tokenOf(demo.admin);
    const summary = (await call<{ per_dosen: Figures[]; fakultas: Figures }>("GET", "/api/dosen/tindak-lanjut/ringkasan", admin)).body;
    const table = page.getByRole("table", { name: "Tindak lanjut per penangan" });
    await table.waitFor();
    const expected = [
      ...summary.per_dosen.map((row) =>
        [row.nama_dosen ?? "Tanpa penangan (admin)", row.terbuka, row.baru, row.terlambat, row.lebih_dari_7_hari, median(row.median_hari_ke_kontak_pertama)].join("\t"),
      ),
      ["Seluruh fakultas", summary.fakultas.terbuka, summary.fakultas.baru, summary.fakultas.terlambat, summary.fakultas.lebih_dari_7_hari, median(summary.fakultas.median_hari_ke_kontak_pertama)].join("\t"),
    ];
    expect(await table.locator("tbody tr").allInnerTexts()).toEqual(expected);
    // Putri's case, ten days old and never reached, is late too.
    expect(await table.locator("tbody tr").filter({ hasText: demo.otherLecturer.nama }).innerText()).toBe(`${demo.otherLecturer.nama}\t2\t2\t1\t1\t—`);
    await checkPage(page, "tindak-lanjut-admin", viewport);

    // A lecturer's name leads to their open cases older than a week.
    await table.getByRole("link", { name: demo.otherLecturer.nama }).click();
    await page.waitForURL(/min_hari=7/);
    expect(query(page).get("nip")).toBe(demo.otherLecturer.nip);
    expect(query(page).get("status")).toBe("terbuka");
    await page.getByText("1 tindak lanjut · Halaman 1 dari 1").waitFor();
    const putri = card(page, "Putri Ayu");
    await putri.getByText("Lebih dari 7 hari").waitFor();
    await putri.getByText("Terbuka 10 hari").waitFor();
    await putri.getByText(`Penangan: ${demo.otherLecturer.nama} · Dosen wali: ${demo.otherLecturer.nama}`, { exact: false }).waitFor();
    expect(await page.getByLabel("Pilih dosen").inputValue()).toBe(demo.otherLecturer.nip);

    // Everyone's cases, of any age.
    await page.getByLabel("Pilih dosen").selectOption({ label: "— Semua dosen —" });
    await page.waitForURL((url) => !url.searchParams.has("nip"));
    await page.getByLabel("Lama terbuka").selectOption({ label: "Berapa pun" });
    await page.waitForURL((url) => !url.searchParams.has("min_hari"));
    const moving = card(page, reassigned[viewport].nama);
    await moving.waitFor();
    if (viewport === "phone") await moving.getByText("Belum ada penangan (ditangani admin) · Belum ada dosen wali", { exact: false }).waitFor();
    // The late cases come first, the oldest of them first.
    expect(await cards(page).first().getByRole("heading").textContent()).toBe("Putri Ayu");
    await cards(page).first().getByText("Terlambat dihubungi").waitFor();

    await moving.getByRole("link").click();
    await heading(page, `Tindak lanjut: ${reassigned[viewport].nama}`).waitFor();
    await page.getByRole("button", { name: "Serahkan…" }).click();
    await page.getByText("Pilih dosen yang akan menangani tindak lanjut ini.").waitFor();
    await page.getByLabel("Penangan yang baru").selectOption({ label: reassigned[viewport].to });
    await page.getByRole("button", { name: "Serahkan…" }).click();
    // Nothing is handed over before the admin confirms, and the safe answer has the focus.
    await page.getByText(new RegExp(`^Serahkan penanganan tindak lanjut ${reassigned[viewport].nama} dari .* kepada ${reassigned[viewport].to}\\?$`)).waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === "Batal");
    await checkPage(page, "tindak-lanjut-serahkan", viewport);
    await page.getByRole("button", { name: "Ya, serahkan" }).click();
    await page.getByRole("status").filter({ hasText: `Tindak lanjut sekarang ditangani ${reassigned[viewport].to}.` }).waitFor();
    await timeline(page).last().getByText("Penangan berganti").waitFor();
    await page.locator(".student-facts").getByText(reassigned[viewport].to).first().waitFor();
    await checkPage(page, "tindak-lanjut-kasus-admin", viewport);
    await closePage(page);
  });
});

test("every follow-up page fits a 360 px screen without sideways scrolling", async () => {
  const page = await openPage(browser, served, "phone");
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/dosen/tindak-lanjut");
  await signIn(page, demo.lecturer);
  const { id } = await caseOf(rizky.nim);
  for (const [path, title] of [
    ["/dosen/tindak-lanjut", "Tindak lanjut"],
    [`/dosen/tindak-lanjut/${id}`, `Tindak lanjut: ${rizky.nama}`],
    [`/dosen/mahasiswa/${rizky.nim}`, rizky.nama],
  ] as const) {
    await page.goto(path);
    await heading(page, title).waitFor();
    await page.locator(".loading").first().waitFor({ state: "detached" });
    await expectNoSidewaysScroll(page);
  }
  await closePage(page);
});

test("another lecturer opening a case that is not theirs reads the server's refusal, and an unknown case its own text", async () => {
  const page = await openPage(browser, served, "phone");
  const { id } = await caseOf(rizky.nim);
  await page.goto(`/dosen/tindak-lanjut/${id}`);
  await signIn(page, demo.otherLecturer);
  await heading(page, "Tindak lanjut").waitFor();
  await page.getByRole("alert").filter({ hasText: "Mahasiswa bukan bimbingan Anda." }).waitFor();
  expect(await page.getByRole("button", { name: "Coba lagi" }).count()).toBe(0);
  expect(await page.getByText(rizky.nama).count()).toBe(0);
  await checkPage(page, "tindak-lanjut-ditolak", "phone");

  await page.goto("/dosen/tindak-lanjut/999999");
  await page.getByRole("alert").filter({ hasText: "Tindak lanjut tidak ditemukan." }).waitFor();
  await closePage(page);
});
