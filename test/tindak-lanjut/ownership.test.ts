import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { addScreening, type Lecturers } from "../dosen/support";
import { caseTexts, flaggedAnswers, moveBody, serviceWithCase, storedCases, storedTimeline, submit } from "./support";

// Decisions §13: the student's advisor (dosen wali) and the case's handler (penangan) are
// two roles. D001 advises N001, whose case opened with D001 as handler; D002 and D003
// ("tanpaBimbingan") are other lecturers.

let fixture: Lecturers & { caseId: number };
let service: Lecturers["service"];
beforeEach(async () => {
  fixture = await serviceWithCase();
  service = fixture.service;
});
afterEach(() => service.close());

type Caller = keyof Lecturers["tokens"];
const get = (caller: Caller, path: string) => service.request("GET", path, { token: fixture.tokens[caller] });
const caseOf = (caller: Caller) => get(caller, `/api/dosen/tindak-lanjut/${fixture.caseId}`);
const move = (caller: Caller, status: string, catatan = "Catatan.") =>
  service.request("POST", `/api/dosen/tindak-lanjut/${fixture.caseId}/status`, { token: fixture.tokens[caller], body: moveBody(status, catatan) });
const handOver = (nip: string) => service.request("PUT", `/api/dosen/tindak-lanjut/${fixture.caseId}/pemilik`, { token: fixture.tokens.admin, body: { NIP: nip } });
const listIds = async (caller: Caller) => (await get(caller, "/api/dosen/tindak-lanjut")).body.data.map((row: { id: number }) => row.id);
/** Moves N001 to another advisor as a roster re-import does. */
const moveStudentTo = (nip: string) =>
  service.importAccounts(`role,username,password,nim,nama,nip_doswal,activated\nmahasiswa,mhs1,mhs-pass-1,N001,Mahasiswa Satu,${nip},true\n`);

/** The student's routes a lecturer in the advisor scope may read (decisions §9), as the web's pages call them. */
const studentRoutes = ["/api/dosen/mahasiswa/N001", "/api/mahasiswa/hasil/N001", "/api/mahasiswa/mood/N001", "/api/mahasiswa/diary/N001", "/api/dosen/catatan/N001", "/api/mahasiswa/profil/data/N001"];

describe("a case handed to another lecturer (PUT .../pemilik)", () => {
  beforeEach(async () => {
    expect((await handOver("D003")).status).toBe(200);
  });

  test("its handler reads the student as an advisor would, while the case is open", async () => {
    for (const path of studentRoutes) expect({ path, status: (await get("tanpaBimbingan", path)).status }).toEqual({ path, status: 200 });
    const note = await service.request("POST", "/api/dosen/catatan", { token: fixture.tokens.tanpaBimbingan, body: { NIM: "N001", isi_catatan: "Saya konselor fakultas; mari bertemu." } });
    expect(note.status).toBe(201);
  });

  test("the advisor keeps reading the student and sees the case with its handler's name, read-only", async () => {
    for (const path of studentRoutes) expect({ path, status: (await get("dosen1", path)).status }).toEqual({ path, status: 200 });
    expect((await caseOf("dosen1")).body).toMatchObject({ NIP: "D003", nama_dosen: "Dosen Tiga", NIP_doswal: "D001", nama_doswal: "Dosen Satu", dapat_diubah: false });
    expect((await get("dosen1", "/api/dosen/mahasiswa/N001")).body.tindak_lanjut).toMatchObject({ NIP: "D003", NIP_doswal: "D001", dapat_diubah: false });
    const refused = await move("dosen1", "dihubungi");
    expect(refused).toMatchObject({ status: 403, body: { error: caseTexts.handlerOnly } });
    expect(storedCases(service)[0]).toMatchObject({ status: "baru", NIP: "D003" });
  });

  test("both find it in their list; only the handler and admins change its status", async () => {
    expect(await listIds("dosen1")).toEqual([fixture.caseId]);
    expect(await listIds("tanpaBimbingan")).toEqual([fixture.caseId]);
    expect(await listIds("dosen2")).toEqual([]);
    expect((await move("tanpaBimbingan", "dihubungi")).body).toMatchObject({ status: "dihubungi", dapat_diubah: true });
    expect((await move("admin", "dirujuk")).status).toBe(200);
    expect((await move("dosen2", "selesai")).body).toEqual({ error: caseTexts.notAdvisee });
  });

  test("once closed, the handler reads nothing new of the student; the case stays readable with the levels up to its closing", async () => {
    expect((await move("tanpaBimbingan", "selesai", "Sudah ditangani.")).status).toBe(200);
    // A screening after the closing.
    addScreening(service, "N001", Date.now() + 60_000, "Rendah", "Tinggi", 60, 10);
    for (const path of studentRoutes) expect({ path, body: (await get("tanpaBimbingan", path)).body }).toEqual({ path, body: { error: caseTexts.notAdvisee } });
    const asHandler = await caseOf("tanpaBimbingan");
    expect(asHandler.status).toBe(200);
    expect(asHandler.body.tingkat_terakhir.map((row: { tingkat_stres: string }) => row.tingkat_stres)).toEqual(["Tinggi"]);
    // The advisor sees the student's levels as they are now.
    expect((await caseOf("dosen1")).body.tingkat_terakhir.map((row: { tingkat_stres: string }) => row.tingkat_stres)).toEqual(["Rendah", "Tinggi"]);
  });

  test("reopening is for the current advisor (who then handles it) and admins, not the former handler", async () => {
    expect((await move("tanpaBimbingan", "selesai")).status).toBe(200);
    expect(await move("tanpaBimbingan", "baru")).toMatchObject({ status: 403, body: { error: caseTexts.reopenAdvisorOnly } });
    expect(storedCases(service)[0]).toMatchObject({ status: "selesai", NIP: "D003" });
    const reopened = await move("dosen1", "baru", "Perlu ditindaklanjuti lagi.");
    expect(reopened.body).toMatchObject({ status: "baru", NIP: "D001", dapat_diubah: true });
    expect(reopened.body.riwayat.slice(-2)).toMatchObject([
      { status_dari: "selesai", status_ke: "baru", catatan: "Perlu ditindaklanjuti lagi.", oleh: "Dosen Satu" },
      { status_dari: "baru", status_ke: "baru", catatan: "Ditangani Dosen Satu (D001) sejak dibuka kembali.", oleh: "Dosen Satu" },
    ]);
  });

  test("an admin's reopening gives the case to the student's advisor", async () => {
    expect((await move("tanpaBimbingan", "selesai")).status).toBe(200);
    expect((await move("admin", "baru")).body).toMatchObject({ status: "baru", NIP: "D001" });
  });
});

