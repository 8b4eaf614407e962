import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getTableName } from "drizzle-orm";
import { trailTables } from "../../src/audit/trail";
import { submissionTables } from "../../src/modules/skrining/recording";
import { TestService, jawaban, standardAccounts } from "../helpers";

/** The questionnaire's rules and answers (kuesioner.test.ts). */
export function questionnaireCases(start: () => Promise<TestService>): void {
  let service: TestService;
  const tokens: Record<string, string> = {};

  const countScreenings = (nim: string) =>
    (service.context.db.$client.query("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = ?").get(nim) as { n: number }).n;

  beforeAll(async () => {
    service = await start();
    await service.importAccounts(standardAccounts);
    await service.importAccounts("role,username,password,nim,nip_doswal\nmahasiswa,mhs4,mhs-pass-4,N004,D001\n");
    tokens.admin = (await service.login("admin", "admin-pass-1")).access;
    tokens.dosen = (await service.login("dosen1", "dosen-pass-1")).access;
    tokens.otherDosen = (await service.login("dosen2", "dosen-pass-2")).access;
    tokens.mhs1 = (await service.login("mhs1", "mhs-pass-1")).access;
    tokens.mhs2 = (await service.login("mhs2", "mhs-pass-2")).access;
  });
  afterAll(() => service.close());

  const submit = (token: string, body: unknown) => service.request("POST", "/api/mahasiswa/kuesioner", { token, body });

  describe("questionnaire rules in order", () => {
    test("a lecturer is refused by role", async () => {
      expect(await submit(tokens.dosen!, { jawaban: jawaban(3, 4) })).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
    });

    test("rule 1: an admin must name the NIM", async () => {
      expect(await submit(tokens.admin!, { jawaban: jawaban(3, 4) })).toMatchObject({ status: 400, body: { error: "NIM wajib disertakan oleh admin." } });
    });

    test("rule 2: an unknown student", async () => {
      expect(await submit(tokens.admin!, { NIM: "X999", jawaban: jawaban(3, 4) })).toMatchObject({
        status: 404,
        body: { error: "Data mahasiswa tidak ditemukan." },
      });
    });

    test.each([
      ["a missing item", jawaban(3, 4, { S7: undefined }), "Jawaban S7 wajib diisi."],
      ["0 for a stress item", jawaban(3, 4, { S1: 0 }), "Jawaban S1 harus bilangan bulat 1-5."],
      ["6 for a stress item", jawaban(3, 4, { S40: 6 }), "Jawaban S40 harus bilangan bulat 1-5."],
      ["8 for a motivation item", jawaban(3, 4, { M3: 8 }), "Jawaban M3 harus bilangan bulat 1-7."],
      ["a fraction", jawaban(3, 4, { M1: 3.5 }), "Jawaban M1 harus bilangan bulat 1-7."],
      ["a word", jawaban(3, 4, { S2: "abc" }), "Jawaban S2 harus bilangan bulat 1-5."],
      ["a boolean", jawaban(3, 4, { S3: true }), "Jawaban S3 harus bilangan bulat 1-5."],
      ["null", jawaban(3, 4, { M28: null }), "Jawaban M28 wajib diisi."],
      ["a long freq_olahraga", jawaban(3, 4, { freq_olahraga: "x".repeat(51) }), "freq_olahraga harus teks maksimal 50 karakter."],
    ])("invalid answers (%s) answer 400 and write nothing", async (_name, answers, error) => {
      const before = countScreenings("N001");
      const response = await submit(tokens.mhs1!, { jawaban: { ...answers, freq_olahraga: (answers as any).freq_olahraga ?? "4-6 kali" } });
      expect(response).toMatchObject({ status: 400, body: { error } });
      expect(countScreenings("N001")).toBe(before);
      const profile = service.context.db.$client.query("SELECT freq_olahraga FROM mahasiswa WHERE NIM = 'N001'").get() as { freq_olahraga: string | null };
      expect(profile.freq_olahraga).toBeNull();
    });

    // decisions §10: a body nested deeper than 32 levels is refused before any rule, never a 500.
    const nested = (levels: number) => {
      let value: unknown = 1;
      for (let level = 0; level < levels; level++) value = [value];
      return value;
    };
    const tooDeep = { status: 400, body: { error: "Struktur data terlalu dalam (paling banyak 32 tingkat)." } };

    // Too deep for JSON.stringify here as well, so the body is written as text.
    const deepText = (levels: number) => "[".repeat(levels) + "1" + "]".repeat(levels);
    test.each([
      ["an extra key nested 40,000 levels deep", "Catatan", deepText(40_000)],
      ["an answer nested 40,000 levels deep", "S1", deepText(40_000)],
      ["an extra key at level 33", "Catatan", deepText(31)],
    ])("%s answers 400 and writes nothing", async (_name, key, value) => {
      const before = countScreenings("N003");
      const answers = JSON.stringify({ ...jawaban(2, 2), [key]: 0 }).replace(`"${key}":0`, `"${key}":${value}`);
      const response = await service.request("POST", "/api/mahasiswa/kuesioner", {
        token: tokens.admin!,
        rawBody: `{"NIM":"N003","jawaban":${answers}}`,
        headers: { "content-type": "application/json" },
      });
      expect(response).toMatchObject(tooDeep);
      expect(countScreenings("N003")).toBe(before);
    });

    test("32 levels are allowed, and stored as they came", async () => {
      // The body is level 1, jawaban 2, Catatan 3: 30 more arrays reach level 32.
      const response = await submit(tokens.admin!, { NIM: "N003", jawaban: { ...jawaban(2, 2), Catatan: nested(29) } });
      expect(response.status).toBe(201);
      const stored = service.context.db.$client.query("SELECT input_jawaban FROM riwayat_skrining WHERE Id_skrining = ?").get(response.body.Id_skrining) as { input_jawaban: string };
      expect(JSON.parse(stored.input_jawaban).Catatan).toEqual(nested(29));
    });

    test("answers that are objects or arrays answer 400 with the item's text", async () => {
      expect(await submit(tokens.admin!, { NIM: "N003", jawaban: jawaban(2, 2, { S5: { value: 3 } }) })).toMatchObject({ status: 400, body: { error: "Jawaban S5 harus bilangan bulat 1-5." } });
      expect(await submit(tokens.admin!, { NIM: "N003", jawaban: jawaban(2, 2, { M5: [3] }) })).toMatchObject({ status: 400, body: { error: "Jawaban M5 harus bilangan bulat 1-7." } });
    });

    test("jawaban that is not an object answers 400", async () => {
      expect(await submit(tokens.mhs1!, { jawaban: [1, 2] })).toMatchObject({ status: 400, body: { error: "jawaban harus berupa objek." } });
      expect(await submit(tokens.mhs1!, {})).toMatchObject({ status: 400, body: { error: "jawaban harus berupa objek." } });
    });

    test("a valid submission is scored, stored with its profile fields, and then blocked for the week", async () => {
      const answers = jawaban("2" as unknown as number, 5, { freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam", Semester: 5 });
      const response = await submit(tokens.mhs1!, { jawaban: answers });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ score_stress: 80, tingkat_stres: "Sedang", message: expect.any(String), saran: expect.any(String) });
      // All 5s: IM 5, identified 5, CE 5, amotivation 5 → 10 + 5 − 5 − 10 = 0.
      expect(response.body.score_sdi).toBe(0);
      expect(response.body.tingkat_motivasi).toBe("Sedang");
      expect(response.body.detailed_suggestions.length).toBeGreaterThanOrEqual(4);
      const stored = service.context.db.$client.query("SELECT * FROM mahasiswa WHERE NIM = 'N001'").get() as Record<string, unknown>;
      expect(stored).toMatchObject({ freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam" });

      const blocked = await submit(tokens.mhs1!, { jawaban: jawaban(3, 4) });
      expect(blocked.status).toBe(403);
      expect(blocked.body).toMatchObject({ error: "Batasan Mingguan", days_remaining: 7, message: expect.any(String) });
      expect(blocked.body.last_submission_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(countScreenings("N001")).toBe(1);

      const latest = await service.request("GET", "/api/mahasiswa/hasil/N001", { token: tokens.mhs1! });
      expect(latest.status).toBe(200);
      expect(latest.body).toMatchObject({ Id_skrining: response.body.Id_skrining, NIM: "N001", score_stress: 80, input_jawaban: { Semester: 5 } });
    });

    test("the weekly limit is checked before the answers", async () => {
      expect((await submit(tokens.mhs1!, { jawaban: { S1: 99 } })).body.error).toBe("Batasan Mingguan");
    });

    test("an admin is exempt from the weekly limit", async () => {
      for (let round = 0; round < 2; round++) {
        expect((await submit(tokens.admin!, { NIM: "N003", jawaban: jawaban(1, 1) })).status).toBe(201);
      }
    });

    test("parallel submissions by one student store exactly one", async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => submit(tokens.mhs2!, { jawaban: jawaban(3, 4) })));
      expect(results.filter((result) => result.status === 201)).toHaveLength(1);
      expect(results.filter((result) => result.status === 403)).toHaveLength(7);
    });
  });

  // The read caches keep what a write job does not say it wrote (src/db/read-cache.ts): a
  // table missing from the submission's list would leave a cache showing the old screening.
  describe("what a submission writes", () => {
    /** The tables `work` wrote (its triggers' writes included), seen by temporary triggers on every table. */
    const tablesWrittenBy = async (work: () => Promise<unknown>) => {
      const sqlite = service.context.db.$client;
      const tables = (sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((row) => row.name);
      sqlite.run("CREATE TEMP TABLE written (name TEXT)");
      for (const table of tables) {
        for (const event of ["INSERT", "UPDATE", "DELETE"]) {
          sqlite.run(`CREATE TEMP TRIGGER "seen_${event}_${table}" AFTER ${event} ON main."${table}" BEGIN INSERT INTO temp.written VALUES ('${table}'); END`);
        }
      }
      try {
        await work();
        return new Set((sqlite.query("SELECT DISTINCT name FROM temp.written").all() as { name: string }[]).map((row) => row.name));
      } finally {
        for (const table of tables) for (const event of ["INSERT", "UPDATE", "DELETE"]) sqlite.run(`DROP TRIGGER temp."seen_${event}_${table}"`);
        sqlite.run("DROP TABLE temp.written");
      }
    };
    const declared = (answers: unknown) => new Set<string>([...submissionTables(answers), ...trailTables].map((table) => getTableName(table)));

    test.each([
      ["one opening a follow-up case (stress 200)", { NIM: "N003", jawaban: jawaban(5, 1) }, "tindak_lanjut"],
      ["one with habits", { NIM: "N003", jawaban: jawaban(3, 4, { freq_olahraga: "1-3 kali", durasi_tidur: "6-7 Jam" }) }, "mahasiswa"],
    ] as const)("%s writes only the tables it declares", async (_name, body, expected) => {
      const written = await tablesWrittenBy(async () => expect((await submit(tokens.admin!, body)).status).toBe(201));
      expect([...written].filter((table) => !declared(body.jawaban).has(table))).toEqual([]);
      expect([...written]).toEqual(expect.arrayContaining(["riwayat_skrining", "latest_skrining", "audit_log", expected]));
    });

    test("only answers with a habit declare the student's row", () => {
      expect(declared(jawaban(3, 4)).has("mahasiswa")).toBe(false);
      expect(declared(jawaban(3, 4, { durasi_tidur: "6-7 Jam" })).has("mahasiswa")).toBe(true);
      expect(declared(jawaban(3, 4, { freq_olahraga: "1-3 kali" })).has("mahasiswa")).toBe(true);
    });
  });

  describe("threshold fallback boundaries", () => {
    // Stress: S1..S40 summing to the target. Motivation: choose subscale sums for an SDI.
    function stressAnswers(total: number) {
      const values = Array.from({ length: 40 }, () => 1);
      let remaining = total - 40;
      for (let index = 0; remaining > 0; index++) {
        const add = Math.min(4, remaining);
        values[index] = 1 + add;
        remaining -= add;
      }
      return Object.fromEntries(values.map((value, index) => [`S${index + 1}`, value]));
    }
    test.each([
      [60, "Rendah"],
      [61, "Sedang"],
      [120, "Sedang"],
      [121, "Tinggi"],
    ])("score_stress %i gives %s", async (total, level) => {
      const answers = { ...stressAnswers(total), ...Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`M${i + 1}`, 4])) };
      const response = await submit(tokens.admin!, { NIM: "N003", jawaban: answers });
      expect(response.body).toMatchObject({ score_stress: total, tingkat_stres: level });
    });

    // Only M13 (identified) moves: SDI = (identified_sum · 6 − base) / 24 with all others fixed.
    test.each([
      [{ M13: 1, M14: 1, M15: 1, M16: 1, M1: 1, M2: 1, M3: 1, M4: 1, M25: 7 }, "Rendah"],
      [{}, "Sedang"],
    ])("motivation %#", async (overrides, level) => {
      const motivation = Object.fromEntries(Array.from({ length: 28 }, (_, i) => [`M${i + 1}`, 4]));
      const response = await submit(tokens.admin!, { NIM: "N003", jawaban: { ...stressAnswers(100), ...motivation, ...overrides } });
      expect(response.body.tingkat_motivasi).toBe(level);
      expect(response.body.score_sdi < 0).toBe(level === "Rendah");
    });
  });

  describe("can_submit, hasil and history", () => {
    test("own-nim rule and unknown students", async () => {
      expect(await service.request("GET", "/api/mahasiswa/can_submit/N002", { token: tokens.mhs1! })).toMatchObject({ status: 403, body: { error: "Akses ditolak." } });
      expect(await service.request("GET", "/api/mahasiswa/can_submit/X9", { token: tokens.admin! })).toMatchObject({ status: 404, body: { error: "Mahasiswa tidak ditemukan." } });
      expect(await service.request("GET", "/api/mahasiswa/hasil/N004", { token: tokens.dosen! })).toMatchObject({ status: 404, body: { error: "Belum ada data skrining." } });
    });

    // decisions §9: a lecturer passes the own-nim rule only for their own advisees.
    const notAdvisee = { status: 403, body: { error: "Mahasiswa bukan bimbingan Anda." } };
    test.each<[string, string, string, object]>([
      ["can_submit of another lecturer's advisee", "otherDosen", "/api/mahasiswa/can_submit/N001", notAdvisee],
      ["can_submit of an unknown NIM keeps its 404", "otherDosen", "/api/mahasiswa/can_submit/X9", { status: 404, body: { error: "Mahasiswa tidak ditemukan." } }],
      ["hasil of another lecturer's advisee", "otherDosen", "/api/mahasiswa/hasil/N001", notAdvisee],
      ["hasil of a student without advisor", "dosen", "/api/mahasiswa/hasil/N003", notAdvisee],
      ["hasil of an unknown NIM (the route has no 404 of its own for it)", "dosen", "/api/mahasiswa/hasil/X9", notAdvisee],
      ["hasil of an own advisee", "dosen", "/api/mahasiswa/hasil/N001", { status: 200 }],
      ["hasil of anyone for an admin", "admin", "/api/mahasiswa/hasil/N003", { status: 200 }],
    ])("%s", async (_name, who, path, expected) => {
      expect(await service.request("GET", path, { token: tokens[who]! })).toMatchObject(expected);
    });

    test("can_submit reflects the weekly window", async () => {
      const blocked = await service.request("GET", "/api/mahasiswa/can_submit/N001", { token: tokens.mhs1! });
      expect(blocked.body).toMatchObject({ can_submit: false, days_remaining: 7 });
      const free = await service.request("GET", "/api/mahasiswa/can_submit/N004", { token: tokens.dosen! });
      expect(free.body).toEqual({ can_submit: true, message: expect.any(String), last_submission_date: null, days_remaining: 0 });
    });

    test("history is newest first and paginated; admin must name the NIM", async () => {
      expect(await service.request("GET", "/api/mahasiswa/history", { token: tokens.admin! })).toMatchObject({ status: 400, body: { error: "NIM wajib disertakan oleh admin." } });
      const total = countScreenings("N003");
      const page = await service.request("GET", "/api/mahasiswa/history?nim=N003&page=1&per_page=2", { token: tokens.admin! });
      expect(page.body).toMatchObject({ total, page: 1, total_pages: Math.ceil(total / 2) });
      expect(page.body.data).toHaveLength(2);
      expect(page.body.data[0].tanggal_skrining >= page.body.data[1].tanggal_skrining).toBe(true);
      const beyond = await service.request("GET", "/api/mahasiswa/history?nim=N003&page=999&per_page=abc", { token: tokens.admin! });
      expect(beyond.body).toMatchObject({ data: [], page: 999, total });
      const own = await service.request("GET", "/api/mahasiswa/history?nim=N002", { token: tokens.mhs1! });
      expect(own.body.data.every((record: { NIM: string }) => record.NIM === "N001")).toBe(true);
    });

    test("suggestions need both parameters", async () => {
      expect(await service.request("GET", "/api/mahasiswa/suggestions/detail?stress=Tinggi", { token: tokens.mhs1! })).toMatchObject({
        status: 400,
        body: { error: "Parameter stress dan motivation wajib diisi." },
      });
      const unknown = await service.request("GET", "/api/mahasiswa/suggestions/detail?stress=x&motivation=y", { token: tokens.mhs1! });
      expect(unknown.status).toBe(200);
      expect(unknown.body.suggestions.length).toBeGreaterThanOrEqual(4);
    });
  });
}
