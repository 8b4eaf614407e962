import { afterEach, describe, expect, test } from "bun:test";
import { lecturerService, type Lecturers } from "../dosen/support";
import { cli } from "../cli/support";
import { sameDayTarget } from "../../src/modules/skrining/recording";
import { answersScoring } from "../skrining/measurement-cases";

// Decisions §20: a critical answer to the safety question asks for a contact the same day.
// The case is urgent (`segera`) until a contact reaches the student, and late (`terlambat`,
// §19) once that day has ended without one: in the list, the figures, the first page and the
// weekly report.

let lecturers: Lecturers | undefined;
afterEach(async () => {
  await lecturers?.service.close();
  lecturers = undefined;
});

async function urgentCase(): Promise<number> {
  lecturers = await lecturerService();
  const { service, tokens } = lecturers;
  await service.features.safety.turnOn("Konselor fakultas", "0812 3456 7890", { actor: { userId: null, username: null, role: "anonim" }, target: "test" });
  const answer = await service.request("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: answersScoring(90), jawaban_keselamatan: 4 } });
  expect(answer.status).toBe(201);
  return service.context.db.$client.query<{ id: number }, []>("SELECT Id_tindak_lanjut AS id FROM tindak_lanjut").get()!.id;
}

/** The same-day target as if the answer had come the day before: passed, no contact since. */
function targetPassed(caseId: number): void {
  const yesterday = new Date(Date.now() - 3_600_000).toISOString();
  const sqlite = lecturers!.service.context.db.$client;
  sqlite.run("UPDATE tindak_lanjut SET batas_kontak_segera = ? WHERE Id_tindak_lanjut = ?", [yesterday, caseId]);
  sqlite.run("UPDATE tindak_lanjut_riwayat SET batas_kontak_segera = ? WHERE Id_tindak_lanjut = ? AND batas_kontak_segera IS NOT NULL", [yesterday, caseId]);
}

const get = (path: string) => lecturers!.service.request("GET", path, { token: lecturers!.tokens.dosen1 });
const move = (caseId: number, body: Record<string, string>) => lecturers!.service.request("POST", `/api/dosen/tindak-lanjut/${caseId}/status`, { token: lecturers!.tokens.dosen1, body });
const weekly = async () => JSON.parse((await cli(lecturers!.service.dataDir, ["followup", "report", "--week", "--format", "json"])).stdout).fakultas.terlambat;

describe("the same-day target: the last moment of the day in the faculty's zone", () => {
  test.each([
    ["17:00 in Jakarta", "2026-12-05T10:00:00.000Z", "Asia/Jakarta", "2026-12-05T16:59:59.999Z"],
    ["01:00 the next morning in Jakarta", "2026-12-05T18:00:00.000Z", "Asia/Jakarta", "2026-12-06T16:59:59.999Z"],
    ["23:30 in Makassar", "2026-12-05T15:30:00.000Z", "Asia/Makassar", "2026-12-05T15:59:59.999Z"],
    ["noon UTC", "2026-12-05T12:00:00.000Z", "UTC", "2026-12-05T23:59:59.999Z"],
  ])("%s", (_, now, zone, target) => {
    expect(sameDayTarget(Date.parse(now), zone)).toBe(target);
  });
});

describe("an urgent case", () => {
  test("before the day ends: urgent, not late, first among the cases waiting", async () => {
    const caseId = await urgentCase();
    const [listed] = (await get("/api/dosen/tindak-lanjut")).body.data;
    expect(listed).toMatchObject({ id: caseId, alasan: ["butir_kritis"], segera: true, terlambat: false });
    expect((await get("/api/dosen/hari-ini")).body.kasus[0]).toMatchObject({ id: caseId, segera: true });
    expect((await get("/api/dosen/tindak-lanjut/ringkasan")).body.fakultas.terlambat).toBe(0);
  });

  test("the day ended without a contact: late in the list, the figures and the weekly report", async () => {
    const caseId = await urgentCase();
    targetPassed(caseId);
    expect((await get("/api/dosen/tindak-lanjut")).body.data[0]).toMatchObject({ id: caseId, segera: true, terlambat: true });
    expect((await get("/api/dosen/tindak-lanjut/ringkasan")).body.fakultas.terlambat).toBe(1);
    expect(await weekly()).toBe(1);
  });

  test("an attempt that did not reach the student leaves it late; one that did ends the urgency, now and in the week's account", async () => {
    const caseId = await urgentCase();
    targetPassed(caseId);
    expect((await move(caseId, { status: "dihubungi", catatan: "Tidak diangkat.", hasil_kontak: "tidak_merespons" })).body).toMatchObject({ segera: true, terlambat: true });
    const reached = await move(caseId, { status: "dihubungi", catatan: "Sudah bicara.", hasil_kontak: "berhasil" });
    expect(reached.body).toMatchObject({ segera: false, terlambat: false });
    // The target is the usual one again: three days after the opening.
    expect(reached.body.batas_kontak_pada).toBe(new Date(Date.parse(reached.body.dibuka_pada) + 3 * 86_400_000).toISOString());
    expect((await get("/api/dosen/tindak-lanjut/ringkasan")).body.fakultas.terlambat).toBe(0);
    expect(await weekly()).toBe(0);
  });

  test("a reopened case starts a new episode without the old urgency", async () => {
    const caseId = await urgentCase();
    expect((await move(caseId, { status: "selesai", catatan: "Dirujuk.", alasan_selesai: "dirujuk_layanan_konseling", perlu_dukungan: "ya" })).status).toBe(200);
    const reopened = await move(caseId, { status: "baru", catatan: "Dibuka lagi." });
    expect(reopened.body).toMatchObject({ status: "baru", segera: false, alasan: ["butir_kritis"] });
  });
});
