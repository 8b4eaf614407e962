import { and, eq, ne, sql } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { dosen, jurusan, mahasiswa, tindakLanjut } from "../db/schema";
import type { AdvisorMove, ImportPreview, NamedLecturer, PreviewRow } from "./import-result";
import type { AccountInput } from "./validation";

/** The student profile fields a roster row may give; `jurusan` by its name. */
type StudentFields = Pick<AccountInput, "nama" | "jurusan" | "angkatan" | "kelas" | "nipDoswal" | "ipk" | "usia" | "gender">;

/** What a row would write to its account's profile: nothing, a new profile, or these fields. */
export type ProfileChange = { kind: "none" } | { kind: "new" } | { kind: "fields"; fields: string[] };

/**
 * The lecturer and student profiles of roster rows: what a row would change (the import's
 * preview and its count of unchanged accounts use the same comparison) and the write
 * itself. Profile fields given in a row replace the stored ones; empty cells keep them.
 * A stored NIM or NIP belongs to the row's account (`findConflicts` made sure of that).
 */
export class RosterProfiles {
  constructor(private readonly db: DatabaseClient) {}

  /** What the row would change, read without writing anything. */
  changeOf(account: AccountInput): ProfileChange {
    if (account.role === "dosen") {
      const stored = this.db.select({ nama: dosen.nama, telepon: dosen.telepon }).from(dosen).where(eq(dosen.nip, account.nip!)).get();
      if (!stored) return { kind: "new" };
      const fields = (["nama", "telepon"] as const).filter((field) => account[field] !== undefined && account[field] !== stored[field]);
      return fields.length === 0 ? { kind: "none" } : { kind: "fields", fields: [...fields] };
    }
    if (account.role !== "mahasiswa") return { kind: "none" };
    const changes = this.studentChanges(account);
    if (changes === null) return { kind: "new" };
    const fields = Object.keys(changes);
    return fields.length === 0 ? { kind: "none" } : { kind: "fields", fields };
  }

  /**
   * Creates the row's profile, or writes the fields that differ from the stored ones;
   * whether anything was written. Runs inside the import's write.
   */
  write(account: AccountInput, userId: number): boolean {
    if (account.role === "dosen") {
      const change = this.changeOf(account);
      if (change.kind === "new") this.db.insert(dosen).values({ nip: account.nip!, nama: account.nama ?? "", telepon: account.telepon ?? null, userId }).run();
      else if (change.kind === "fields") this.db.update(dosen).set({ nama: account.nama, telepon: account.telepon }).where(eq(dosen.nip, account.nip!)).run();
      return change.kind !== "none";
    }
    if (account.role !== "mahasiswa") return false;
    const changes = this.studentChanges(account);
    if (changes === null) {
      this.db.insert(mahasiswa).values({ ...this.stored(definedFields(given(account))), nim: account.nim!, userId }).run();
      return true;
    }
    if (Object.keys(changes).length === 0) return false;
    this.db.update(mahasiswa).set(this.stored(changes)).where(eq(mahasiswa.nim, account.nim!)).run();
    return true;
  }

  /** The fields of a student row that differ from the stored profile; null when there is no profile yet. */
  private studentChanges(account: AccountInput): Partial<StudentFields> | null {
    const stored = this.db
      .select({
        nama: mahasiswa.nama,
        jurusan: jurusan.nama,
        angkatan: mahasiswa.angkatan,
        kelas: mahasiswa.kelas,
        nipDoswal: mahasiswa.nipDoswal,
        ipk: mahasiswa.ipk,
        usia: mahasiswa.usia,
        gender: mahasiswa.gender,
      })
      .from(mahasiswa)
      .leftJoin(jurusan, eq(jurusan.id, mahasiswa.jurusanId))
      .where(eq(mahasiswa.nim, account.nim!))
      .get();
    if (!stored) return null;
    return Object.fromEntries(Object.entries(definedFields(given(account))).filter(([field, value]) => stored[field as keyof StudentFields] !== value));
  }

