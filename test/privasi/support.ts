import type { Database } from "bun:sqlite";
import { dropSummaryTriggers, installSummaries } from "../../src/db/summaries";
import { appendAuditRows } from "../../src/audit/trail";
import { TestService, jawaban, runCli, snapshotFixture, standardAccounts, type CliResult } from "../helpers";
import { jpegWithExif } from "../photos/fixtures";

// Shared pieces of the privacy tests: a service whose students have data of every kind,
// each piece carrying a text that names its student, the privacy commands run against the
// service's data folder, and the lecturer summaries recounted from scratch.

/** The restriction's refusal, as staff read it. */
export const restrictedText =
  "Pemrosesan data mahasiswa ini sedang dibatasi atas permintaannya; dosen dan admin tidak dapat melihat atau mengubah datanya selama pembatasan berlaku.";

/** Texts a student's data holds, each unique to the student. */
export function textsOf(nim: string) {
  return {
    diaryTitle: `Judul rahasia ${nim}`,
    diaryFirst: `Isi jurnal pertama ${nim} yang kemudian diubah`,
    diaryEdited: `Isi jurnal terbaru ${nim} tentang ujian`,
    diarySecond: `Jurnal kedua ${nim} tentang keluarga`,
    note: `Catatan dosen untuk ${nim}: temui saya`,
    reply: `Balasan ${nim}: baik, Pak`,
    answerExtra: `jawaban-tambahan-${nim}`,
    caseNote: `Catatan tindak lanjut ${nim}: sudah ditelepon, cemas soal beasiswa`,
    contactRequest: `Permintaan kontak ${nim}: boleh ketemu minggu ini?`,
  };
}

export interface Populated {
  service: TestService;
  tokens: Record<"admin" | "dosen1" | "dosen2" | "mhs1" | "mhs2", string>;
}

/**
 * The standard accounts, everyone logged in; N001 (D001) and N002 (D002) each with data of
 * every kind. Built once per test process and copied (snapshotFixture).
 */
export function populatedService(): Promise<Populated> {
  return snapshotFixture("populated", async () => {
    const service = new TestService();
    await service.importAccounts(standardAccounts);
    const tokens = await service.accessTokens(["admin", "dosen1", "dosen2", "mhs1", "mhs2"]);
    await addDataOfEveryKind(service, "N001", tokens.mhs1, tokens.dosen1);
    await addDataOfEveryKind(service, "N002", tokens.mhs2, tokens.dosen2);
    return { service, tokens };
  });
}

