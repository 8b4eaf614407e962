import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { answers, apiOf, boxOf, checkPage, closePage, demo, launchBrowser, openMenu, openPage, serveExecutable, signIn, type Served, type ViewportName } from "./support";

// Decisions §13 through the executable: a student at the highest stress sees help first and
// is told who was alerted; notes are noticed on both sides; a case handed to another
// lecturer names its handler and the advisor apart. Each size follows its own advisee of
// dosen.rina, at 360 px (the narrowest phone) and on a desktop.

let served: Served;
let browser: Browser;
const { call, tokenOf } = apiOf(() => served.base);

const sizes: Record<ViewportName, { width: number; height: number; student: { username: string; password: string; nim: string; nama: string } }> = {
  phone: { width: 360, height: 740, student: demo.student },
  desktop: { width: 1280, height: 800, student: { username: "2301003", password: "demo-mhs-03", nim: "2301003", nama: "Rizky Maulana" } },
};

beforeAll(async () => {
  served = await serveExecutable();
  browser = await launchBrowser();
  // 5 on every stress item (200, Tinggi) with motivation Sedang: no early warning, yet a person must be reached.
  for (const { student } of Object.values(sizes)) {
    const submitted = await call<{ tindak_lanjut: unknown }>("POST", "/api/mahasiswa/kuesioner", await tokenOf(student), { jawaban: answers(5, "mid") });
    expect(submitted).toMatchObject({ status: 201, body: { tindak_lanjut: { dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" } } });
  }
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const heading = (page: Page, name: string | RegExp, level = 1) => page.getByRole("heading", { level, name });

async function pageAt(viewport: ViewportName): Promise<Page> {
  const page = await openPage(browser, served, viewport);
  await page.setViewportSize({ width: sizes[viewport].width, height: sizes[viewport].height });
  return page;
}

describe.each(Object.keys(sizes) as ViewportName[])("at %s size", (viewport) => {
  const { student, height } = sizes[viewport];

  test("stress 200 with motivation Sedang: help with a tel: link first, on the first screen, and the student is told the advisor was alerted", async () => {
    const page = await pageAt(viewport);
    await page.goto("/hasil");
    await signIn(page, student);
    await heading(page, "Hasil").waitFor();
    const call119 = page.getByRole("link", { name: "Telepon SEJIWA, layanan kesehatan jiwa: 119" });
    await call119.waitFor();
    expect(await call119.getAttribute("href")).toBe("tel:119");
    const box = await boxOf(call119);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    expect(box.height).toBeGreaterThanOrEqual(44);
    const [help, levels] = [await boxOf(page.locator(".help")), await boxOf(page.locator("#hasil-stres"))];
    expect(help.y).toBeLessThan(levels.y);
    await page.getByText("Hasil ini sudah diteruskan kepada dosen wali Anda, yang diminta menindaklanjutinya.").waitFor();
    await checkPage(page, "hasil-stres-tinggi", viewport);

    // Beranda points to help too, first.
    await page.goto("/");
    await heading(page, "Beranda").waitFor();
    const pointer = page.locator(".help-urgent");
    await pointer.getByRole("link", { name: "Telepon SEJIWA, layanan kesehatan jiwa: 119" }).waitFor();
    await pointer.getByRole("link", { name: "Baca selengkapnya di halaman Hasil" }).waitFor();
    expect((await boxOf(pointer)).y).toBeLessThan((await boxOf(page.locator(".cards"))).y);
    await checkPage(page, "beranda-stres-tinggi", viewport);
    await closePage(page);
  });

  test("notes are noticed: the student sees the unread note on Beranda and in the menu; the lecturer sees the reply", async () => {
    const rina = await tokenOf(demo.lecturer);
    expect((await call("POST", "/api/dosen/catatan", rina, { NIM: student.nim, isi_catatan: `Saya lihat hasil Anda minggu ini; bisa kita bicara? (${viewport})` })).status).toBe(201);

    const page = await pageAt(viewport);
    await page.goto("/");
    await signIn(page, student);
    await heading(page, "Beranda").waitFor();
    await page.getByText("Ada 1 catatan baru dari dosen yang belum Anda baca.").waitFor();
    await openMenu(page);
    const menuEntry = page.getByRole("navigation", { name: "Navigasi utama" }).getByRole("link", { name: "Catatan dosen (1 belum dibaca)" });
    await menuEntry.waitFor();
    await checkPage(page, "beranda-catatan-baru", viewport);
    await page.getByRole("link", { name: "Baca catatan dosen" }).click();
    await heading(page, "Catatan dosen").waitFor();
    const note = page.locator("li.entry").filter({ hasText: "bisa kita bicara?" });
    await note.getByText("Baru", { exact: true }).waitFor();
    // Shown in full is opened: the menu's count goes.
    await page.getByRole("navigation", { name: "Navigasi utama", includeHidden: true }).getByRole("link", { name: "Catatan dosen", exact: true, includeHidden: true }).waitFor({ state: "attached" });
    await checkPage(page, "catatan-baru", viewport);
    await note.getByLabel("Balasan Anda").fill("Bisa, Bu. Saya sedang sangat tertekan.");
    await note.getByRole("button", { name: "Kirim balasan" }).click();
    await page.getByRole("status").filter({ hasText: "Balasan berhasil dikirim." }).waitFor();
    await closePage(page);

    const lecturer = await pageAt(viewport);
    await lecturer.goto("/dosen");
    await signIn(lecturer, demo.lecturer);
    await heading(lecturer, "Mahasiswa bimbingan").waitFor();
    const card = lecturer.locator(".student-list > li").filter({ hasText: student.nama });
    await card.getByText("Membalas catatan Anda").waitFor();
    await card.getByText("Stres sangat tinggi").waitFor();
    await checkPage(lecturer, "bimbingan-balasan-baru", viewport);
    await card.getByRole("link", { name: student.nama }).click();
    await heading(lecturer, student.nama).waitFor();
    const written = lecturer.locator(".note-list > li").filter({ hasText: "bisa kita bicara?" });
    await written.getByText("Balasan baru").waitFor();
    await written.getByText(/^Dibaca mahasiswa /).waitFor();
    await checkPage(lecturer, "detail-balasan-baru", viewport);
    // Seen once: back in the list the reply is no longer new.
    await lecturer.goto("/dosen");
    await heading(lecturer, "Mahasiswa bimbingan").waitFor();
    await card.getByText("Stres sangat tinggi").waitFor();
    expect(await card.getByText("Membalas catatan Anda").count()).toBe(0);
    await closePage(lecturer);
  });

  test("a case handed to another lecturer: the advisor reads it with the handler named, read-only; the handler acts on it and reads the student", async () => {
    const admin = await tokenOf(demo.admin);
    const cases = await call<{ data: { id: number; NIM: string }[] }>("GET", "/api/dosen/tindak-lanjut?per_page=100", admin);
    const kasus = cases.body.data.find((each) => each.NIM === student.nim)!;
    expect((await call("PUT", `/api/dosen/tindak-lanjut/${kasus.id}/pemilik`, admin, { NIP: demo.otherLecturer.nip })).status).toBe(200);

    const advisor = await pageAt(viewport);
    await advisor.goto(`/dosen/tindak-lanjut/${kasus.id}`);
    await signIn(advisor, demo.lecturer);
    await heading(advisor, `Tindak lanjut: ${student.nama}`).waitFor();
    const facts = advisor.locator(".student-facts");
    expect(await facts.locator("div").filter({ hasText: /^Penangan/ }).locator("dd").textContent()).toBe(demo.otherLecturer.nama);
    expect(await facts.locator("div").filter({ hasText: /^Dosen wali/ }).locator("dd").textContent()).toBe(demo.lecturer.nama);
    // One full stop after "M.Kom.".
    await advisor.getByText(`Tindak lanjut ini ditangani ${demo.otherLecturer.nama} Hanya penangan dan admin yang dapat mengubah statusnya; Anda tetap dapat membacanya.`).waitFor();
    expect(await advisor.getByRole("radio").count()).toBe(0);
    expect(await advisor.getByText("Stres tinggi dengan motivasi rendah").count()).toBe(0);
    await advisor.getByText("Skor stres sangat tinggi").waitFor();
    await checkPage(advisor, "tindak-lanjut-dosen-wali", viewport);
    await advisor.goto("/dosen/tindak-lanjut");
    await advisor.locator(".student-list > li").filter({ hasText: student.nama }).getByText(`Penangan: ${demo.otherLecturer.nama}`).waitFor();
    await closePage(advisor);

    const handler = await pageAt(viewport);
    await handler.goto(`/dosen/tindak-lanjut/${kasus.id}`);
    await signIn(handler, demo.otherLecturer);
    await heading(handler, `Tindak lanjut: ${student.nama}`).waitFor();
    await handler.getByRole("radio", { name: /^Dihubungi/ }).waitFor();
    await handler.getByRole("link", { name: "Lihat data lengkap mahasiswa" }).click();
    await heading(handler, student.nama).waitFor();
    await handler.getByRole("heading", { level: 2, name: "Perkembangan hasil skrining" }).waitFor();
    await checkPage(handler, "detail-mahasiswa-penangan", viewport);
    await closePage(handler);
  });
});
