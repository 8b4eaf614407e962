import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jawaban, runCli } from "../helpers";
import { populatedService, privacyCli, recountedSummaries, restrictedText, storedSummaries, type Populated } from "./support";

let populated: Populated;
let service: Populated["service"];
let tokens: Populated["tokens"];
let noteId: number;
let moodId: number;
let diaryId: number;

const sqlite = () => service.context.db.$client;
const get = (path: string, token?: string) => service.request("GET", path, { token });
const statistik = async (token: string, query = "") => (await get(`/api/dosen/statistik${query}`, token)).body;

beforeAll(async () => {
  populated = await populatedService();
  service = populated.service;
  tokens = populated.tokens;
  // A second advisee of D001 who is not restricted, with a screening of the same week.
  await service.importAccounts("role,username,password,nim,nama,angkatan,nip_doswal,activated\nmahasiswa,mhs4,mhs-pass-4,N004,Mahasiswa Empat,2023,D001,true\n");
  const mhs4 = (await service.login("mhs4", "mhs-pass-4")).access;
  expect((await service.request("POST", "/api/mahasiswa/kuesioner", { token: mhs4, body: { jawaban: jawaban(1, 4) } })).status).toBe(201);
  noteId = sqlite().query<{ id: number }, []>("SELECT Id_catatan AS id FROM catatan_konseling WHERE NIM = 'N001'").get()!.id;
  moodId = sqlite().query<{ id: number }, []>("SELECT id FROM mood_entries WHERE nim = 'N001' LIMIT 1").get()!.id;
  diaryId = sqlite().query<{ id: number }, []>("SELECT id FROM diary_entries WHERE nim = 'N001' LIMIT 1").get()!.id;
});

afterAll(() => service.close());

