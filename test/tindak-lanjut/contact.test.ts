import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { testEnvironment } from "../helpers";
import type { Lecturers } from "../dosen/support";
import { serviceWithCase, storedTimeline } from "./support";

// Decisions §19: contact is counted honestly (hasil_kontak, attempts, a first contact only
// when the student was reached), a case closes with a reason and a judgement, an open case
// not reached by the contact target is late, and a closing is news for the advisor.

let fixture: Lecturers & { caseId: number };
let service: Lecturers["service"];
beforeEach(async () => {
  fixture = await serviceWithCase();
  service = fixture.service;
});
afterEach(() => service.close());

type Caller = keyof Lecturers["tokens"];
const move = (caller: Caller, body: Record<string, unknown>) => service.request("POST", `/api/dosen/tindak-lanjut/${fixture.caseId}/status`, { token: fixture.tokens[caller], body });
const contact = (hasil_kontak: string, caller: Caller = "dosen1") => move(caller, { status: "dihubungi", catatan: `Kontak: ${hasil_kontak}.`, hasil_kontak });
const close = (alasan_selesai: string, perlu_dukungan = "tidak", caller: Caller = "dosen1") => move(caller, { status: "selesai", catatan: "Ditutup.", alasan_selesai, perlu_dukungan });
const caseOf = (caller: Caller) => service.request("GET", `/api/dosen/tindak-lanjut/${fixture.caseId}`, { token: fixture.tokens[caller] });
const listed = async (caller: Caller) => (await service.request("GET", "/api/dosen/tindak-lanjut", { token: fixture.tokens[caller] })).body.data;
const stored = () =>
  service.context.db.$client
    .query<{ status: string; kontak: string | null; alasan: string | null; dukungan: number | null }, [number]>(
      "SELECT status, pertama_dihubungi_pada AS kontak, alasan_selesai AS alasan, perlu_dukungan AS dukungan FROM tindak_lanjut WHERE Id_tindak_lanjut = ?",
    )
    .get(fixture.caseId)!;
const day = 24 * 3600 * 1000;
/** The case as opened `days` ago (its timeline's opening too, so that the figures agree). */
function openedDaysAgo(days: number): void {
  const at = new Date(Date.now() - days * day).toISOString();
  service.context.db.$client.run("UPDATE tindak_lanjut SET dibuka_pada = ? WHERE Id_tindak_lanjut = ?", [at, fixture.caseId]);
  service.context.db.$client.run("UPDATE tindak_lanjut_riwayat SET waktu = ? WHERE Id_tindak_lanjut = ? AND status_dari IS NULL", [at, fixture.caseId]);
}

describe("contact outcomes", () => {
  test("a referral leaves pertama_dihubungi_pada empty, and so does closing straight from baru", async () => {
    expect((await move("dosen1", { status: "dirujuk", catatan: "Dirujuk ke konselor fakultas." })).body).toMatchObject({ status: "dirujuk", pertama_dihubungi_pada: null });
    expect((await close("dirujuk_layanan_konseling")).body).toMatchObject({ status: "selesai", pertama_dihubungi_pada: null });
    expect(stored().kontak).toBeNull();
  });

  test("an attempt without a response is recorded but is no first contact; a scheduled meeting is", async () => {
    const first = await contact("tidak_merespons");
    expect(first.body).toMatchObject({ status: "dihubungi", pertama_dihubungi_pada: null, percobaan_kontak: 1 });
    expect(first.body.riwayat.at(-1)).toMatchObject({ jenis: "status", status_dari: "baru", status_ke: "dihubungi", hasil_kontak: "tidak_merespons", oleh: "Dosen Satu" });
    // dihubungi → dihubungi: one more attempt, a timeline entry of its own.
    const second = await contact("dijadwalkan");
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: "dihubungi", percobaan_kontak: 2, pertama_dihubungi_pada: second.body.diperbarui_pada });
    expect(second.body.riwayat.at(-1)).toMatchObject({ jenis: "percobaan_kontak", status_dari: "dihubungi", status_ke: "dihubungi", hasil_kontak: "dijadwalkan" });
    // A later success keeps the first contact's time.
    const third = await contact("berhasil");
    expect(third.body).toMatchObject({ percobaan_kontak: 3, pertama_dihubungi_pada: second.body.pertama_dihubungi_pada });
    expect(storedTimeline(service).map((entry) => entry.status_ke)).toEqual(["baru", "dihubungi", "dihubungi", "dihubungi"]);
  });

  test("berhasil at the first move sets the first contact", async () => {
    expect((await contact("berhasil")).body.pertama_dihubungi_pada).toMatch(/Z$/);
  });
});

