import { and, asc, count, desc, eq, not, sql, sum } from "drizzle-orm";
import type { DatabaseClient } from "../../db";
import { latestSkrining, lecturerLatestLevels, mahasiswa } from "../../db/schema";
import { preparedOnFirstUse } from "../../db/prepared";

/**
 * One page of a lecturer's advisees in `sort=risk` order, without a search text, read
 * from the summary's index instead of ordering every advisee (issue 28):
 *
 * 1. the screened advisees asking for attention (an early warning, or a latest stress at
 *    the follow-up threshold, decisions §13), newest latest screening first, ties by NIM;
 * 2. the other screened advisees, in the same order;
 * 3. the advisees without a counted screening (none yet, or restricted), by NIM.
 *
 * This is the order of the general query (`DosenService`'s pageByRisk, which also takes
 * a search text); a page costs in proportion to how far it is, not to the advisees.
 */
export class RiskPages {
  private readonly parts;
  private readonly attentionCount;
  private readonly screenedCount;

  constructor(db: DatabaseClient, followUpStressMin: number) {
    const ofLecturer = eq(latestSkrining.nip, sql.placeholder("nip"));
    const attention = sql`(${latestSkrining.earlyWarning} = 1 OR coalesce(${latestSkrining.scoreStress} >= ${followUpStressMin}, 0))`;
    const screened = (which: typeof attention) =>
      preparedOnFirstUse(() =>
        db
          .select({ nim: latestSkrining.nim })
          .from(latestSkrining)
          .where(and(ofLecturer, which))
          .orderBy(desc(latestSkrining.tanggal), asc(latestSkrining.nim))
          .limit(sql.placeholder("limit"))
          .offset(sql.placeholder("offset"))
          .prepare(),
      );
    // latest_skrining.NIP is the advisor for every unrestricted screened student; no row
    // carrying it means unscreened or restricted.
    const unscreened = preparedOnFirstUse(() =>
      db
        .select({ nim: mahasiswa.nim })
        .from(mahasiswa)
        .where(
          and(
            eq(mahasiswa.nipDoswal, sql.placeholder("nip")),
            sql`NOT EXISTS (SELECT 1 FROM ${latestSkrining} WHERE ${latestSkrining.nim} = ${mahasiswa.nim} AND ${latestSkrining.nip} IS NOT NULL)`,
          ),
        )
        .orderBy(asc(mahasiswa.nim))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(),
    );
    this.parts = { attention: screened(attention), other: screened(not(attention)), unscreened };
    this.attentionCount = preparedOnFirstUse(() => db.select({ total: count() }).from(latestSkrining).where(and(ofLecturer, attention)).prepare());
    this.screenedCount = preparedOnFirstUse(() =>
      db
        .select({ total: sum(lecturerLatestLevels.students).mapWith(Number) })
        .from(lecturerLatestLevels)
        .where(eq(lecturerLatestLevels.nip, sql.placeholder("nip")))
        .prepare(),
    );
  }

  /** The NIMs of the page that skips `offset` advisees and holds up to `limit`. */
  nims(nip: string, limit: number, offset: number): string[] {
    let attentionSize: number | undefined;
    const attention = () => (attentionSize ??= this.attentionCount.get({ nip })?.total ?? 0);
    const sizes = [attention, () => (this.screenedCount.get({ nip })?.total ?? 0) - attention(), () => Infinity];
    const pages = [this.parts.attention, this.parts.other, this.parts.unscreened];
    const nims: string[] = [];
    let skip = offset;
    for (const [index, page] of pages.entries()) {
      const rows = page.all({ nip, limit: limit - nims.length, offset: skip });
      for (const row of rows) nims.push(row.nim);
      if (nims.length === limit) break;
      // This part ended before the page did: the next one starts past what is left to skip.
      const size = rows.length > 0 ? skip + rows.length : sizes[index]!();
      if (index === 0 && rows.length > 0) attentionSize = size;
      skip = Math.max(0, skip - size);
    }
    return nims;
  }
}
