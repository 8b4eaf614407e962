import { eq, sql } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { preparedOnFirstUse } from "../../db/prepared";
import type { WriteQueue } from "../../db/write-queue";
import { dosen } from "../../db/schema";
import { invalid, notFound } from "../../errors";
import { readTelepon } from "../../profile-fields";
import type { Principal } from "../../requests/principal";
import type { JsonObject } from "../../requests/values";

export const profilDosenMessages = {
  lecturerUnknown: "Dosen tidak ditemukan.",
  teleponRequired: "telepon wajib disertakan; kirim \"\" untuk menghapusnya.",
  saved: "Profil dosen berhasil diperbarui.",
} as const;

/**
 * A lecturer's own profile (decisions §19): their name as the roster has it, and the
 * telephone/WhatsApp number they give their advisees (`PUT /api/dosen/profil`; the roster's
 * `telepon` column writes the same). Students see it next to "dosen wali Anda".
 */
export class DosenProfilService {
  private readonly byNip;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
  ) {
    this.byNip = preparedOnFirstUse(() => db.select({ NIP: dosen.nip, nama_dosen: dosen.nama, telepon: dosen.telepon }).from(dosen).where(eq(dosen.nip, sql.placeholder("nip"))).prepare());
  }

  /** The caller's lecturer profile; a `dosen` account without one: 404. */
  own(principal: Principal) {
    const found = principal.nip === null ? undefined : this.byNip.get({ nip: principal.nip });
    if (!found) throw notFound(profilDosenMessages.lecturerUnknown);
    return found;
  }

  /** Checks in order: the profile (404), `telepon` given (400), its form (400); "" or null clears it. */
  async update(principal: Principal, body: JsonObject) {
    const profile = this.own(principal);
    if (!("telepon" in body)) throw invalid(profilDosenMessages.teleponRequired);
    const telepon = readTelepon(body.telepon);
    if ("error" in telepon) throw invalid(telepon.error);
    await this.writes.run(() => this.db.update(dosen).set({ telepon: telepon.value }).where(eq(dosen.nip, profile.NIP)).run(), { touches: [dosen] });
    return { message: profilDosenMessages.saved, data: { ...profile, telepon: telepon.value } };
  }
}
