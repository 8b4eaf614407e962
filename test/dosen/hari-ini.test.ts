import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { fourthStudent } from "../helpers";
import { flaggedAnswers, moveBody, storedCases, submit } from "../tindak-lanjut/support";
import { addNote, addScreening, type Lecturers, lecturerService } from "./support";

// Decisions §19: a lecturer's first page answers "who needs me today": the cases waiting for
// them, the closings new to them, the students who replied, then the advisees at risk.

let lecturers: Lecturers;
let service: Lecturers["service"];
beforeEach(async () => {
  lecturers = await lecturerService(fourthStudent);
  service = lecturers.service;
});
afterEach(() => service.close());

type Caller = keyof Lecturers["tokens"];
const today = async (caller: Caller) => service.request("GET", "/api/dosen/hari-ini", { token: lecturers.tokens[caller] });
const day = 24 * 3600 * 1000;
const nims = (items: { NIM: string }[]) => items.map((item) => item.NIM);
const replyTo = async (noteId: number, text: string) => {
  const token = (await service.login("mhs1", "mhs-pass-1")).access;
  expect((await service.request("POST", `/api/mahasiswa/catatan/${noteId}/reply`, { token, body: { reply: text } })).status).toBe(200);
};

describe("GET /api/dosen/hari-ini", () => {
  test("the waiting cases (late first), the replies, the advisees at risk, each with its count", async () => {
    // N001 (D001) screens into a case; N004 (D001) has a case opened 4 days ago, past the 3-day target.
    await submit(service, lecturers.tokens.mhs1, flaggedAnswers);
    await submit(service, lecturers.tokens.admin, flaggedAnswers, "N004");
    const [first, late] = storedCases(service);
    service.context.db.$client.run("UPDATE tindak_lanjut SET dibuka_pada = ? WHERE Id_tindak_lanjut = ?", [new Date(Date.now() - 4 * day).toISOString(), late!.id]);
    const note = addNote(service, "N001", "D001", "Bagaimana kabarmu?", new Date().toISOString());
    await replyTo(note, "Boleh saya ketemu Bapak minggu ini?");

    const page = await today("dosen1");
    expect(page.status).toBe(200);
    expect(page.body.kasus.map((row: { id: number; terlambat: boolean }) => [row.id, row.terlambat])).toEqual([
      [late!.id, true],
      [first!.id, false],
    ]);
    expect(page.body.balasan).toEqual([
      { NIM: "N001", nama_mahasiswa: "Mahasiswa Satu", balasan_baru: 1, tanggal_balasan: expect.any(String), dapat_dibuka: true, id_tindak_lanjut: first!.id },
    ]);
    expect(nims(page.body.berisiko).sort()).toEqual(["N001", "N004"]);
    expect(page.body.berisiko.find((row: { NIM: string }) => row.NIM === "N001")).toMatchObject({ early_warning: true, tingkat_stres: "Tinggi", id_tindak_lanjut: first!.id });
    expect(page.body.jumlah).toEqual({ kasus: 2, baru_ditutup: 0, balasan: 1, berisiko: 2, bimbingan: 2, ditangani: 2 });

    // A case contacted in time no longer waits; a reply seen no longer counts.
    await service.request("POST", `/api/dosen/tindak-lanjut/${first!.id}/status`, { token: lecturers.tokens.dosen1, body: moveBody("dihubungi", "Ditelepon.") });
    await service.request("GET", "/api/dosen/mahasiswa/N001", { token: lecturers.tokens.dosen1 });
    expect((await today("dosen1")).body.jumlah).toMatchObject({ kasus: 1, balasan: 0 });
  });

  test("the counsellor: no advisees, the case she handles, and after it closed the reply to her note, with the case to read it in", async () => {
    await submit(service, lecturers.tokens.mhs1, flaggedAnswers);
    const [opened] = storedCases(service);
    await service.request("PUT", `/api/dosen/tindak-lanjut/${opened!.id}/pemilik`, { token: lecturers.tokens.admin, body: { NIP: "D003" } });
    const counsellor = await today("tanpaBimbingan");
    expect(counsellor.body.jumlah).toEqual({ kasus: 1, baru_ditutup: 0, balasan: 0, berisiko: 0, bimbingan: 0, ditangani: 1 });
    expect(counsellor.body.kasus[0]).toMatchObject({ id: opened!.id, NIM: "N001", NIP: "D003", NIP_doswal: "D001" });

    const note = await service.request("POST", "/api/dosen/catatan", { token: lecturers.tokens.tanpaBimbingan, body: { NIM: "N001", isi_catatan: "Balas catatan ini." } });
    await service.request("POST", `/api/dosen/tindak-lanjut/${opened!.id}/status`, { token: lecturers.tokens.tanpaBimbingan, body: moveBody("selesai", "Ditutup.") });
    await replyTo(note.body.id, "Hampir tidak bisa tidur.");

    const after = await today("tanpaBimbingan");
    expect(after.body.kasus).toEqual([]);
    expect(after.body.balasan).toEqual([
      { NIM: "N001", nama_mahasiswa: "Mahasiswa Satu", balasan_baru: 1, tanggal_balasan: expect.any(String), dapat_dibuka: false, id_tindak_lanjut: opened!.id },
    ]);
    // The advisor: the closing is news, the counsellor's reply too.
    const advisor = await today("dosen1");
    expect(advisor.body.baru_ditutup.map((row: { id: number; alasan_selesai: string }) => [row.id, row.alasan_selesai])).toEqual([[opened!.id, "teratasi"]]);
    expect(advisor.body.jumlah).toMatchObject({ baru_ditutup: 1, balasan: 1 });
  });

  test("a restricted student is on nobody's first page", async () => {
    await submit(service, lecturers.tokens.mhs1, flaggedAnswers);
    const note = addNote(service, "N001", "D001", "Halo", new Date().toISOString());
    await replyTo(note, "Halo juga");
    service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'");
    expect((await today("dosen1")).body.jumlah).toEqual({ kasus: 0, baru_ditutup: 0, balasan: 0, berisiko: 0, bimbingan: 2, ditangani: 1 });
  });

  test("a very high stress score puts an advisee at risk whatever the motivation", async () => {
    addScreening(service, "N004", Date.now(), "Tinggi", "Sedang", 160, 1);
    expect((await today("dosen1")).body.berisiko).toEqual([expect.objectContaining({ NIM: "N004", early_warning: false, stres_sangat_tinggi: true })]);
  });

  test.each([
    ["an admin", "admin", 403],
    ["a student", "mhs1", 403],
  ] as const)("%s → %d", async (_name, caller, status) => {
    expect(await today(caller)).toMatchObject({ status, body: { error: "Akses ditolak." } });
  });

  test("a dosen account without a lecturer profile gets an empty page", async () => {
    expect((await today("tanpaProfil")).body).toEqual({ kasus: [], baru_ditutup: [], balasan: [], berisiko: [], jumlah: { kasus: 0, baru_ditutup: 0, balasan: 0, berisiko: 0, bimbingan: 0, ditangani: 0 } });
  });

  test("one view row naming every student the page shows", async () => {
    await submit(service, lecturers.tokens.mhs1, flaggedAnswers);
    await today("dosen1");
    await service.context.audit.flush();
    const rows = service.context.db.$client
      .query<{ action: string; nim: string }, []>(
        "SELECT action, (SELECT group_concat(nim) FROM audit_subjects WHERE audit_id = audit_log.id) AS nim FROM audit_log WHERE target = 'GET /api/dosen/hari-ini'",
      )
      .all();
    expect(rows).toEqual([{ action: "view", nim: "N001" }]);
  });
});