describe("closing needs a reason and a judgement", () => {
  test("the reason and the judgement are kept on the case and its closing entry", async () => {
    const closed = await close("teratasi", "ya");
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "selesai", alasan_selesai: "teratasi", perlu_dukungan: "ya" });
    expect(closed.body.riwayat.at(-1)).toMatchObject({ jenis: "status", status_ke: "selesai", alasan_selesai: "teratasi", perlu_dukungan: "ya", hasil_kontak: null });
    expect(stored()).toMatchObject({ status: "selesai", alasan: "teratasi", dukungan: 1 });
  });

  test("lainnya is explained in the note", async () => {
    const closed = await move("dosen1", { status: "selesai", catatan: "Mahasiswa pindah kampus.", alasan_selesai: "lainnya", perlu_dukungan: "tidak" });
    expect(closed.body).toMatchObject({ alasan_selesai: "lainnya", perlu_dukungan: "tidak" });
    expect(closed.body.riwayat.at(-1).catatan).toBe("Mahasiswa pindah kampus.");
  });

  test("tidak_merespons before 3 recorded attempts → 400, nothing written; after them → 200", async () => {
    const tooSoon = (attempts: number) =>
      `alasan_selesai tidak_merespons baru boleh dipakai setelah paling sedikit 3 percobaan kontak tercatat (status dihubungi); baru ${attempts} tercatat.`;
    expect(await close("tidak_merespons")).toMatchObject({ status: 400, body: { error: tooSoon(0) } });
    await contact("tidak_merespons");
    await contact("tidak_merespons");
    const before = storedTimeline(service).length;
    expect(await close("tidak_merespons")).toMatchObject({ status: 400, body: { error: tooSoon(2) } });
    expect(storedTimeline(service)).toHaveLength(before);
    expect(stored().status).toBe("dihubungi");
    await contact("tidak_merespons");
    expect((await close("tidak_merespons")).body).toMatchObject({ status: "selesai", alasan_selesai: "tidak_merespons", pertama_dihubungi_pada: null });
  });

  test("the move is checked before the attempts: a closed case answers 409", async () => {
    await close("teratasi");
    expect(await close("tidak_merespons")).toMatchObject({ status: 409, body: { error: "Status tidak dapat diubah dari selesai ke selesai." } });
  });

  test("a reopening clears the reason and the judgement and starts counting attempts again", async () => {
    await contact("tidak_merespons");
    await close("teratasi", "ya");
    const reopened = await move("dosen1", { status: "baru", catatan: "Mahasiswa menghubungi lagi." });
    expect(reopened.body).toMatchObject({ status: "baru", alasan_selesai: null, perlu_dukungan: null, percobaan_kontak: 0, pertama_dihubungi_pada: null });
    // The earlier closing keeps its reason in the timeline.
    expect(reopened.body.riwayat.find((entry: { status_ke: string }) => entry.status_ke === "selesai")).toMatchObject({ alasan_selesai: "teratasi", perlu_dukungan: "ya" });
  });
});

