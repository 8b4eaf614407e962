import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../src/db";
import { readStressSums, recomputeStressSums } from "../../src/db/measures";
import { computedReliability, reliableChangeIndex } from "../../src/measurement/reliability";
import { readAnswers, scoreSdi, scoreStress } from "../../src/skrining/scoring";
import { TestService, standardAccounts, temporaryDir } from "../helpers";
import { cli } from "../cli/support";
import { answersScoring } from "./measurement-cases";

// Decisions §20: what the measures are kept from stays what the rows say, whichever path
// changes the rows (the questionnaire, an erasure, a purge, a restore, another writer), and
// the percentiles and the reliable change a submission gets are computed from it.

let service: TestService;
let admin: string;
const sqlite = () => service.context.db.$client;

/** The running sums computed here from the stored answers, independently of src/db/measures.ts. */
function sumsByHand() {
  const rows = sqlite().query<{ input: string; score: number }, []>("SELECT input_jawaban AS input, score_stress AS score FROM riwayat_skrining WHERE validitas_alasan IS NOT NULL").all();
  const itemSums = Array<number>(40).fill(0);
  const itemSquares = Array<number>(40).fill(0);
  let totalSum = 0;
  let totalSquares = 0;
  for (const row of rows) {
    const answers = JSON.parse(row.input) as Record<string, number | string>;
    for (let item = 0; item < 40; item++) {
      const value = Number(answers[`S${item + 1}`]);
      itemSums[item]! += value;
      itemSquares[item]! += value * value;
    }
    totalSum += row.score;
    totalSquares += row.score * row.score;
  }
  return { screenings: rows.length, totalSum, totalSquares, itemSums, itemSquares };
}

/** The sums as kept, with plain arrays to compare. */
const keptSums = (database = sqlite()) => {
  const sums = readStressSums(database);
  return { ...sums, itemSums: Array.from(sums.itemSums), itemSquares: Array.from(sums.itemSquares) };
};
const recomputed = (database = sqlite()) => {
  const sums = recomputeStressSums(database);
  return { ...sums, itemSums: Array.from(sums.itemSums), itemSquares: Array.from(sums.itemSquares) };
};

const submit = (nim: string, answers: Record<string, unknown>) => service.request("POST", "/api/mahasiswa/kuesioner", { token: admin, body: { NIM: nim, jawaban: answers } });

/** 120 more students (G000…G119, advisees of D002), each with a screening written straight into the table some days ago; G119's is 400 days old. */
function seedNormGroup(): void {
  const now = Date.now();
  const db = sqlite();
  db.transaction(() => {
    for (let index = 0; index < 120; index++) {
      const nim = `G${String(index).padStart(3, "0")}`;
      const user = db.query<{ id: number }, [string]>("INSERT INTO users (username, password_hash, role, is_activated) VALUES (?, 'x', 'mahasiswa', 1) RETURNING Id_User AS id").get(`g${index}`)!;
      db.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES (?, ?, 'D002')", [nim, user.id]);
      const days = index === 119 ? 400 : 1 + (index % 30);
      db.run(
        "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, '{}', 'Sedang', 'Sedang', 's', ?, ?)",
        [nim, new Date(now - days * 86_400_000).toISOString(), 60 + (index % 100), ((index % 49) - 24) / 4],
      );
    }
  })();
}

/** The percentiles of (stress, sdi) among the latest screening of every student since the horizon, computed here from the rows: ties count half. */
function percentilesByHand(stress: number, sdi: number) {
  const horizon = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const latest = sqlite()
    .query<{ stress: number; sdi: number }, [string]>(
      `SELECT score_stress AS stress, score_sdi AS sdi FROM riwayat_skrining AS screening
       WHERE NOT EXISTS (SELECT 1 FROM riwayat_skrining AS later WHERE later.NIM = screening.NIM AND (later.tanggal_skrining, later.Id_skrining) > (screening.tanggal_skrining, screening.Id_skrining))
         AND tanggal_skrining >= ?`,
    )
    .all(`${horizon}T00:00:00.000Z`);
  const rank = (values: number[], value: number) =>
    Math.round((100 * (values.filter((each) => each < value).length + values.filter((each) => each === value).length / 2)) / values.length);
  return { students: latest.length, persentil_stres: rank(latest.map((row) => row.stress), stress), persentil_motivasi: rank(latest.map((row) => row.sdi), sdi) };
}

beforeAll(async () => {
  service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.importAccounts(`role,username,password,nim,nip_doswal,activated\n${["N010", "N011", "N012", "N013"].map((nim) => `mahasiswa,m${nim},pass-${nim}-1,${nim},D001,true`).join("\n")}\n`);
  admin = (await service.login("admin", "admin-pass-1")).access;
});
afterAll(() => service.close());

