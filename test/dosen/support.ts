import { catatanKonseling, riwayatSkrining } from "../../src/db/schema";
import type { Level } from "../../src/skrining/scoring";
import { TestService, insertUserCopyingHash, passwords, snapshotFixture, standardAccounts } from "../helpers";

// Shared pieces of the lecturer tests: the exact texts of interface.md, a service with
// logged-in accounts, and direct inserts of screenings and notes with chosen timestamps.

export const texts = {
  denied: "Akses ditolak.",
  studentUnknown: "Mahasiswa tidak ditemukan.",
  notAdvisee: "Mahasiswa bukan bimbingan Anda.",
  nipRequired: "NIP wajib disertakan oleh admin.",
  lecturerUnknown: "Dosen tidak ditemukan.",
  noteFieldsRequired: "NIM dan isi_catatan wajib diisi.",
  noteTooLong: "isi_catatan paling banyak 5000 karakter.",
} as const;

export const dayMs = 24 * 3600 * 1000;
export const weekMs = 7 * dayMs;

export interface Lecturers {
  service: TestService;
  tokens: Record<"admin" | "dosen1" | "dosen2" | "mhs1" | "tanpaProfil" | "tanpaBimbingan", string>;
}

/**
 * The standard accounts, a lecturer with no advisees (D003), and a `dosen` account without
 * a lecturer profile, which the CSV cannot create: it is inserted with dosen1's password hash.
 * Built once per test process and copied (snapshotFixture).
 */
export function lecturerService(extraCsv = ""): Promise<Lecturers> {
  return snapshotFixture(`lecturers ${extraCsv}`, () => buildLecturerService(extraCsv));
}

async function buildLecturerService(extraCsv: string): Promise<Lecturers> {
  const service = new TestService();
  await service.importAccounts(standardAccounts);
  await service.importAccounts("role,username,password,nip,nama,activated\ndosen,dosen3,dosen-pass-3,D003,Dosen Tiga,true\n");
  if (extraCsv) await service.importAccounts(extraCsv);
  // A lecturer account without a lecturer profile, with dosen1's password.
  insertUserCopyingHash(service, "dosen.tanpa", "dosen", "dosen1");
  return {
    service,
    tokens: {
      ...(await service.accessTokens(["admin", "dosen1", "dosen2", "mhs1"])),
      tanpaProfil: (await service.login("dosen.tanpa", passwords.dosen1)).access,
      tanpaBimbingan: (await service.login("dosen3", "dosen-pass-3")).access,
    },
  };
}

/** Students for D001 by CSV (`nim,nama` pairs), activated, with the given advisor. */
export function studentsCsv(rows: readonly (readonly [nim: string, nama: string, nipDoswal: string])[]): string {
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  return ["role,username,password,nim,nama,nip_doswal,activated", ...rows.map(([nim, nama, nip]) => `mahasiswa,u${nim},pass-${nim},${nim},${quote(nama)},${nip},true`)].join("\n") + "\n";
}

export function addScreening(service: TestService, nim: string, tanggal: string | number, stres: Level, motivasi: Level, scoreStress = 100, scoreSdi = 1.5): number {
  return service.context.db
    .insert(riwayatSkrining)
    .values({
      nim,
      tanggal: typeof tanggal === "number" ? new Date(tanggal).toISOString() : tanggal,
      inputJawaban: "{}",
      tingkatStres: stres,
      tingkatMotivasi: motivasi,
      saran: "saran",
      scoreStress,
      scoreSdi,
    })
    .returning({ id: riwayatSkrining.id })
    .get().id;
}

export function addNote(service: TestService, nim: string, nip: string, isi: string, tanggalCatat: string): number {
  return service.context.db.insert(catatanKonseling).values({ nim, nip, isi, tanggalCatat }).returning({ id: catatanKonseling.id }).get().id;
}

export const countRows = (service: TestService, table: string) => service.context.db.$client.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
