import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultFollowUpContactDays, defaultFollowUpStressMin } from "../../src/config";
import { openDatabase } from "../../src/db";
import { WriteQueue } from "../../src/db/write-queue";
import { applyMigrations } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import { DosenService } from "../../src/modules/dosen/service";
import { StatisticsService } from "../../src/modules/dosen/statistics";
import { CatatanService } from "../../src/modules/catatan/service";
import { CaseReader } from "../../src/modules/tindak-lanjut/cases";
import { AdvisorScope } from "../../src/privasi/advisor-scope";
import { ProcessingRestriction } from "../../src/privasi/restriction";
import { measuresOfEarlierRows } from "../db/earlier-rows";
import { temporaryDir } from "../helpers";

// The lecturer queries must cost in proportion to one lecturer's advisees, never to the
// whole tables: they start from mahasiswa_nip_doswal_index, and reach each advisee's
// latest screening through the summary table's primary key (one row per student), never
// by reading a student's screenings.

const db = openDatabase(join(temporaryDir("skrining-plans-"), "skrining.db"));
afterAll(() => db.$client.close());
const statistics = new StatisticsService(db, "Asia/Jakarta");
const dosen = new DosenService(db, statistics, new CatatanService(db, new WriteQueue(db.$client, { busyWaitMilliseconds: 1000 }), new AdvisorScope(db.$client), new ProcessingRestriction(db)), defaultFollowUpStressMin, new CaseReader(db, defaultFollowUpContactDays));

function plan(prepared: { getQuery(): { sql: string } }): string[] {
  return db.$client
    .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${prepared.getQuery().sql}`)
    .all()
    .map((row) => row.detail);
}

const adviseesByIndex = /^SEARCH mahasiswa USING (COVERING )?INDEX mahasiswa_nip_doswal_index \(NIP_doswal=\?\)$/;
// The summary tables are WITHOUT ROWID: the primary key search reaches the row itself.
const latestByNim = /^SEARCH latest_skrining USING PRIMARY KEY \(NIM=\?\) LEFT-JOIN$/;
const screeningById = /^SEARCH riwayat_skrining USING INTEGER PRIMARY KEY \(rowid=\?\) LEFT-JOIN$/;

const queries = {
  "statistics: advisees of one lecturer": { prepared: statistics["adviseesOne"], expected: [/^SEARCH mahasiswa USING COVERING INDEX mahasiswa_nip_doswal_index \(NIP_doswal=\?\)$/] },
  "statistics: latest levels of one lecturer": {
    prepared: statistics["levelsOne"],
    expected: [/^SEARCH lecturer_latest_levels USING PRIMARY KEY \(NIP=\?\)$/],
  },
  "statistics: advisees of every lecturer (the export)": {
    prepared: statistics["adviseesAll"],
    expected: [/^SEARCH mahasiswa USING COVERING INDEX mahasiswa_nip_doswal_index \(NIP_doswal>\?\)$/],
  },
  "statistics: weekly trend": {
    prepared: statistics["weekly"],
    expected: [/^SEARCH lecturer_weekly_levels USING PRIMARY KEY \(NIP=\? AND week_start>\? AND week_start<\?\)$/],
  },
  "export: each advisee's latest screening": { prepared: statistics["advisees"], expected: [adviseesByIndex, latestByNim, screeningById] },
  "list: count": { prepared: dosen["adviseeCount"], expected: [adviseesByIndex] },
  "list: count without a search text": {
    prepared: dosen["everyAdviseeCount"],
    expected: [/^SEARCH mahasiswa USING COVERING INDEX mahasiswa_nip_doswal_index \(NIP_doswal=\?\)$/],
  },
  "list: page by NIM": { prepared: dosen["pageByNim"], expected: [adviseesByIndex] },
  "list: page by risk": { prepared: dosen["pageByRisk"], expected: [adviseesByIndex, latestByNim] },
  "list: the page's rows": {
    prepared: dosen["pageDetails"],
    expected: [/^SEARCH mahasiswa USING INDEX sqlite_autoindex_mahasiswa_1 \(NIM=\?\)$/, latestByNim, screeningById],
  },
} as const;

describe("query plans of the lecturer routes", () => {
  test("the export's latest levels of every lecturer: the summary read whole, a few rows per lecturer", () => {
    expect(plan(statistics["levelsAll"])).toEqual(["SCAN lecturer_latest_levels"]);
  });

  test.each(Object.entries(queries))("%s", (_name, { prepared, expected }) => {
    const details = plan(prepared);
    for (const pattern of expected) expect({ pattern: String(pattern), found: details.some((detail) => pattern.test(detail)) }).toEqual({ pattern: String(pattern), found: true });
    // Nothing is scanned whole but the JSON list of a page's NIMs.
    expect(details.filter((detail) => detail.startsWith("SCAN") && !detail.startsWith("SCAN json_each"))).toEqual([]);
    // Screenings are reached one by one through the summary table, never searched per student.
    expect(details.filter((detail) => detail.includes("riwayat_skrining") && !screeningById.test(detail))).toEqual([]);
  });

  test("the NIM order of a page comes from the index, without sorting", () => {
    expect(plan(dosen["pageByNim"]).filter((detail) => detail.includes("TEMP B-TREE"))).toEqual([]);
  });
});

describe("migration 0001 (the covering screening index) on a database of the previous version", () => {
  test("replaces the index and keeps every row", () => {
    const previous = migrations.filter((migration) => migration.tag === "0000_init");
    expect(previous).toHaveLength(1);
    const old = openDatabase(join(temporaryDir("skrining-plans-"), "skrining.db"), previous);
    const sqlite = old.$client;
    try {
      sqlite.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'dsn', 'h', 'dosen'), (2, 'mhs', 'h', 'mahasiswa')");
      sqlite.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Dosen', 1)");
      sqlite.run("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES ('N1', 2, 'D1')");
      sqlite.run(`INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi)
        VALUES ('N1', '2026-01-01T00:00:00.000Z', '{}', 'Tinggi', 'Rendah', 's', 150, -1), ('N1', '2026-02-01T00:00:00.000Z', '{}', 'Rendah', 'Tinggi', 's', 60, 4)`);
      const indexes = () => sqlite.query<{ name: string }, []>("PRAGMA index_list(riwayat_skrining)").all().map((index) => index.name).sort();
      expect(indexes()).toContain("riwayat_nim_tanggal_index");
      const rows = sqlite.query("SELECT * FROM riwayat_skrining ORDER BY Id_skrining").all();

      expect(applyMigrations(sqlite, migrations)).toContain("0001_riwayat_covering_index");
      expect(indexes()).not.toContain("riwayat_nim_tanggal_index");
      expect(indexes()).toContain("riwayat_nim_tanggal_levels_index");
      // Later migrations add columns (0009: the model's probabilities; 0017: the measures of decisions §20), empty for the rows already there.
      expect(sqlite.query("SELECT * FROM riwayat_skrining ORDER BY Id_skrining").all()).toEqual(
        rows.map((row) => ({ ...(row as object), stress_probability: null, motivasi_probability: null, ...measuresOfEarlierRows })),
      );
      expect(new StatisticsService(old, "Asia/Jakarta").countsFor("D1")).toMatchObject({ total_mahasiswa: 1, sudah_skrining: 1, stress_dist: { Rendah: 1, Sedang: 0, Tinggi: 0 } });
    } finally {
      sqlite.close();
    }
  });
});