describe("terlambat: the contact target", () => {
  test("late from exactly the target's days after opening until a contact reaches the student; listed first; counted in the figures", async () => {
    openedDaysAgo(3 - 1 / 24);
    expect((await caseOf("dosen1")).body).toMatchObject({ terlambat: false });
    openedDaysAgo(3);
    const late = await caseOf("dosen1");
    expect(late.body).toMatchObject({ terlambat: true, status: "baru" });
    expect(Date.parse(late.body.batas_kontak_pada) - Date.parse(late.body.dibuka_pada)).toBe(3 * day);
    expect((await service.request("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: fixture.tokens.dosen1 })).body.fakultas).toMatchObject({ terlambat: 1 });
    // A referral or an unanswered attempt reaches nobody; a scheduled meeting does.
    expect((await contact("tidak_merespons")).body.terlambat).toBe(true);
    expect((await contact("dijadwalkan")).body.terlambat).toBe(false);
    expect((await service.request("GET", "/api/dosen/tindak-lanjut/ringkasan", { token: fixture.tokens.dosen1 })).body.fakultas).toMatchObject({ terlambat: 0 });
  });

  test("a closed case is never late", async () => {
    openedDaysAgo(10);
    expect((await close("teratasi")).body).toMatchObject({ terlambat: false });
  });

  test("SKRINING_FOLLOW_UP_CONTACT_DAYS (serve --follow-up-contact-days) sets the target, 1–30", () => {
    const dataDir = service.dataDir;
    expect(loadConfig(dataDir, { ...testEnvironment }).followUpContactDays).toBe(3);
    expect(loadConfig(dataDir, { ...testEnvironment, SKRINING_FOLLOW_UP_CONTACT_DAYS: "7" }).followUpContactDays).toBe(7);
    for (const bad of ["0", "31", "2.5", "tiga"]) {
      expect(() => loadConfig(dataDir, { ...testEnvironment, SKRINING_FOLLOW_UP_CONTACT_DAYS: bad })).toThrow(
        `SKRINING_FOLLOW_UP_CONTACT_DAYS harus bilangan bulat antara 1 dan 30 (diberikan: ${bad}).`,
      );
    }
  });
});

describe("baru_ditutup: a closing is news for the advisor", () => {
  beforeEach(async () => {
    // A counsellor (D003) handles D001's advisee's case.
    expect((await service.request("PUT", `/api/dosen/tindak-lanjut/${fixture.caseId}/pemilik`, { token: fixture.tokens.admin, body: { NIP: "D003" } })).status).toBe(200);
  });

  test("the advisor sees it new with its reason, on the list and once on the case; the handler and admins never do", async () => {
    expect((await close("dirujuk_layanan_konseling", "ya", "tanpaBimbingan")).body).toMatchObject({ baru_ditutup: false });
    const [item] = await listed("dosen1");
    expect(item).toMatchObject({ id: fixture.caseId, baru_ditutup: true, alasan_selesai: "dirujuk_layanan_konseling", perlu_dukungan: "ya" });
    expect((await listed("tanpaBimbingan"))[0]).toMatchObject({ baru_ditutup: false });
    expect((await caseOf("admin")).body).toMatchObject({ baru_ditutup: false });
    expect((await caseOf("dosen1")).body).toMatchObject({ baru_ditutup: true });
    expect((await caseOf("dosen1")).body).toMatchObject({ baru_ditutup: false });
    expect((await listed("dosen1"))[0]).toMatchObject({ baru_ditutup: false });
  });

  test("reopened and closed again, it is news again", async () => {
    await close("teratasi", "tidak", "tanpaBimbingan");
    await caseOf("dosen1");
    await move("admin", { status: "baru", catatan: "Dibuka lagi." });
    await service.request("PUT", `/api/dosen/tindak-lanjut/${fixture.caseId}/pemilik`, { token: fixture.tokens.admin, body: { NIP: "D003" } });
    await close("mahasiswa_menolak", "tidak", "tanpaBimbingan");
    expect((await listed("dosen1"))[0]).toMatchObject({ baru_ditutup: true, alasan_selesai: "mahasiswa_menolak" });
  });

  test("a case the advisor closed themselves is no news to them", async () => {
    await service.request("PUT", `/api/dosen/tindak-lanjut/${fixture.caseId}/pemilik`, { token: fixture.tokens.admin, body: { NIP: "D001" } });
    await close("teratasi");
    expect((await listed("dosen1"))[0]).toMatchObject({ baru_ditutup: false });
  });
});