describe("skrining privacy restrict / unrestrict", () => {
  let before: { statistik: unknown; admin: unknown; list: unknown; export: string };

  test("--dry-run says what would change and changes nothing", async () => {
    before = {
      statistik: await statistik(tokens.dosen1),
      admin: await statistik(tokens.admin, "?NIP=D001"),
      list: (await get("/api/dosen/mahasiswa", tokens.dosen1)).body,
      export: (await runCli(["--data", service.dataDir, "stats", "export", "--format", "json"])).stdout,
    };
    const result = await privacyCli(service, ["restrict", "--nim", "N001", "--dry-run"]);
    expect(result).toEqual({ exitCode: 0, stderr: "", stdout: "Uji coba (--dry-run): tidak ada yang diubah.\nAkan dibatasi: mahasiswa N001; 1 skrining keluar dari statistik.\n" });
    expect(sqlite().query("SELECT dibatasi_sejak FROM mahasiswa WHERE NIM = 'N001'").get()).toEqual({ dibatasi_sejak: null });
    expect(sqlite().query("SELECT count(*) AS n FROM audit_log WHERE action = 'privacy'").get()).toEqual({ n: 0 });
  });

  test("restrict sets dibatasi_sejak and leaves an audit row", async () => {
    const result = await privacyCli(service, ["restrict", "--nim", "N001"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Pemrosesan data mahasiswa N001 dibatasi sejak \d{4}-\d{2}-\d{2}T[\d:.]+Z; 1 skrining keluar dari statistik\.\n$/);
    const since = sqlite().query<{ since: string }, []>("SELECT dibatasi_sejak AS since FROM mahasiswa WHERE NIM = 'N001'").get()!.since;
    expect(result.stdout).toContain(since);
    expect(sqlite().query(`SELECT action, (SELECT group_concat(nim, ' ') FROM audit_subjects WHERE audit_id = id) AS nim, target, actor_role, detail FROM audit_log WHERE action = 'privacy'`).all()).toEqual([
      { action: "privacy", nim: "N001", target: "skrining privacy restrict", actor_role: "cli", detail: `dibatasi_sejak=${since}` },
    ]);
  });

  test("restricting again is refused and changes nothing", async () => {
    const since = sqlite().query<{ since: string }, []>("SELECT dibatasi_sejak AS since FROM mahasiswa WHERE NIM = 'N001'").get()!.since;
    const result = await privacyCli(service, ["restrict", "--nim", "N001"]);
    expect(result).toEqual({ exitCode: 1, stdout: "", stderr: `skrining: Pemrosesan data mahasiswa N001 sudah dibatasi sejak ${since}; tidak ada yang diubah.\n` });
  });

  test("the student keeps full access to their own data", async () => {
    for (const path of ["/api/mahasiswa/hasil/N001", "/api/mahasiswa/mood/N001", "/api/mahasiswa/diary/N001", "/api/mahasiswa/profil/data/N001", "/api/mahasiswa/can_submit/N001", "/api/mahasiswa/history", "/api/mahasiswa/catatan", `/api/mahasiswa/catatan/detail/${noteId}`]) {
      expect({ path, status: (await get(path, tokens.mhs1)).status }).toEqual({ path, status: 200 });
    }
    const document = (await get("/api/mahasiswa/data-saya", tokens.mhs1)).body;
    expect(document.dibatasi_sejak).toMatch(/Z$/);
    expect(document.skrining).toHaveLength(1);
    expect((await service.request("POST", "/api/mahasiswa/mood", { token: tokens.mhs1, body: { date: "2026-03-05", mood_value: 3 } })).status).toBe(201);
    // The photo: with the student's own token only.
    expect((await get("/api/mahasiswa/profil/foto/N001", tokens.mhs1)).status).toBe(200);
  });

  test("the lecturer list shows only that the student is restricted; the other advisee as before", async () => {
    const list = (await get("/api/dosen/mahasiswa", tokens.dosen1)).body;
    expect(list.total).toBe(2);
    const [restricted, other] = list.data;
    expect(restricted).toEqual({
      NIM: "N001",
      nama_mahasiswa: "Mahasiswa Satu",
      kelas: "TI-A",
      id_jurusan: 1,
      IPK: null,
      NIP_doswal: "D001",
      Id_User: expect.any(Number),
      foto_profil: null,
      angkatan: "2023",
      gender: null,
      usia: null,
      freq_olahraga: null,
      durasi_tidur: null,
      last_skrining: null,
      early_warning: false,
      stres_sangat_tinggi: false,
      balasan_baru: 0,
      dibatasi: true,
    });
    expect(other).toMatchObject({ NIM: "N004", dibatasi: false, last_skrining: { tingkat_stres: expect.any(String) } });
    // Sorting by risk tells nothing either: the restricted student sorts as one without a screening.
    expect((await get("/api/dosen/mahasiswa?sort=risk", tokens.dosen1)).body.data.map((item: { NIM: string }) => item.NIM)).toEqual(["N004", "N001"]);
  });

  test("the lecturer detail: who the student is, empty lists, dibatasi", async () => {
    for (const token of [tokens.dosen1, tokens.admin]) {
      const detail = (await get("/api/dosen/mahasiswa/N001", token)).body;
      expect(detail).toMatchObject({ mahasiswa: { NIM: "N001", nama_mahasiswa: "Mahasiswa Satu", IPK: null, foto_profil: null }, riwayat: [], catatan: [], dibatasi: true });
    }
    expect((await get("/api/dosen/mahasiswa/N002", tokens.dosen2)).body).toMatchObject({ dibatasi: false, riwayat: [expect.any(Object)] });
  });

  const staffReads = [
    ["hasil", "/api/mahasiswa/hasil/N001"],
    ["profil data", "/api/mahasiswa/profil/data/N001"],
    ["mood", "/api/mahasiswa/mood/N001"],
    ["diary", "/api/mahasiswa/diary/N001"],
    ["can_submit", "/api/mahasiswa/can_submit/N001"],
    ["lecturer's notes", "/api/dosen/catatan/N001"],
    ["one note", `/api/mahasiswa/catatan/detail/{note}`],
  ] as const;

  test.each(staffReads)("staff reading %s: 403 with the restriction's text", async (_, path) => {
    for (const who of ["dosen1", "admin"] as const) {
      const response = await get(path.replace("{note}", String(noteId)), tokens[who]);
      expect({ who, status: response.status, body: response.body }).toEqual({ who, status: 403, body: { error: restrictedText } });
    }
  });

  test.each([
    ["history", "/api/mahasiswa/history?nim=N001"],
    ["the student's notes", "/api/mahasiswa/catatan?nim=N001"],
  ])("an admin reading %s: 403 with the restriction's text", async (_, path) => {
    expect(await get(path, tokens.admin)).toMatchObject({ status: 403, body: { error: restrictedText } });
  });

  test("the advisor scope comes first: another lecturer still hears the student is not theirs", async () => {
    expect(await get("/api/mahasiswa/mood/N001", tokens.dosen2)).toMatchObject({ status: 403, body: { error: "Mahasiswa bukan bimbingan Anda." } });
  });

  test("the photo: 403 without a token or with a staff token", async () => {
    for (const token of [undefined, tokens.dosen1, tokens.admin, tokens.mhs2]) {
      expect(await get("/api/mahasiswa/profil/foto/N001", token)).toMatchObject({ status: 403, body: { error: restrictedText } });
    }
    expect((await get("/api/mahasiswa/profil/foto/N002")).status).toBe(200);
  });

  test.each([
    ["an admin's questionnaire", "POST", "/api/mahasiswa/kuesioner", "admin", { NIM: "N001", jawaban: jawaban(2, 2) }],
    ["an admin's mood", "POST", "/api/mahasiswa/mood", "admin", { nim: "N001", date: "2026-03-09", mood_value: 3 }],
    ["an admin's mood change", "PUT", "/api/mahasiswa/mood/{mood}", "admin", { mood_value: 5 }],
    ["an admin's mood removal", "DELETE", "/api/mahasiswa/mood/{mood}", "admin", undefined],
    ["an admin's diary", "POST", "/api/mahasiswa/diary", "admin", { nim: "N001", date: "2026-03-09", content: "x" }],
    ["an admin's diary change", "PUT", "/api/mahasiswa/diary/{diary}", "admin", { content: "y" }],
    ["an admin's diary removal", "DELETE", "/api/mahasiswa/diary/{diary}", "admin", undefined],
    ["the advisor's new note", "POST", "/api/dosen/catatan", "dosen1", { NIM: "N001", isi_catatan: "baru" }],
    ["an admin's new note", "POST", "/api/dosen/catatan", "admin", { NIM: "N001", NIP: "D001", isi_catatan: "baru" }],
  ] as const)("staff writing (%s): 403, nothing written", async (_, method, path, who, body) => {
    const counts = () => sqlite().query("SELECT (SELECT count(*) FROM riwayat_skrining) AS s, (SELECT count(*) FROM mood_entries) AS m, (SELECT count(*) FROM diary_entries) AS d, (SELECT count(*) FROM catatan_konseling) AS c, (SELECT group_concat(mood_value) FROM mood_entries) AS v, (SELECT group_concat(content) FROM diary_entries) AS t").get();
    const before = counts();
    const response = await service.request(method, path.replace("{mood}", String(moodId)).replace("{diary}", String(diaryId)), { token: tokens[who], body });
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: restrictedText } });
    expect(counts()).toEqual(before);
  });

  test("statistics leave the student out: the counts, the weekly trend (equal to a recount) and stats export", async () => {
    const now = await statistik(tokens.dosen1);
    expect(now.total_mahasiswa).toBe(1);
    expect(now.sudah_skrining).toBe(1);
    const weekCount = (answer: { trend: { stress: Record<string, number> }[] }) => Object.values(answer.trend.at(-1)!.stress).reduce((sum, count) => sum + count, 0);
    expect(weekCount(now)).toBe(1);
    expect(weekCount(before.statistik as never)).toBe(2);
    expect(await statistik(tokens.admin, "?NIP=D001")).toEqual(now);
    expect(storedSummaries(sqlite())).toEqual(recountedSummaries(sqlite()));

    const lecturers = JSON.parse((await runCli(["--data", service.dataDir, "stats", "export", "--format", "json"])).stdout);
    expect(lecturers.find((row: { NIP: string }) => row.NIP === "D001")).toMatchObject({ total_mahasiswa: 1, sudah_skrining: 1 });
    const students = JSON.parse((await runCli(["--data", service.dataDir, "stats", "export", "--nip", "D001", "--students", "--format", "json"])).stdout);
    expect(students.map((row: { NIM: string }) => row.NIM)).toEqual(["N004"]);
  });

  test("unrestrict: --dry-run changes nothing; then everything is back as before, with an audit row", async () => {
    const dry = await privacyCli(service, ["unrestrict", "--nim", "N001", "--dry-run"]);
    expect(dry.exitCode).toBe(0);
    expect(dry.stdout).toMatch(/^Uji coba \(--dry-run\): tidak ada yang diubah\.\nAkan diakhiri: pembatasan mahasiswa N001 \(sejak .+Z\); 1 skrining kembali dihitung dalam statistik\.\n$/);
    expect((await get("/api/mahasiswa/mood/N001", tokens.dosen1)).status).toBe(403);

    const result = await privacyCli(service, ["unrestrict", "--nim", "N001"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Pembatasan pemrosesan data mahasiswa N001 \(sejak .+Z\) diakhiri; 1 skrining kembali dihitung dalam statistik\.\n$/);
    expect((await get("/api/mahasiswa/mood/N001", tokens.dosen1)).status).toBe(200);
    expect((await get("/api/mahasiswa/profil/foto/N001")).status).toBe(200);
    expect(await statistik(tokens.dosen1)).toEqual(before.statistik);
    expect(await statistik(tokens.admin, "?NIP=D001")).toEqual(before.admin);
    expect((await runCli(["--data", service.dataDir, "stats", "export", "--format", "json"])).stdout).toBe(before.export);
    expect(storedSummaries(sqlite())).toEqual(recountedSummaries(sqlite()));
    expect(sqlite().query("SELECT target FROM audit_log WHERE action = 'privacy' ORDER BY id").all()).toEqual([
      { target: "skrining privacy restrict" },
      { target: "skrining privacy unrestrict" },
    ]);
  });

  test.each([
    ["unrestricting a student who is not restricted", ["unrestrict", "--nim", "N002"], "skrining: Pemrosesan data mahasiswa N002 tidak sedang dibatasi; tidak ada yang diubah.\n"],
    ["an unknown NIM", ["restrict", "--nim", "N999"], 'skrining: Mahasiswa dengan NIM "N999" tidak ditemukan.\n'],
    ["no --nim", ["unrestrict"], "skrining: --nim wajib diisi.\n"],
  ])("%s is refused (exit 1)", async (_, args, message) => {
    expect(await privacyCli(service, args)).toEqual({ exitCode: 1, stdout: "", stderr: message });
  });
});
