import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sameDayTarget } from "../../src/modules/skrining/recording";
import { TestService, jawaban, standardAccounts } from "../helpers";

/** Decisions §20 through the questionnaire's route (measurement.test.ts). */

/** Stress items summing to `score` without a long run of one answer, and motivation 3, 5, 3, 5, … (SDI 0, Sedang): no warning by the levels. */
export function answersScoring(score: number): Record<string, unknown> {
  const stress = Array.from({ length: 40 }, (_, index) => 1 + (index % 5));
  let rest = score - 120;
  for (let index = 0; rest !== 0; index = (index + 1) % 40) {
    if (rest > 0 && stress[index]! < 5) {
      stress[index]!++;
      rest--;
    } else if (rest < 0 && stress[index]! > 1) {
      stress[index]!--;
      rest++;
    }
  }
  return {
    ...Object.fromEntries(stress.map((value, index) => [`S${index + 1}`, value])),
    ...Object.fromEntries(Array.from({ length: 28 }, (_, index) => [`M${index + 1}`, index % 2 === 0 ? 3 : 5])),
  };
}

const students = Array.from({ length: 12 }, (_, index) => `N${String(index + 10).padStart(3, "0")}`);

export function measurementCases(start: () => Promise<TestService>): void {
  let service: TestService;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    service = await start();
    await service.importAccounts(standardAccounts);
    await service.importAccounts(
      `role,username,password,nim,nip_doswal,activated\n${students.map((nim) => `mahasiswa,m${nim},pass-${nim}-1,${nim},D001,true`).join("\n")}\n`,
    );
    tokens.admin = (await service.login("admin", "admin-pass-1")).access;
    tokens.dosen = (await service.login("dosen1", "dosen-pass-1")).access;
    // The console's Teks page turns the safety question on and off: from the PC itself (serve --admin-web).
    service.address = "127.0.0.1";
  });
  afterAll(() => service.close());

  const submit = (nim: string, body: Record<string, unknown>) => service.request("POST", "/api/mahasiswa/kuesioner", { token: tokens.admin!, body: { NIM: nim, ...body } });
  const sqlite = () => service.context.db.$client;
  const screenings = (nim: string) => (sqlite().query("SELECT count(*) AS n FROM riwayat_skrining WHERE NIM = ?").get(nim) as { n: number }).n;
  const casesOf = (nim: string) => service.request("GET", `/api/dosen/tindak-lanjut`, { token: tokens.dosen! }).then((answer) => answer.body.data.filter((entry: { NIM: string }) => entry.NIM === nim));

  describe("validitas", () => {
    test("a uniform answer set is read with caution, still classified, and still opens its case", async () => {
      const answer = await submit("N010", { jawaban: jawaban(5, 1) });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ tingkat_stres: "Tinggi", score_stress: 200, validitas: { status: "hati_hati", alasan: ["jawaban_seragam"] } });
      expect(answer.body.tindak_lanjut).toEqual({ dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" });
      expect((await casesOf("N010")).map((entry: { alasan: string[] }) => entry.alasan)).toEqual([["stres_sangat_tinggi"]]);
      // The lecturer's list and detail carry it.
      const detail = await service.request("GET", "/api/dosen/mahasiswa/N010", { token: tokens.dosen! });
      expect(detail.body.riwayat[0].validitas).toEqual({ status: "hati_hati", alasan: ["jawaban_seragam"] });
      const list = await service.request("GET", "/api/dosen/mahasiswa?q=N010", { token: tokens.dosen! });
      expect(list.body.data[0].last_skrining.validitas).toEqual({ status: "hati_hati", alasan: ["jawaban_seragam"] });
    });

    test.each([
      ["varied answers, no duration", answersScoring(110), undefined, { status: "baik", alasan: [] }],
      ["varied answers in 10 minutes", answersScoring(110), 600, { status: "baik", alasan: [] }],
      ["varied answers in a minute", answersScoring(110), 60, { status: "hati_hati", alasan: ["terlalu_cepat"] }],
      ["a duration as text", answersScoring(110), "135.5", { status: "hati_hati", alasan: ["terlalu_cepat"] }],
      ["one answer over the first 20 stress items", { ...answersScoring(110), ...Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`S${index + 1}`, 3])) }, null, { status: "hati_hati", alasan: ["pola_berulang"] }],
    ] as const)("%s", async (_, answers, durasi, validitas) => {
      const answer = await submit("N011", { jawaban: answers, ...(durasi === undefined ? {} : { durasi_detik: durasi }) });
      expect(answer.status).toBe(201);
      expect(answer.body.validitas).toEqual(validitas);
      const stored = sqlite().query("SELECT validitas_alasan AS reasons, durasi_detik AS seconds FROM riwayat_skrining WHERE Id_skrining = ?").get(answer.body.Id_skrining);
      expect(stored).toEqual({ reasons: validitas.alasan.join(","), seconds: durasi === undefined || durasi === null ? null : Number(durasi) });
    });

    // Rows of one, so that test.each does not spread the array among them.
    test.each([[-1], ["abc"], ["1e3"], [true], [[60]], [{}]])("durasi_detik %p answers 400 and writes nothing", async (durasi) => {
      const before = screenings("N011");
      expect(await submit("N011", { jawaban: answersScoring(110), durasi_detik: durasi })).toMatchObject({ status: 400, body: { error: "durasi_detik harus angka detik, 0 atau lebih." } });
      expect(screenings("N011")).toBe(before);
    });

    test("the answers are checked before durasi_detik", async () => {
      expect(await submit("N011", { jawaban: jawaban(3, 4, { S2: 9 }), durasi_detik: -1 })).toMatchObject({ status: 400, body: { error: "Jawaban S2 harus bilangan bulat 1-5." } });
    });
  });

  describe("reliable change (fewer than 100 students: α 0.90 and SD 20, 18 points)", () => {
    test("a reliably worse score ending at Sedang opens memburuk_andal; its record says memburuk", async () => {
      const first = await submit("N012", { jawaban: answersScoring(80) });
      expect(first.body).toMatchObject({ perubahan_andal: null, tindak_lanjut: null });
      const worse = await submit("N012", { jawaban: answersScoring(100) });
      expect(worse.body).toMatchObject({ tingkat_stres: "Sedang", perubahan_andal: "memburuk", tindak_lanjut: { dibuka_oleh_skrining_ini: true } });
      const [opened] = await casesOf("N012");
      expect(opened.alasan).toEqual(["memburuk_andal"]);
      const timeline = await service.request("GET", `/api/dosen/tindak-lanjut/${opened.id}`, { token: tokens.dosen! });
      expect(timeline.body.riwayat[0].catatan).toBe("Dibuka otomatis oleh skrining: memburuk secara andal (skor stres naik 18 poin atau lebih).");
      expect((await service.request("GET", "/api/mahasiswa/hasil/N012", { token: tokens.dosen! })).body.perubahan_andal).toBe("memburuk");
    });

    test.each([
      ["a rise of 20 that ends at Rendah", 40, 60, "memburuk"],
      ["a rise of 17", 90, 107, "tetap"],
      ["a fall of 30", 110, 80, "membaik"],
    ] as const)("%s: %d → %d is %s, and opens no case", async (_, from, to, direction) => {
      const nim = { memburuk: "N013", tetap: "N014", membaik: "N015" }[direction];
      await submit(nim, { jawaban: answersScoring(from) });
      expect((await submit(nim, { jawaban: answersScoring(to) })).body.perubahan_andal).toBe(direction);
      expect(await casesOf(nim)).toEqual([]);
    });

    test("percentiles are null below 100 students", async () => {
      expect((await submit("N016", { jawaban: answersScoring(100) })).body).toMatchObject({ persentil_stres: null, persentil_motivasi: null });
    });
  });

  describe("the safety question", () => {
    test("off (the default): the answer is ignored, whatever it is, and nothing changes", async () => {
      for (const value of [5, "x", 0]) {
        const answer = await submit("N017", { jawaban: answersScoring(90), jawaban_keselamatan: value });
        expect(answer.status).toBe(201);
        expect(answer.body.bantuan_segera).toBeNull();
        expect(sqlite().query("SELECT jawaban_keselamatan AS value FROM riwayat_skrining WHERE Id_skrining = ?").get(answer.body.Id_skrining)).toEqual({ value: null });
      }
      expect(await casesOf("N017")).toEqual([]);
    });

    describe("on", () => {
      beforeAll(async () => {
        const on = await service.request("PUT", "/api/admin/teks/keselamatan", { token: tokens.admin!, body: { aktif: true, nama_kontak: "Konselor fakultas", telepon_kontak: "0812 3456 7890" } });
        expect(on.status).toBe(200);
      });

      test("an answer of 3 opens an urgent case (butir_kritis, contact by the end of the day) and answers where to get help", async () => {
        const before = Date.now();
        const answer = await submit("N018", { jawaban: answersScoring(90), jawaban_keselamatan: 3 });
        expect(answer.status).toBe(201);
        expect(answer.body).toMatchObject({ bantuan_segera: { nama: "Konselor fakultas", telepon: "0812 3456 7890" }, tindak_lanjut: { dibuka_oleh_skrining_ini: true, penerima: "dosen_wali" } });
        const [opened] = await casesOf("N018");
        expect(opened).toMatchObject({ alasan: ["butir_kritis"], segera: true, terlambat: false });
        expect([sameDayTarget(before, service.context.config.timeZone), sameDayTarget(Date.now(), service.context.config.timeZone)]).toContain(opened.batas_kontak_pada);
        const detail = await service.request("GET", `/api/dosen/tindak-lanjut/${opened.id}`, { token: tokens.dosen! });
        expect(detail.body.riwayat[0].catatan).toBe("Dibuka otomatis oleh skrining: jawaban 3 pada pertanyaan keselamatan (hubungi mahasiswa hari ini).");
        // The student's result page reads it again.
        const hasil = await service.request("GET", "/api/mahasiswa/hasil/N018", { token: tokens.admin! });
        expect(hasil.body).toMatchObject({ jawaban_keselamatan: 3, bantuan_segera: { nama: "Konselor fakultas", telepon: "0812 3456 7890" } });
      });

      test("an answer of 2, or none (an app that does not ask it), opens nothing", async () => {
        const two = await submit("N019", { jawaban: answersScoring(90), jawaban_keselamatan: "2" });
        expect(two.body).toMatchObject({ bantuan_segera: null, tindak_lanjut: null });
        const none = await submit("N019", { jawaban: answersScoring(90) });
        expect(none.body).toMatchObject({ bantuan_segera: null, tindak_lanjut: null });
        expect(sqlite().query("SELECT jawaban_keselamatan AS value FROM riwayat_skrining WHERE NIM = 'N019' ORDER BY Id_skrining").all()).toEqual([{ value: 2 }, { value: null }]);
      });

      test.each([[0], [6], [2.5], ["abc"], [true], [[3]]])("%p answers 400 and writes nothing", async (value) => {
        const before = screenings("N019");
        expect(await submit("N019", { jawaban: answersScoring(90), jawaban_keselamatan: value })).toMatchObject({
          status: 400,
          body: { error: "jawaban_keselamatan harus bilangan bulat 1-5." },
        });
        expect(screenings("N019")).toBe(before);
      });

      test("the answers, then durasi_detik, are checked before it", async () => {
        expect((await submit("N019", { jawaban: jawaban(3, 4, { M1: 0 }), durasi_detik: -1, jawaban_keselamatan: 9 })).body.error).toBe("Jawaban M1 harus bilangan bulat 1-7.");
        expect((await submit("N019", { jawaban: answersScoring(90), durasi_detik: -1, jawaban_keselamatan: 9 })).body.error).toBe("durasi_detik harus angka detik, 0 atau lebih.");
      });

      test("a critical answer while a case is open makes that case urgent", async () => {
        await submit("N020", { jawaban: jawaban(5, 1) });
        const [opened] = await casesOf("N020");
        expect(opened).toMatchObject({ alasan: ["stres_sangat_tinggi"], segera: false });
        const answer = await submit("N020", { jawaban: answersScoring(100), jawaban_keselamatan: 5 });
        expect(answer.body).toMatchObject({ tindak_lanjut: { dibuka_oleh_skrining_ini: false }, bantuan_segera: { nama: "Konselor fakultas" } });
        const detail = await service.request("GET", `/api/dosen/tindak-lanjut/${opened.id}`, { token: tokens.dosen! });
        expect(detail.body).toMatchObject({ id: opened.id, alasan: ["stres_sangat_tinggi", "butir_kritis"], segera: true });
        expect(detail.body.riwayat.at(-1)).toMatchObject({ jenis: "butir_kritis", oleh: "Sistem", catatan: "Skrining baru: jawaban 5 pada pertanyaan keselamatan (hubungi mahasiswa hari ini)." });
      });

      test("off again: the key is ignored once more", async () => {
        expect((await service.request("PUT", "/api/admin/teks/keselamatan", { token: tokens.admin!, body: { aktif: false } })).status).toBe(200);
        const answer = await submit("N021", { jawaban: answersScoring(90), jawaban_keselamatan: 5 });
        expect(answer.body).toMatchObject({ bantuan_segera: null, tindak_lanjut: null });
      });
    });
  });
}
