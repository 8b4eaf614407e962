import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { passwords } from "../helpers";
import { type Lecturers, lecturerService } from "./support";

// Decisions §19: when a student's advisor changes, the student is told on Beranda for 14
// days (`GET /api/auth/me` carries `pergantian_dosen_wali`), and the former advisor's page
// of the student says the student moved, while the API stays 403.

let lecturers: Lecturers;
beforeEach(async () => {
  lecturers = await lecturerService();
});
afterEach(() => {
  setSystemTime();
  lecturers.service.close();
});

const as = (who: keyof Lecturers["tokens"], method: string, path: string) => lecturers.service.request(method, path, { token: lecturers.tokens[who] });
const moveN001To = (nip: string) => lecturers.service.importAccounts(`role,username,password,nim,nip_doswal\nmahasiswa,mhs1,,N001,${nip}\n`);
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const day = 24 * 3600 * 1000;

describe("GET /api/auth/me: pergantian_dosen_wali", () => {
  test("absent until the advisor changes; then both names and when, for 14 days", async () => {
    expect((await as("mhs1", "GET", "/api/auth/me")).body).not.toHaveProperty("pergantian_dosen_wali");
    await moveN001To("D002");
    const me = await as("mhs1", "GET", "/api/auth/me");
    // Read before the matchers: bun's toMatchObject leaves its asymmetric matchers in the object it compared.
    const changedAt = Date.parse(me.body.pergantian_dosen_wali.tanggal);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ NIM: "N001", pergantian_dosen_wali: { nama_sebelumnya: "Dosen Satu", nama_baru: "Dosen Dua", tanggal: expect.stringMatching(isoTimestamp) } });
    // Two weeks on, with a token of the day (an access token lives 8 hours).
    const meAt = async (moment: number) => {
      setSystemTime(new Date(moment));
      const { access } = await lecturers.service.login("mhs1", passwords.mhs1);
      return (await lecturers.service.request("GET", "/api/auth/me", { token: access })).body;
    };
    expect(await meAt(changedAt + 14 * day - 1000)).toHaveProperty("pergantian_dosen_wali");
    expect(await meAt(changedAt + 14 * day)).not.toHaveProperty("pergantian_dosen_wali");
  });

  test("the latest change counts; a student given no advisor is told so (nama_baru null); nobody else's answer changes", async () => {
    await moveN001To("D002");
    await moveN001To("D003");
    expect((await as("mhs1", "GET", "/api/auth/me")).body.pergantian_dosen_wali).toMatchObject({ nama_sebelumnya: "Dosen Dua", nama_baru: "Dosen Tiga" });
    lecturers.service.context.db.$client.run("UPDATE mahasiswa SET NIP_doswal = NULL WHERE NIM = 'N001'");
    expect((await as("mhs1", "GET", "/api/auth/me")).body.pergantian_dosen_wali).toMatchObject({ nama_sebelumnya: "Dosen Tiga", nama_baru: null });
    for (const who of ["dosen1", "admin"] as const) expect((await as(who, "GET", "/api/auth/me")).body).not.toHaveProperty("pergantian_dosen_wali");
  });
});

describe("the former advisor's read of the student", () => {
  test("403 with the text of the advisor scope and pindah_dosen_wali; a lecturer who never advised the student gets the text alone", async () => {
    await moveN001To("D002");
    const former = await as("dosen1", "GET", "/api/dosen/mahasiswa/N001");
    expect(former.status).toBe(403);
    expect(former.body).toEqual({ error: "Mahasiswa bukan bimbingan Anda.", pindah_dosen_wali: { tanggal: expect.stringMatching(isoTimestamp), nama_dosen_wali_baru: "Dosen Dua" } });
    expect(await as("tanpaBimbingan", "GET", "/api/dosen/mahasiswa/N001")).toMatchObject({ status: 403, body: { error: "Mahasiswa bukan bimbingan Anda." } });
    expect((await as("tanpaBimbingan", "GET", "/api/dosen/mahasiswa/N001")).body).not.toHaveProperty("pindah_dosen_wali");
    // The other student routes answer as before.
    expect((await as("dosen1", "GET", "/api/mahasiswa/mood/N001")).body).toEqual({ error: "Mahasiswa bukan bimbingan Anda." });
    // The new advisor reads the student.
    expect((await as("dosen2", "GET", "/api/dosen/mahasiswa/N001")).status).toBe(200);
  });

  test("an unknown student is still 404 first", async () => {
    expect(await as("dosen1", "GET", "/api/dosen/mahasiswa/X404")).toMatchObject({ status: 404, body: { error: "Mahasiswa tidak ditemukan." } });
  });
});