describe("the roster moves a student to another advisor (decisions §13)", () => {
  test("an open case handled by the former advisor moves to the new one, with a timeline entry by Sistem", async () => {
    await moveStudentTo("D002");
    expect(storedCases(service)).toMatchObject([{ id: fixture.caseId, NIP: "D002", status: "baru" }]);
    expect(storedTimeline(service).at(-1)).toMatchObject({
      status_dari: "baru",
      status_ke: "baru",
      nama: "Sistem",
      Id_User: null,
      catatan: "Dosen wali mahasiswa berganti dari Dosen Satu (D001) ke Dosen Dua (D002); tindak lanjut yang terbuka ikut berpindah ke dosen wali yang baru.",
    });
    expect((await caseOf("dosen2")).body).toMatchObject({ NIP: "D002", NIP_doswal: "D002", dapat_diubah: true });
    expect((await caseOf("dosen1")).body).toEqual({ error: caseTexts.notAdvisee });
    expect(await listIds("dosen1")).toEqual([]);
  });

  test("a case an admin handed to a third lecturer stays with them", async () => {
    await handOver("D003");
    await moveStudentTo("D002");
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D003" });
    expect(storedTimeline(service).filter((entry) => entry.nama === "Sistem")).toHaveLength(1);
    expect((await caseOf("dosen2")).body).toMatchObject({ NIP: "D003", NIP_doswal: "D002", dapat_diubah: false });
  });

  test("a closed case stays with its former handler, read-only, levels up to its closing; the new advisor reopens it and gets it", async () => {
    expect((await move("dosen1", "selesai")).status).toBe(200);
    await moveStudentTo("D002");
    addScreening(service, "N001", Date.now() + 60_000, "Sedang", "Sedang", 100, 1);
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D001", status: "selesai" });
    const former = await caseOf("dosen1");
    expect(former.body).toMatchObject({ NIP: "D001", NIP_doswal: "D002", dapat_diubah: false });
    expect(former.body.tingkat_terakhir).toHaveLength(1);
    expect(await move("dosen1", "baru")).toMatchObject({ status: 403, body: { error: caseTexts.reopenAdvisorOnly } });
    expect((await get("dosen1", "/api/mahasiswa/hasil/N001")).body).toEqual({ error: caseTexts.notAdvisee });
    expect((await move("dosen2", "baru", "Dibuka lagi oleh dosen wali baru.")).body).toMatchObject({ status: "baru", NIP: "D002" });
  });

  test("the new advisor gets the next case: nothing left open blocks it", async () => {
    expect((await move("dosen1", "selesai")).status).toBe(200);
    await moveStudentTo("D002");
    expect(await move("dosen1", "baru")).toMatchObject({ status: 403 });
    await submit(service, fixture.tokens.admin, flaggedAnswers, "N001");
    expect(storedCases(service).map((row) => [row.NIP, row.status])).toEqual([
      ["D001", "selesai"],
      ["D002", "baru"],
    ]);
  });

  test("a student left without an advisor: the open case waits for the admins, and follows the next advisor", async () => {
    service.context.db.$client.run("UPDATE mahasiswa SET NIP_doswal = NULL WHERE NIM = 'N001'");
    expect(storedCases(service)[0]).toMatchObject({ NIP: null });
    expect((await caseOf("admin")).body).toMatchObject({ NIP: null, NIP_doswal: null, dapat_diubah: true });
    await moveStudentTo("D002");
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D002" });
  });

  test("a lecturer's NIP renamed is no change of advisor: the case follows through its foreign key, no timeline entry", async () => {
    service.context.db.$client.run("UPDATE dosen SET NIP = 'D001-BARU' WHERE NIP = 'D001'");
    expect(storedCases(service)[0]).toMatchObject({ NIP: "D001-BARU" });
    expect(storedTimeline(service)).toHaveLength(1);
  });
});
