import { eq } from "drizzle-orm";
import type { DatabaseClient } from "../db";
import { dosen, jurusan, mahasiswa } from "../db/schema";
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
      const stored = this.db.select({ nama: dosen.nama }).from(dosen).where(eq(dosen.nip, account.nip!)).get();
      if (!stored) return { kind: "new" };
      return account.nama === undefined || account.nama === stored.nama ? { kind: "none" } : { kind: "fields", fields: ["nama"] };
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
      if (change.kind === "new") this.db.insert(dosen).values({ nip: account.nip!, nama: account.nama ?? "", userId }).run();
      else if (change.kind === "fields") this.db.update(dosen).set({ nama: account.nama }).where(eq(dosen.nip, account.nip!)).run();
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