  /** Fields as the table stores them: the jurusan by its id, created when new. */
  private stored(fields: Partial<StudentFields>): Partial<typeof mahasiswa.$inferInsert> {
    const { jurusan: name, ...rest } = fields;
    return name === undefined ? rest : { ...rest, jurusanId: this.jurusanId(name) };
  }

  /** The id of a jurusan by name, created when new. Runs inside the import's write. */
  private jurusanId(name: string): number {
    const found = this.db.select({ id: jurusan.id }).from(jurusan).where(eq(jurusan.nama, name)).get();
    return found?.id ?? this.db.insert(jurusan).values({ nama: name }).returning({ id: jurusan.id }).get().id;
  }
}

function given(account: AccountInput): StudentFields {
  return {
    nama: account.nama,
    jurusan: account.jurusan,
    angkatan: account.angkatan,
    kelas: account.kelas,
    nipDoswal: account.nipDoswal,
    ipk: account.ipk,
    usia: account.usia,
    gender: account.gender,
  };
}

/** The fields of a profile that a row gives: undefined means "leave as stored". */
function definedFields(profile: StudentFields): Partial<StudentFields> {
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined));
}

/**
 * Decisions §19: what a roster's new advisors would take along. When a student's advisor
 * changes, their open follow-up case moves to the new advisor if the former one handled it
 * (src/db/tindak-lanjut-advisor.ts); the preview says so per row and per new advisor. Read in
 * three queries whatever the roster's size.
 */
export class AdvisorMoves {
  private readonly advisorOf: Map<string, string | null>;
  private readonly names: Map<string, string | null>;
  private readonly movingCases: Set<string>;

  constructor(db: DatabaseClient, roster: readonly AccountInput[]) {
    this.advisorOf = new Map(db.select({ nim: mahasiswa.nim, nip: mahasiswa.nipDoswal }).from(mahasiswa).all().map((row) => [row.nim, row.nip]));
    this.names = new Map(db.select({ nip: dosen.nip, nama: dosen.nama }).from(dosen).all().map((row) => [row.nip, row.nama || null]));
    // A lecturer of the same file is written first, with the row's name.
    for (const account of roster) if (account.role === "dosen" && account.nama !== undefined) this.names.set(account.nip!, account.nama);
    this.movingCases = new Set(
      db
        .select({ nim: tindakLanjut.nim })
        .from(tindakLanjut)
        .innerJoin(mahasiswa, eq(mahasiswa.nim, tindakLanjut.nim))
        .where(and(ne(tindakLanjut.status, "selesai"), sql`${tindakLanjut.nip} IS ${mahasiswa.nipDoswal}`))
        .all()
        .map((row) => row.nim),
    );
  }

  private lecturer(nip: string | null): NamedLecturer {
    return { NIP: nip, nama_dosen: nip === null ? null : (this.names.get(nip) ?? null) };
  }

  /** A student row's change of advisor (the row changes `nipDoswal`). */
  moveOf(account: AccountInput): AdvisorMove {
    const from = this.advisorOf.get(account.nim!) ?? null;
    return { from: this.lecturer(from), to: this.lecturer(account.nipDoswal!), openCases: this.movingCases.has(account.nim!) ? 1 : 0 };
  }

  /** The open cases moving, per new advisor, by NIP. */
  casesMoving(rows: readonly PreviewRow[]): ImportPreview["casesMoving"] {
    const byAdvisor = new Map<string, number>();
    for (const row of rows) if (row.advisor && row.advisor.openCases > 0) byAdvisor.set(row.advisor.to.NIP!, (byAdvisor.get(row.advisor.to.NIP!) ?? 0) + row.advisor.openCases);
    return [...byAdvisor].sort(([a], [b]) => a.localeCompare(b)).map(([nip, count]) => ({ ...this.lecturer(nip), count }));
  }
}
