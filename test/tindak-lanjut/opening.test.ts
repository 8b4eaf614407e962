import { afterEach, describe, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { closeContext, createContext } from "../../src/context";
import { silentLogger } from "../../src/logger";
import { lecturerService, studentsCsv, type Lecturers } from "../dosen/support";
import { jawaban, testEnvironment } from "../helpers";
import { calmAnswers, earlierScreening, flaggedAnswers, setStatus, storedCases, storedTimeline, stressScoring, submit, veryHighStressAnswers } from "./support";

let lecturers: Lecturers;
afterEach(() => lecturers.service.close());

describe("a case opens with the screening that raises a warning", () => {
  // Below 100 students the fixed α 0.90 and SD 20 make 18 points (17.5) the smallest reliable change (decisions §20).
  const reliably = "memburuk secara andal (skor stres naik 18 poin atau lebih)";
  const only = (reasons: Partial<Record<"early" | "sudden" | "veryHigh" | "reliablyWorse", number>>) => ({ early: 0, sudden: 0, veryHigh: 0, reliablyWorse: 0, critical: 0, ...reasons });
  test.each([
    ["levels Tinggi/Rendah, first screening", null, flaggedAnswers, only({ early: 1 }), "peringatan dini (stres Tinggi dengan motivasi Rendah)"],
    ["stress 40 above the previous screening", 80, calmAnswers, only({ sudden: 1, reliablyWorse: 1 }), `perubahan mendadak (skor stres naik 30 atau lebih) dan ${reliably}`],
    ["stress 20 above the previous, ending at Sedang", 100, calmAnswers, only({ reliablyWorse: 1 }), reliably],
    ["both", 100, flaggedAnswers, only({ early: 1, sudden: 1, reliablyWorse: 1 }), `peringatan dini (stres Tinggi dengan motivasi Rendah) dan perubahan mendadak (skor stres naik 30 atau lebih) dan ${reliably}`],
    ["5 on every stress item, 1 on every motivation item (SDI 0, Sedang)", null, veryHighStressAnswers, only({ veryHigh: 1 }), "stres sangat tinggi (skor stres 160 atau lebih)"],
    ["stress exactly 160, first screening", null, stressScoring(160), only({ veryHigh: 1 }), "stres sangat tinggi (skor stres 160 atau lebih)"],
    ["all four", 150, jawaban(5, 1, { M25: 7, M26: 7, M27: 7, M28: 7 }), only({ early: 1, sudden: 1, veryHigh: 1, reliablyWorse: 1 }),
      `peringatan dini (stres Tinggi dengan motivasi Rendah) dan perubahan mendadak (skor stres naik 30 atau lebih) dan stres sangat tinggi (skor stres 160 atau lebih) dan ${reliably}`],
  ] as const)("%s: one case owned by the advisor, its opening in the timeline", async (_, previous, answers, reasons, noteReasons) => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    if (previous !== null) earlierScreening(service, "N001", "2026-01-01T00:00:00.000Z", previous);
    await submit(service, tokens.mhs1, answers);
    const screening = service.context.db.$client.query<{ id: number }, []>("SELECT max(Id_skrining) AS id FROM riwayat_skrining").get()!.id;
    expect(storedCases(service)).toEqual([{ id: 1, NIM: "N001", NIP: "D001", status: "baru", ...reasons, skrining: screening }]);
    expect(storedTimeline(service)).toEqual([
      { case_id: 1, status_dari: null, status_ke: "baru", catatan: `Dibuka otomatis oleh skrining: ${noteReasons}.`, nama: "Sistem", Id_User: null },
    ]);
  });

  test.each([
    ["calm levels, first screening", null],
    ["calm levels, stress 17 above the previous (no reliable change)", 103],
    ["calm levels, stress lower than before", 190],
  ] as const)("%s: no case", async (_, previous) => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    if (previous !== null) earlierScreening(service, "N001", "2026-01-01T00:00:00.000Z", previous);
    await submit(service, tokens.mhs1, calmAnswers);
    expect(storedCases(service)).toEqual([]);
    expect(storedTimeline(service)).toEqual([]);
  });

  test("stress 159 (Tinggi by the thresholds) with motivation Sedang, first screening: no case", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    await submit(service, tokens.mhs1, stressScoring(159));
    expect(storedCases(service)).toEqual([]);
    expect(storedTimeline(service)).toEqual([]);
  });

  test("while a case is open a new warning opens none; once it is closed, the next warning opens a new one", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    await submit(service, tokens.mhs1, flaggedAnswers);
    await submit(service, tokens.admin, flaggedAnswers, "N001");
    expect(storedCases(service).map((row) => [row.id, row.status])).toEqual([[1, "baru"]]);
    setStatus(service, 1, "selesai");
    await submit(service, tokens.admin, flaggedAnswers, "N001");
    expect(storedCases(service).map((row) => [row.id, row.status])).toEqual([
      [1, "selesai"],
      [2, "baru"],
    ]);
  });

  test("a student without an advisor: a case without an owner", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    await submit(service, tokens.admin, flaggedAnswers, "N003");
    expect(storedCases(service)).toMatchObject([{ NIM: "N003", NIP: null, status: "baru" }]);
  });

  test("a restricted student's screening opens no case (staff learn nothing of it)", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    service.context.db.$client.run("UPDATE mahasiswa SET dibatasi_sejak = '2026-01-01T00:00:00.000Z' WHERE NIM = 'N001'");
    await submit(service, tokens.mhs1, flaggedAnswers);
    expect(service.context.db.$client.query("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = 'N001'").get()).toEqual({ n: 1 });
    expect(storedCases(service)).toEqual([]);
  });

  test("a refused submission (bad answers) opens nothing", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    const response = await service.request("POST", "/api/mahasiswa/kuesioner", { token: tokens.mhs1, body: { jawaban: { ...flaggedAnswers, S1: 9 } } });
    expect(response.status).toBe(400);
    expect(storedCases(service)).toEqual([]);
  });
});