describe("the running sums", () => {
  test("after submissions they equal a full recomputation and the sums computed here from the stored answers", async () => {
    for (const [nim, score] of [["N010", 70], ["N010", 95], ["N011", 130], ["N012", 150], ["N013", 60], ["N001", 110]] as const) {
      expect((await submit(nim, { ...answersScoring(score), S40: "5" })).status).toBe(201);
    }
    expect(keptSums()).toEqual(recomputed());
    expect(keptSums()).toEqual(sumsByHand());
    expect(keptSums().screenings).toBe(6);
  });

  test("an erasure (another connection: the command) takes the student's screenings out, and the next submission measures with what remains", async () => {
    const erased = await cli(service.dataDir, ["privacy", "erase", "--nim", "N010"]);
    expect(erased.exitCode).toBe(0);
    expect(keptSums()).toEqual(recomputed());
    expect(keptSums().screenings).toBe(4);
    expect((await submit("N011", answersScoring(100))).status).toBe(201);
    expect(keptSums()).toEqual(recomputed());
    expect(keptSums().screenings).toBe(5);
  });

  test("a purge by date, and rows another writer adds and edits, leave them equal too", async () => {
    sqlite().run("UPDATE riwayat_skrining SET tanggal_skrining = '2020-01-01T00:00:00.000Z' WHERE NIM = 'N012'");
    expect((await cli(service.dataDir, ["privacy", "purge", "--before", "2021-01-01"])).exitCode).toBe(0);
    expect(keptSums()).toEqual(recomputed());
    expect(keptSums().screenings).toBe(4);
    sqlite().run(
      "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES ('N013', '2026-01-01T00:00:00.000Z', '{}', 'Rendah', 'Sedang', 's', 50, 0)",
    );
    expect((await submit("N013", answersScoring(80))).status).toBe(201);
    expect(keptSums()).toEqual(recomputed());
  });

  test("a backup restored into a new folder holds the same sums, equal to its own recomputation", async () => {
    const archive = join(temporaryDir("skrining-measures-backup-"), "cadangan.tar.gz");
    expect((await cli(service.dataDir, ["backup", archive])).exitCode).toBe(0);
    const restored = join(temporaryDir("skrining-measures-restore-"), "data");
    expect((await cli(restored, ["restore", archive])).exitCode).toBe(0);
    const database = openDatabase(join(restored, "skrining.db")).$client;
    try {
      expect(keptSums(database)).toEqual(keptSums());
      expect(keptSums(database)).toEqual(recomputed(database));
    } finally {
      database.close();
    }
  });
});

describe("percentiles and reliable change with the faculty's own data", () => {
  beforeAll(() => seedNormGroup());

  test("from 100 students on, percentiles against the latest screening of each in 365 days (the year-old one left out), as computed here", async () => {
    const answer = await submit("N011", answersScoring(123));
    expect(answer.status).toBe(201);
    const byHand = percentilesByHand(123, 0);
    // G000…G118, and N001, N011, N013 (N010 was erased, N012's screenings purged).
    expect(byHand.students).toBe(122);
    expect(answer.body).toMatchObject({ persentil_stres: byHand.persentil_stres, persentil_motivasi: byHand.persentil_motivasi });
    expect(answer.body.persentil_stres).toBeGreaterThan(0);
  });

  test("after another writer's changes (an erasure by the command), the next submission's group is the database's", async () => {
    for (const nim of ["G000", "G001", "G002"]) expect((await cli(service.dataDir, ["privacy", "erase", "--nim", nim])).exitCode).toBe(0);
    const answer = await submit("N013", answersScoring(140));
    const byHand = percentilesByHand(140, 0);
    expect(byHand.students).toBe(119);
    expect(answer.body).toMatchObject({ persentil_stres: byHand.persentil_stres, persentil_motivasi: byHand.persentil_motivasi });
  });

  test("reliable change uses α and SD of the stored sums once 100 students have a screening", async () => {
    const before = sqlite().query<{ score: number }, []>("SELECT score_stress AS score FROM latest_skrining WHERE NIM = 'N001'").get()!.score;
    const answer = await submit("N001", answersScoring(before + 12));
    const reliability = computedReliability(recomputeStressSums(sqlite()))!;
    const index = reliableChangeIndex(before, before + 12, reliability);
    expect(answer.body.perubahan_andal).toBe(index >= 1.96 ? "memburuk" : "tetap");
    const stats = await cli(service.dataDir, ["stats", "reliability", "--json"]);
    expect(JSON.parse(stats.stdout)).toMatchObject({ sumber: "dihitung", alasan_nilai_tetap: null, n: recomputeStressSums(sqlite()).screenings });
    expect(JSON.parse(stats.stdout).alfa).toBeCloseTo(reliability.alpha, 12);
  });

  test("a submission's stored scores agree with the answers it stored", () => {
    const rows = sqlite().query<{ input: string; stress: number; sdi: number }, []>("SELECT input_jawaban AS input, score_stress AS stress, score_sdi AS sdi FROM riwayat_skrining WHERE validitas_alasan IS NOT NULL").all();
    for (const row of rows) {
      const answers = readAnswers(JSON.parse(row.input));
      expect([scoreStress(answers), scoreSdi(answers)]).toEqual([row.stress, row.sdi]);
    }
  });
});
