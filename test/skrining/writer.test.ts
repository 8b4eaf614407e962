import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { verifyAuditChain } from "../../src/audit/verify";
import { mahasiswa } from "../../src/db/schema";
import { StorageError } from "../../src/db/storage";
import { describeFailure } from "../../src/errors";
import type { Classifier, ModelFeatures } from "../../src/models/classifier";
import { SubmissionService } from "../../src/modules/skrining/submission";
import { SubmissionWriter, startSubmissionWriter } from "../../src/modules/skrining/writer";
import type { Principal } from "../../src/requests/principal";
import { jawaban, standardAccounts, TestService } from "../helpers";

// The server writes questionnaires on a thread of its own (src/modules/skrining/writer.ts);
// kuesioner-writer.test.ts runs the questionnaire's rules through it. Here: what only the
// thread can meet.

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A service with the standard accounts (closed after each test), and the admin's token. */
async function serviceWithAdmin(environment: Record<string, string> = {}) {
  const started = new TestService(environment);
  service = started;
  await started.importAccounts(standardAccounts);
  return { service: started, admin: (await started.login("admin", "admin-pass-1")).access };
}

async function writerService(environment: Record<string, string> = {}) {
  const { service, admin } = await serviceWithAdmin(environment);
  const mhs1 = (await service.login("mhs1", "mhs-pass-1")).access;
  const writer = await service.useSubmissionWriter();
  return { service, writer, tokens: { admin, mhs1 } };
}

const submit = (token: string, body: unknown) => service!.request("POST", "/api/mahasiswa/kuesioner", { token, body });
const screenings = () => (service!.context.db.$client.query("SELECT count(*) AS n FROM riwayat_skrining").get() as { n: number }).n;
const auditRows = () => service!.context.db.$client.query("SELECT id, action, target FROM audit_log ORDER BY id").all() as { id: number; action: string; target: string }[];