describe("exactly one open case per student under concurrent submissions", () => {
  test("several students, and the same student from three requests, in one turn of the event loop", async () => {
    lecturers = await lecturerService(studentsCsv([["N010", "Sepuluh", "D001"], ["N011", "Sebelas", "D002"], ["N012", "Dua Belas", "D002"]]));
    const { service, tokens } = lecturers;
    // Admins only: a student's own submission racing an admin's for the same student would
    // meet the weekly limit whenever the admin's reached the write queue first.
    const results = await Promise.all([
      submit(service, tokens.admin, flaggedAnswers, "N001"),
      submit(service, tokens.admin, flaggedAnswers, "N001"),
      submit(service, tokens.admin, flaggedAnswers, "N001"),
      submit(service, tokens.admin, flaggedAnswers, "N010"),
      submit(service, tokens.admin, flaggedAnswers, "N011"),
      submit(service, tokens.admin, flaggedAnswers, "N012"),
      submit(service, tokens.admin, flaggedAnswers, "N012"),
    ]);
    expect(results).toHaveLength(7);
    expect(service.context.db.$client.query("SELECT count(*) AS n FROM riwayat_skrining").get()).toEqual({ n: 7 });
    expect(storedCases(service).map((row) => [row.NIM, row.NIP, row.status]).sort()).toEqual([
      ["N001", "D001", "baru"],
      ["N010", "D001", "baru"],
      ["N011", "D002", "baru"],
      ["N012", "D002", "baru"],
    ]);
    expect(storedTimeline(service)).toHaveLength(4);
  });

  test("two connections to one database (as two processes would be) submitting for the same student at once", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    const second = createContext(loadConfig(service.dataDir, { ...testEnvironment }), silentLogger);
    try {
      const secondApp = createApp(second, () => "198.51.100.8");
      const post = (app: typeof service.app) =>
        app.handle(
          new Request("http://localhost/api/mahasiswa/kuesioner", {
            method: "POST",
            headers: { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" },
            body: JSON.stringify({ NIM: "N001", jawaban: flaggedAnswers }),
          }),
        );
      const statuses = (await Promise.all([post(service.app), post(secondApp), post(service.app), post(secondApp)])).map((response) => response.status);
      expect(statuses).toEqual([201, 201, 201, 201]);
      expect(storedCases(service).map((row) => [row.NIM, row.status])).toEqual([["N001", "baru"]]);
    } finally {
      closeContext(second);
    }
  });

  test("the database itself refuses a second open case for a student", async () => {
    lecturers = await lecturerService();
    const { service, tokens } = lecturers;
    await submit(service, tokens.mhs1, flaggedAnswers);
    expect(() =>
      service.context.db.$client.run(
        "INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, diperbarui_pada) VALUES ('N001', 'D001', 1, 0, 'dihubungi', 'x', 'x')",
      ),
    ).toThrow(/UNIQUE constraint failed: tindak_lanjut.NIM/);
  });
});
