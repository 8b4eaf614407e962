import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { join } from "node:path";
import { defaultFollowUpContactDays, defaultFollowUpStressMin } from "../../src/config";
import { openDatabase } from "../../src/db";
import { WriteQueue } from "../../src/db/write-queue";
import { DosenService } from "../../src/modules/dosen/service";
import { RiskPages } from "../../src/modules/dosen/risk-pages";
import { StatisticsService } from "../../src/modules/dosen/statistics";
import { CatatanService } from "../../src/modules/catatan/service";
import { CaseReader } from "../../src/modules/tindak-lanjut/cases";
import { AdvisorScope } from "../../src/privasi/advisor-scope";
import { ProcessingRestriction } from "../../src/privasi/restriction";
import { temporaryDir } from "../helpers";

// Issue 28: `sort=risk` without a search text is read page by page from the summary's
// index (RiskPages). Every page must hold exactly what the general query, which orders
// every advisee, gives for it: the oracle here is that query.

const levels = ["Rendah", "Sedang", "Tinggi"] as const;
// Few distinct times, so that ties in tanggal are common and NIM has to break them.
const times = ["2026-10-01T08:00:00.000Z", "2026-10-05T08:00:00.000Z", "2026-10-05T08:00:00.000Z", "2026-11-02T09:30:00.000Z"];
const scores = [40, 100, 130, defaultFollowUpStressMin - 1, defaultFollowUpStressMin, 200];

const student = fc.record({
  lecturer: fc.constantFrom<string | null>("D1", "D2", null),
  restricted: fc.boolean(),
  screenings: fc.array(fc.record({ tanggal: fc.constantFrom(...times), stres: fc.constantFrom(...levels), motivasi: fc.constantFrom(...levels), score: fc.constantFrom(...scores) }), { maxLength: 3 }),
});

type Student = typeof student extends fc.Arbitrary<infer T> ? T : never;

// One database for every run: each run replaces the students and their screenings.
const db = openDatabase(join(temporaryDir("skrining-risk-"), "skrining.db"));
db.$client.run("INSERT INTO users (Id_User, username, password_hash, role) VALUES (1, 'd1', 'h', 'dosen'), (2, 'd2', 'h', 'dosen')");
db.$client.run("INSERT INTO dosen (NIP, nama_dosen, Id_User) VALUES ('D1', 'Satu', 1), ('D2', 'Dua', 2)");
afterAll(() => db.$client.close());

function populate(students: Student[]): void {
  const sqlite = db.$client;
  sqlite.run("DELETE FROM riwayat_skrining");
  sqlite.run("DELETE FROM mahasiswa");
  sqlite.run("DELETE FROM users WHERE role = 'mahasiswa'");
  const addUser = sqlite.prepare("INSERT INTO users (Id_User, username, password_hash, role) VALUES (?, ?, 'h', 'mahasiswa')");
  const addStudent = sqlite.prepare("INSERT INTO mahasiswa (NIM, Id_User, NIP_doswal) VALUES (?, ?, ?)");
  const addScreening = sqlite.prepare(
    "INSERT INTO riwayat_skrining (NIM, tanggal_skrining, input_jawaban, tingkat_stres, tingkat_motivasi, saran, score_stress, score_sdi) VALUES (?, ?, '{}', ?, ?, 's', ?, 0)",
  );
  const restrict = sqlite.prepare("UPDATE mahasiswa SET dibatasi_sejak = '2026-11-20T00:00:00.000Z' WHERE NIM = ?");
  students.forEach((generated, index) => {
    // NIMs out of insertion order, so that the NIM order is not the order rows were written in.
    const nim = `N${String((index * 7) % 53).padStart(2, "0")}-${index}`;
    addUser.run(index + 10, `m${index}`);
    addStudent.run(nim, index + 10, generated.lecturer);
    for (const screening of generated.screenings) addScreening.run(nim, screening.tanggal, screening.stres, screening.motivasi, screening.score);
    if (generated.restricted) restrict.run(nim);
  });
}

function services() {
  const dosen = new DosenService(db, new StatisticsService(db, "Asia/Jakarta"), new CatatanService(db, new WriteQueue(db.$client, { busyWaitMilliseconds: 1000 }), new AdvisorScope(db.$client), new ProcessingRestriction(db)), defaultFollowUpStressMin, new CaseReader(db, defaultFollowUpContactDays));
  return { general: dosen["pageByRisk"], pages: new RiskPages(db, defaultFollowUpStressMin) };
}

describe("sort=risk pages from the summary's index", () => {
  test("every page of every lecturer equals the general query's page, whatever the advisees", () => {
    fc.assert(
      fc.property(fc.array(student, { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), (students, perPage) => {
        populate(students);
        const { general, pages } = services();
        for (const nip of ["D1", "D2", "D404"]) {
          const everyone = general.all({ nip, pattern: "%%", limit: 1000, offset: 0 }).map((row) => row.nim);
          for (let offset = 0; offset <= everyone.length + perPage; offset += perPage) {
            expect(pages.nims(nip, perPage, offset)).toEqual(everyone.slice(offset, offset + perPage));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  test("a page is read from the index, in its order, without sorting the advisees", () => {
    const { pages } = services();
    {
      const plan = (prepared: { getQuery(): { sql: string } }) =>
        db.$client.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${prepared.getQuery().sql}`).all().map((row) => row.detail);
      for (const part of [pages["parts"].attention, pages["parts"].other]) {
        expect(plan(part)).toEqual(["SEARCH latest_skrining USING COVERING INDEX latest_skrining_nip_tanggal_index (NIP=?)"]);
      }
      const unscreened = plan(pages["parts"].unscreened);
      expect(unscreened[0]).toMatch(/^SEARCH mahasiswa USING (COVERING )?INDEX mahasiswa_nip_doswal_index \(NIP_doswal=\?\)$/);
      expect(unscreened.filter((detail) => detail.includes("TEMP B-TREE") || detail.startsWith("SCAN"))).toEqual([]);
    }
  });
});
