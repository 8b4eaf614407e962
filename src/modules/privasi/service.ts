import { and, eq, sql } from "drizzle-orm";
import { appendAuditRows } from "../../audit/trail";
import type { PrivacyNotice } from "../../konten/privacy-notice";
import type { ReplaceableFile } from "../../konten/replaceable-file";
import type { DatabaseClient } from "../../db";
import { privacyAcknowledgements } from "../../db/schema";
import type { WriteQueue } from "../../db/write-queue";
import { ServiceError, invalid } from "../../errors";
import { principalActor, type Principal } from "../../requests/principal";
import type { JsonObject } from "../../requests/values";
import { nowIso } from "../../records";
import { preparedOnFirstUse } from "../../db/prepared";

export const privasiMessages = {
  studentsOnly: "Hanya mahasiswa yang menyetujui pemberitahuan privasi.",
  versionRequired: "version wajib diisi: versi pemberitahuan privasi yang Anda baca.",
  outdated: (current: string) => `Pemberitahuan privasi sudah diperbarui ke versi ${current}. Baca versi terbaru, lalu setujui lagi.`,
  acknowledged: (version: string) => `Pemberitahuan privasi versi ${version} disetujui.`,
} as const;

/** The audit row's target of the acknowledgement. */
export const acknowledgeTarget = "POST /api/privasi/pemberitahuan/setuju";

/**
 * The privacy notice as a student meets it, and their acknowledgements: one row per
 * (account, version), the first time kept. A new version of the notice asks again.
 */
export class PrivasiService {
  private readonly acknowledgementOf;

  constructor(
    private readonly db: DatabaseClient,
    private readonly writes: WriteQueue,
    private readonly notice: Pick<ReplaceableFile<PrivacyNotice>, "current">,
  ) {
    this.acknowledgementOf = preparedOnFirstUse(() =>
      db
        .select({ at: privacyAcknowledgements.acknowledgedAt })
        .from(privacyAcknowledgements)
        .where(and(eq(privacyAcknowledgements.userId, sql.placeholder("userId")), eq(privacyAcknowledgements.noticeVersion, sql.placeholder("version"))))
        .prepare(),
    );
  }

  /**
   * The notice in force; `acknowledged` says for a student whether they have acknowledged
   * this version, and is null for anyone else (no token: the activation page; staff are not asked).
   */
  current(principal: Principal | null) {
    const notice = this.notice.current();
    const acknowledged = principal?.role === "mahasiswa" ? this.acknowledgementOf.get({ userId: principal.id, version: notice.version }) !== undefined : null;
    return { ...notice, acknowledged };
  }

  /**
   * Records that the student acknowledged `body.version`, which must be the version in
   * force (a student who read an older text is asked to read the new one: 409). Repeating
   * it changes nothing and answers the first time. The row and its audit row commit together.
   */
  async acknowledge(principal: Principal, body: JsonObject, clientAddress: string) {
    const version = typeof body.version === "string" ? body.version.trim() : "";
    if (version === "") throw invalid(privasiMessages.versionRequired);
    const current = this.notice.current().version;
    if (version !== current) throw new ServiceError("conflict", privasiMessages.outdated(current), { body: { current_version: current } });

    return this.writes.run(() => {
      const existing = this.acknowledgementOf.get({ userId: principal.id, version });
      if (existing) return { created: false, acknowledgement: this.answer(version, existing.at) };
      const at = nowIso();
      this.db.insert(privacyAcknowledgements).values({ userId: principal.id, noticeVersion: version, acknowledgedAt: at }).run();
      appendAuditRows(this.db.$client, [
        {
          actor: principalActor(principal),
          clientAddress,
          action: "privacy",
          nim: principal.nim,
          target: acknowledgeTarget,
          detail: `pemberitahuan privasi versi ${version} disetujui`,
        },
      ]);
      return { created: true, acknowledgement: this.answer(version, at) };
    });
  }

  private answer(version: string, at: string) {
    return { message: privasiMessages.acknowledged(version), version, acknowledged_at: at };
  }
}