async function expectStatus(response: Promise<{ status: number; body: unknown }>, status: number): Promise<any> {
  const answer = await response;
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Through the routes, as the student and their advisor would: a screening, two moods, a
 * diary entry edited once and a second one, a note with the student's reply, a photo, a
 * follow-up case with the advisor's case note; and an acknowledged privacy notice.
 */
export async function addDataOfEveryKind(service: TestService, nim: string, studentToken: string, advisorToken: string): Promise<void> {
  const texts = textsOf(nim);
  const post = (path: string, token: string, body: unknown) => service.request("POST", path, { token, body });
  await expectStatus(post("/api/mahasiswa/kuesioner", studentToken, { jawaban: jawaban(3, 2, { catatan_bebas: texts.answerExtra }) }), 201);
  await expectStatus(post("/api/mahasiswa/mood", studentToken, { date: "2026-03-01", mood_value: 2 }), 201);
  await expectStatus(post("/api/mahasiswa/mood", studentToken, { date: "2026-03-02", mood_value: 4 }), 201);
  const diary = await expectStatus(post("/api/mahasiswa/diary", studentToken, { date: "2026-03-01", title: texts.diaryTitle, content: texts.diaryFirst }), 201);
  await expectStatus(service.request("PUT", `/api/mahasiswa/diary/${diary.id}`, { token: studentToken, body: { content: texts.diaryEdited } }), 200);
  await expectStatus(post("/api/mahasiswa/diary", studentToken, { date: "2026-03-02", content: texts.diarySecond }), 201);
  const note = await expectStatus(post("/api/dosen/catatan", advisorToken, { NIM: nim, isi_catatan: texts.note }), 201);
  await expectStatus(post(`/api/mahasiswa/catatan/${note.id}/reply`, studentToken, { reply: texts.reply }), 200);
  const form = new FormData();
  form.set("foto", new File([jpegWithExif()], "foto.jpg"));
  await expectStatus(service.request("PUT", "/api/mahasiswa/profil/foto", { token: studentToken, rawBody: form }), 200);
  const sqlite = service.context.db.$client;
  // A follow-up case and the advisor's note on its first contact, written directly: the routes would add audit rows that other tests count.
  const opened = sqlite
    .query<{ id: number }, [string]>(
      "INSERT INTO tindak_lanjut (NIM, NIP, alasan_early_warning, alasan_perubahan_mendadak, status, dibuka_pada, pertama_dihubungi_pada, diperbarui_pada) SELECT NIM, NIP_doswal, 1, 0, 'dihubungi', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-02T00:00:00.000Z' FROM mahasiswa WHERE NIM = ? RETURNING Id_tindak_lanjut AS id",
    )
    .get(nim)!;
  sqlite.run("INSERT INTO tindak_lanjut_riwayat (Id_tindak_lanjut, status_dari, status_ke, catatan, nama, waktu) VALUES (?, 'baru', 'dihubungi', ?, 'Dosen', '2026-03-02T00:00:00.000Z')", [opened.id, texts.caseNote]);
  // The student's request for contact on that case, and an earlier change of advisor (decisions §19).
  sqlite.run("INSERT INTO permintaan_kontak (NIM, Id_tindak_lanjut, pesan, waktu) VALUES (?, ?, ?, '2026-03-01T12:00:00.000Z')", [nim, opened.id, texts.contactRequest]);
  sqlite.run(
    "INSERT INTO pergantian_dosen_wali (NIM, NIP_sebelumnya, NIP_baru, nama_sebelumnya, nama_baru, waktu) SELECT NIM, NULL, NIP_doswal, NULL, 'Dosen', '2026-02-01T00:00:00.000Z' FROM mahasiswa WHERE NIM = ?",
    [nim],
  );
  sqlite.run("INSERT INTO privacy_acknowledgements (Id_User, notice_version, acknowledged_at) SELECT Id_User, '2026-01', '2026-02-01T03:00:00.000Z' FROM mahasiswa WHERE NIM = ?", [nim]);
}

/** `skrining --data <the service's folder> privacy ...`, in this process. */
export const privacyCli = (service: TestService, args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(["--data", service.dataDir, "privacy", ...args], { env });

/** Audit rows written straight into the trail, as the routes and commands write them. */
export function auditRow(service: TestService, row: { userId: number | null; username: string | null; role: string; address: string | null; action: "view" | "export" | "update"; nim: string; target: string }): void {
  const sqlite = service.context.db.$client;
  sqlite.transaction(() =>
    appendAuditRows(sqlite, [
      {
        actor: { userId: row.userId, username: row.username, role: row.role },
        clientAddress: row.address,
        action: row.action,
        nim: row.nim,
        target: row.target,
      },
    ]),
  ).immediate();
}

/** Both summary tables as stored, in key order. */
export function storedSummaries(sqlite: Database) {
  return {
    latest: sqlite.query("SELECT * FROM latest_skrining ORDER BY NIM").all(),
    weeks: sqlite.query("SELECT * FROM lecturer_weekly_levels ORDER BY NIP, week_start").all(),
  };
}

/** Both summary tables recounted from riwayat_skrining from scratch, leaving the database as it was. */
export function recountedSummaries(sqlite: Database) {
  sqlite.run("BEGIN IMMEDIATE");
  try {
    dropSummaryTriggers(sqlite);
    installSummaries(sqlite);
    return storedSummaries(sqlite);
  } finally {
    sqlite.run("ROLLBACK");
  }
}

/** Every value of every table but the audit trail, as one text. */
export function everyTableButAudit(sqlite: Database): string {
  const tables = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('audit_log', 'audit_subjects') AND name NOT LIKE 'sqlite_%'")
    .all()
    .map((row) => row.name);
  return tables.map((table) => `${table}: ${JSON.stringify(sqlite.query(`SELECT * FROM "${table}"`).all())}`).join("\n");
}
