import { afterEach, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { InvalidInput } from "../../src/errors";
import { lecturerService, type Lecturers } from "../dosen/support";
import { jawaban, runCli, temporaryDir, testEnvironment, TestService, standardAccounts } from "../helpers";
import { calmAnswers, flaggedAnswers, storedCases, stressScoring, veryHighStressAnswers } from "./support";

// Decisions §13: every student at risk reaches a person, and is told whether one was alerted.

let lecturers: Lecturers;
afterEach(() => lecturers?.service.close());

const submitAs = async (service: TestService, token: string, answers: Record<string, unknown>, nim?: string) => {
  const response = await service.request("POST", "/api/mahasiswa/kuesioner", { token, body: { jawaban: answers, ...(nim ? { NIM: nim } : {}) } });
  expect(response.status).toBe(201);
  return response.body;
};

describe("the student is told whether a person was alerted (tindak_lanjut on the submission and on hasil)", () => {
  test("5 on every stress item with motivation Sedang: a case for the advisor, said on the answer and on hasil", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    const answer = await submitAs(service, tokens.mhs1, veryHighStressAnswers);
    expect(answer).toMatchObject({ tingkat_stres: "Tinggi", tingkat_motivasi: "Sedang", score_stress: 200, tindak_lanjut: { dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" } });
    expect((await service.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).body.tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" });
    // The advisor's list marks the student too.
    const listed = await service.request("GET", "/api/dosen/mahasiswa?sort=risk", { token: tokens.dosen1 });
    expect(listed.body.data[0]).toMatchObject({ NIM: "N001", early_warning: false, stres_sangat_tinggi: true });
  });

  test("a calm screening: null, nothing alerted", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    expect((await submitAs(service, tokens.mhs1, calmAnswers)).tindak_lanjut).toBeNull();
    expect((await service.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).body.tindak_lanjut).toBeNull();
  });

  test("a case still open from an earlier screening: not opened by this one, and who handles it", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    await submitAs(service, tokens.admin, flaggedAnswers, "N001");
    const [opened] = storedCases(service);
    await service.request("PUT", `/api/dosen/tindak-lanjut/${opened!.id}/pemilik`, { token: tokens.admin, body: { NIP: "D002" } });
    expect((await submitAs(service, tokens.admin, calmAnswers, "N001")).tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: false, penerima: "dosen_lain" });
  });

  test("a student without an advisor: the admins were alerted", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    expect((await submitAs(service, tokens.admin, veryHighStressAnswers, "N003")).tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: true, penerima: "admin" });
  });

  test("a restricted student: no case opens, and the answer does not pretend one did", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'");
    expect((await submitAs(service, tokens.mhs1, veryHighStressAnswers)).tindak_lanjut).toBeNull();
    expect(storedCases(service)).toEqual([]);
  });
});

describe("the threshold of stres_sangat_tinggi (SKRINING_FOLLOW_UP_STRESS_MIN, serve --follow-up-stress-min)", () => {
  test("a faculty's lower threshold opens a case for stress 140 with motivation Sedang", async () => {
    const service = new TestService({ SKRINING_FOLLOW_UP_STRESS_MIN: "140" });
    try {
      await service.importAccounts(standardAccounts);
      const { mhs1 } = await service.accessTokens(["mhs1"]);
      const answer = await submitAs(service, mhs1!, stressScoring(140));
      expect(answer.tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" });
      expect(storedCases(service)).toMatchObject([{ early: 0, sudden: 0, veryHigh: 1 }]);
      const timeline = service.context.db.$client.query<{ catatan: string }, []>("SELECT catatan FROM tindak_lanjut_riwayat").get();
      expect(timeline?.catatan).toBe("Dibuka otomatis oleh skrining: stres sangat tinggi (skor stres 140 atau lebih).");
    } finally {
      service.close();
    }
  });

  test("the default is 160", () => {
    expect(loadConfig(temporaryDir(), { ...testEnvironment }).followUpStressMin).toBe(160);
  });

  test.each(["120", "201", "150.5", "tinggi"])("%s is refused before anything is created", (value) => {
    const dataDir = temporaryDir();
    expect(() => loadConfig(`${dataDir}/baru`, { ...testEnvironment, SKRINING_FOLLOW_UP_STRESS_MIN: value })).toThrow(InvalidInput);
    expect(() => loadConfig(`${dataDir}/baru`, { ...testEnvironment, SKRINING_FOLLOW_UP_STRESS_MIN: value })).toThrow(
      `SKRINING_FOLLOW_UP_STRESS_MIN harus bilangan bulat antara 121 dan 200 (diberikan: ${value}).`,
    );
  });

  test("serve --follow-up-stress-min with a value out of range: exit 1, one line, no data folder", async () => {
    const dataDir = `${temporaryDir()}/data`;
    const result = await runCli(["--data", dataDir, "serve", "--port", "0", "--follow-up-stress-min", "100"]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("skrining: SKRINING_FOLLOW_UP_STRESS_MIN harus bilangan bulat antara 121 dan 200 (diberikan: 100).\n");
    expect(await Bun.file(`${dataDir}/skrining.db`).exists()).toBe(false);
  });

  test("jawaban all 4 (160) reaches a person with the default", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    expect((await submitAs(service, tokens.mhs1, jawaban(4, 4))).tindak_lanjut).toMatchObject({ dibuka_oleh_skrining_ini: true });
  });
});
