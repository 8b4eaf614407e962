import { eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import type { WriteQueue } from "../../db/write-queue";
import { dosen, jurusan, mahasiswa } from "../../db/schema";
import { type JsonObject, exceedsCharacters, isBlank } from "../../requests/values";
import { invalid, notFound } from "../../errors";
import { genderAsStored, readIpk, readUsia } from "../../profile-fields";
import { serializeMahasiswa } from "../../records";
import type { Principal } from "../../requests/principal";
import { preparedOnFirstUse } from "../../db/prepared";

export const profilMessages = {
  studentUnknown: "Mahasiswa tidak ditemukan.",
} as const;

const textFields = [
  ["angkatan", "angkatan"],
  ["gender", "gender"],
  ["freq_olahraga", "freqOlahraga"],
  ["durasi_tidur", "durasiTidur"],
] as const;
const textMaxLength = 50;

/** The fields profile status checks, in the order `missing_fields` lists them. */
const requiredFields = ["angkatan", "gender", "usia", "freq_olahraga", "durasi_tidur"] as const;

/** The student's own profile: the editable fields, its completeness and the summary view. */
export class ProfilService {
  private readonly profileByNim;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.profileByNim = preparedOnFirstUse(() =>
      db
        .select({ profile: mahasiswa, program: jurusan.nama, namaDosenWali: dosen.nama, teleponDosenWali: dosen.telepon })
        .from(mahasiswa)
        .leftJoin(jurusan, eq(jurusan.id, mahasiswa.jurusanId))
        .leftJoin(dosen, eq(dosen.nip, mahasiswa.nipDoswal))
        .where(eq(mahasiswa.nim, sql.placeholder("nim")))
        .prepare(),
    );
  }

  private ownProfile(principal: Principal) {
    const found = principal.nim === null ? undefined : this.profileByNim.get({ nim: principal.nim });
    if (!found) throw notFound(profilMessages.studentUnknown);
    return found.profile;
  }

  /**
   * Interface profile update rules: usia before IPK, then the text fields. A field that is
   * absent, null or "" is left as it is: a blank form field never erases stored data.
   */
  async update(principal: Principal, body: JsonObject) {
    const profile = this.ownProfile(principal);
    const changes: Partial<typeof mahasiswa.$inferInsert> = {};

    if (!isBlank(body.usia)) {
      const usia = readUsia(body.usia);
      if ("error" in usia) throw invalid(usia.error);
      changes.usia = usia.value;
    }
    if (!isBlank(body.IPK)) {
      const ipk = readIpk(body.IPK);
      if ("error" in ipk) throw invalid(ipk.error);
      changes.ipk = ipk.value;
    }
    for (const [key, column] of textFields) {
      const value = body[key];
      if (isBlank(value)) continue;
      // Older clients send the year as a number.
      const text = key === "angkatan" && typeof value === "number" && Number.isInteger(value) ? String(value) : value;
      if (typeof text !== "string" || exceedsCharacters(text.trim(), textMaxLength) || text.trim() === "") {
        throw invalid(`${key} harus berupa teks 1-${textMaxLength} karakter.`);
      }
      changes[column] = key === "gender" ? genderAsStored(text) : text.trim();
    }

    const updated =
      Object.keys(changes).length === 0
        ? profile
        : await this.writes.run(() => this.db.update(mahasiswa).set(changes).where(eq(mahasiswa.nim, profile.nim)).returning().get()!);
    return { message: "Profil berhasil diperbarui.", data: serializeMahasiswa(updated) };
  }

  status(principal: Principal) {
    const profile = serializeMahasiswa(this.ownProfile(principal));
    const missing = requiredFields.filter((field) => !profile[field]);
    return { is_complete: missing.length === 0, missing_fields: missing };
  }

  /** The summary view (the route's `ownNim` and `advisee` options have checked the caller). */
  data(nim: string) {
    const found = this.profileByNim.get({ nim });
    if (!found) throw notFound(profilMessages.studentUnknown);
    const { profile, program, namaDosenWali, teleponDosenWali } = found;
    return {
      nim: profile.nim,
      nama: profile.nama ?? "",
      program: program ?? "",
      angkatan: profile.angkatan ?? "",
      kelas: profile.kelas ?? "",
      ipk: profile.ipk,
      foto_profil: profile.fotoProfil,
      gender: profile.gender ?? "",
      usia: profile.usia,
      freq_olahraga: profile.freqOlahraga ?? "",
      durasi_tidur: profile.durasiTidur ?? "",
      nip_doswal: profile.nipDoswal ?? "",
      nama_dosen_wali: namaDosenWali ?? "",
      telepon_dosen_wali: teleponDosenWali ?? "",
    };
  }
}