describe("the writer thread", () => {
  test("a screening at the highest stress opens the advisor's case, and the answer says so", async () => {
    const { tokens } = await writerService();
    const response = await submit(tokens.mhs1, { jawaban: jawaban(5, 4) });
    expect(response).toMatchObject({ status: 201, body: { score_stress: 200, tingkat_stres: "Tinggi", tindak_lanjut: { dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" } } });
    const opened = service!.context.db.$client.query("SELECT NIM, NIP, Id_skrining FROM tindak_lanjut").all();
    expect(opened).toEqual([{ NIM: "N001", NIP: "D001", Id_skrining: response.body.Id_skrining }]);
  });

  test("the reads waiting for their row go into the submission's savepoint, before its row, and the chain verifies", async () => {
    const { tokens } = await writerService();
    expect((await service!.request("GET", "/api/mahasiswa/hasil/N002", { token: tokens.admin })).status).toBe(404);
    expect((await service!.request("GET", "/api/mahasiswa/history?nim=N002", { token: tokens.admin })).status).toBe(200);
    const before = auditRows().length;
    expect((await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    const appended = auditRows().slice(before);
    expect(appended.map((row) => `${row.action} ${row.target}`)).toEqual(["view GET /api/mahasiswa/history", "create POST /api/mahasiswa/kuesioner"]);
    // The submission's row, made before its job from the request alone, names the student submitted for.
    const students = service!.context.db.$client.query("SELECT nim FROM audit_subjects WHERE audit_id = ?").all(appended[1]!.id);
    expect(students).toEqual([{ nim: "N002" }]);
    expect(verifyAuditChain(service!.context.db.$client).problems).toEqual([]);
  });

  test("while another program holds the write lock past the wait: 503, nothing written, and the waiting read rows kept", async () => {
    const { tokens } = await writerService({ SKRINING_BUSY_WAIT: "50" });
    expect((await service!.request("GET", "/api/mahasiswa/history?nim=N002", { token: tokens.admin })).status).toBe(200);
    const other = new Database(join(service!.dataDir, "skrining.db"));
    other.run("BEGIN IMMEDIATE");
    const rowsBefore = auditRows().length;
    try {
      const refused = await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("2");
    } finally {
      other.run("ROLLBACK");
      other.close();
    }
    expect(screenings()).toBe(0);
    expect(auditRows()).toHaveLength(rowsBefore);
    expect(service!.context.health.problem).toBe("busy");
    // The lock is free again: the next submission is written, with the read's row before its own.
    expect((await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    expect(auditRows().slice(rowsBefore).map((row) => row.action)).toEqual(["view", "create"]);
    expect(service!.context.health.problem).toBeNull();
  });

  test("while writes are held (a damaged database) a submission is refused before it reaches the thread", async () => {
    const { tokens } = await writerService();
    const damage = new StorageError("damaged", new Error("quick_check: 1 masalah"), join(service!.dataDir, "skrining.db"));
    service!.context.health.holdWrites(damage, "Ditahan.");
    const refused = await submit(tokens.admin, { NIM: "N002", jawaban: jawaban(3, 4) });
    expect(refused.status).toBe(503);
    expect(screenings()).toBe(0);
  });

  test("after a submission the service's caches show it: hasil and can_submit", async () => {
    const { tokens } = await writerService();
    expect((await service!.request("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(true);
    const written = await submit(tokens.mhs1, { jawaban: jawaban(2, 4) });
    expect((await service!.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1 })).body.Id_skrining).toBe(written.body.Id_skrining);
    expect((await service!.request("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1 })).body.can_submit).toBe(false);
  });
});

describe("predictions made before the job", () => {
  const admin = { id: 1, username: "admin", role: "admin", nim: null } as Principal;

  test("a profile changed between the prediction and the job is predicted again, from what the job found", async () => {
    const { writer } = await writerService();
    const { db, writes, logger, config } = service!.context;
    const asked: ModelFeatures[] = [];
    const modelId = Number(
      db.$client.run("INSERT INTO prediction_models (type, file_path, algorithm, version, input_features, source_sha256) VALUES ('stress', 'uji.json', 'uji', '1', '[]', '0')").lastInsertRowid,
    );
    // The first prediction changes the student's profile behind it, as an admin's edit in between would.
    const classifier: Classifier = {
      classify: (type, features) => {
        if (type === "stress") asked.push(features);
        if (asked.length === 1 && type === "stress") db.$client.run("UPDATE mahasiswa SET IPK = 3.9 WHERE NIM = 'N002'");
        return { level: features.IPK === 3.9 ? "Tinggi" : "Rendah", modelId, probability: 0.5 };
      },
    };
    const submissions = new SubmissionService(db, writes, classifier, logger, { followUpStressMin: config.followUpStressMin, timeZone: config.timeZone });
    submissions.useWriter(writer);
    const result = await submissions.submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) });
    expect(asked.map((features) => features.IPK)).toEqual([null, 3.9]);
    expect(result.tingkat_stres).toBe("Tinggi");
    const stored = db.$client.query("SELECT tingkat_stres, stress_model_id FROM riwayat_skrining WHERE Id_skrining = ?").get(result.Id_skrining);
    expect(stored).toEqual({ tingkat_stres: "Tinggi", stress_model_id: modelId });
  });

  /** A service whose predictions record the profile each was asked from; the admin submits for N002 through the writer. */
  async function askedProfiles() {
    const { writer } = await writerService();
    const { db, writes, logger, config } = service!.context;
    const asked: ModelFeatures[] = [];
    const classifier: Classifier = {
      classify: (type, features) => {
        if (type === "stress") asked.push(features);
        return null;
      },
    };
    const submissions = new SubmissionService(db, writes, classifier, logger, { followUpStressMin: config.followUpStressMin, timeZone: config.timeZone });
    submissions.useWriter(writer);
    return { asked, submitFor: (answers: object) => submissions.submit(admin, { NIM: "N002", jawaban: answers }) };
  }

  // The service's thread keeps the student and the programme it predicts from until a commit
  // (ScreeningRecorder.inputsAhead); the job would catch an older copy, but only by asking
  // the models again. Each kind of commit must empty the copy before the next prediction.
  test.each([
    ["through the service's own write queue", () => service!.context.writes.run(() => service!.context.db.$client.run("UPDATE mahasiswa SET IPK = 3.5 WHERE NIM = 'N002'"), { touches: [mahasiswa] })],
    [
      "by another program (a command's connection)",
      async () => {
        const other = new Database(join(service!.dataDir, "skrining.db"));
        other.run("UPDATE mahasiswa SET IPK = 3.5 WHERE NIM = 'N002'");
        other.close();
        // Another connection's commit shows from the server's next turn.
        await new Promise((resolve) => setImmediate(resolve));
      },
    ],
  ])("a profile changed %s after a submission is what the next one is predicted from, at the first asking", async (_, change) => {
    const { asked, submitFor } = await askedProfiles();
    await submitFor(jawaban(3, 4));
    await change();
    await submitFor(jawaban(3, 4));
    expect(asked.map((features) => features.IPK)).toEqual([null, 3.5]);
  });

  test("habits a submission wrote on the writer's thread are what the next one is predicted from, at the first asking", async () => {
    const { asked, submitFor } = await askedProfiles();
    await submitFor(jawaban(3, 4, { durasi_tidur: "8 Jam" }));
    await submitFor(jawaban(3, 4));
    expect(asked.map((features) => features.durasi_tidur)).toEqual(["8 Jam", "8 Jam"]);
    expect(screenings()).toBe(2);
  });

  test("a job given a prediction from another profile writes nothing and names the profile it found", async () => {
    const { writer } = await writerService();
    const level = { level: "Rendah", modelId: null, probability: null } as const;
    const profile = { angkatan: "2022", ipk: null, usia: null, gender: null, freqOlahraga: null, durasiTidur: null, jurusanNama: "Informatika" };
    const reply = await writer.submit({ role: "admin", nim: "N002", jawaban: { text: JSON.stringify(jawaban(3, 4)) }, extras: {}, predictions: { profile, stress: level, motivasi: level }, auditRows: [] });
    expect(reply).toMatchObject({ ok: false, stale: { ...profile, jurusanNama: "Sistem Informasi" } });
    expect(screenings()).toBe(0);
  });

  test("a profile that keeps changing is answered 503 after three predictions, with nothing written", async () => {
    const { writer } = await writerService();
    const { db, writes, logger, config } = service!.context;
    let ipk = 2;
    const classifier: Classifier = {
      classify: (type) => {
        if (type === "stress") db.$client.run("UPDATE mahasiswa SET IPK = ? WHERE NIM = 'N002'", [(ipk += 0.1)]);
        return null;
      },
    };
    const submissions = new SubmissionService(db, writes, classifier, logger, { followUpStressMin: config.followUpStressMin, timeZone: config.timeZone });
    submissions.useWriter(writer);
    // Not expect().rejects: bun's waits for the promise without taking the thread's messages.
    const refused = await submissions.submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ problem: "busy" });
    expect(ipk).toBeCloseTo(2.3);
    expect(screenings()).toBe(0);
  });
});

describe("starting and failing", () => {
  test("the server starts the writer at the first submission, which is written on the service's thread", async () => {
    const { service, admin } = await serviceWithAdmin();
    let starts = 0;
    service.features.submission.startWriterAtFirstSubmission(() => starts++);
    expect((await service.request("GET", "/api/mahasiswa/history?nim=N002", { token: admin })).status).toBe(200);
    expect(starts).toBe(0);
    for (let round = 0; round < 2; round++) expect((await submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    expect(starts).toBe(1);
    expect(screenings()).toBe(2);
  });

  test("a thread that fails answers what it held with 503, and the service writes the next submissions itself", async () => {
    const { service, admin } = await serviceWithAdmin();
    const errors: string[] = [];
    const { context } = service;
    const { submission } = service.features;
    const writer = await SubmissionWriter.start(
      { databasePath: context.config.databasePath, busyWaitMilliseconds: 1000, followUpStressMin: context.config.followUpStressMin, timeZone: context.config.timeZone },
      { client: context.db.$client, health: context.health, onFailure: (error) => (submission.useWriter(null), errors.push(describeFailure(error))) },
      new URL("./failing-writer.ts", import.meta.url),
    );
    submission.useWriter(writer);
    const lost = await submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) });
    expect(lost.status).toBe(503);
    expect(errors).toEqual([expect.stringContaining("utas penulis kuesioner berhenti")]);
    expect((await submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
    expect(screenings()).toBe(1);
  });

  test("a writer that cannot open the database is not started: the service writes itself, and says why", async () => {
    const { service, admin } = await serviceWithAdmin();
    const logged: string[] = [];
    const logger = { info: () => {}, error: (line: string) => logged.push(line) };
    const context = { ...service.context, submission: service.features.submission, config: { ...service.context.config, databasePath: join(service.dataDir, "missing", "skrining.db") } };
    expect(await startSubmissionWriter(context, logger)).toBeNull();
    expect(logged).toEqual([expect.stringContaining("Utas penulis kuesioner tidak dapat dimulai")]);
    expect((await submit(admin, { NIM: "N002", jawaban: jawaban(3, 4) })).status).toBe(201);
  });
});
