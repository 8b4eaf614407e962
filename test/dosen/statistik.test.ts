import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { StatisticsService } from "../../src/modules/dosen/statistics";
import { addScreening, dayMs, type Lecturers, lecturerService, studentsCsv, weekMs } from "./support";

let lecturers: Lecturers;

const statistik = (who: keyof Lecturers["tokens"], query = "") => lecturers.service.request("GET", `/api/dosen/statistik${query}`, { token: lecturers.tokens[who] });
const emptyShape = { total_mahasiswa: 0, sudah_skrining: 0, stress_dist: {}, motivasi_dist: {} };
const zero = { Rendah: 0, Sedang: 0, Tinggi: 0 };

/** The ISO week of a timestamp as SQLite's own strftime names it: an oracle independent of the service's arithmetic. */
const sqliteIsoWeek = (time: number) =>
  lecturers.service.context.db.$client.query<{ week: string }, [string]>("SELECT strftime('%G-W%V', ?) AS week").get(new Date(time).toISOString())!.week;

beforeAll(async () => {
  lecturers = await lecturerService(
    studentsCsv([
      ["S01", "Satu", "D001"],
      ["S02", "Dua", "D001"],
      ["S03", "Tiga", "D001"],
      ["S04", "Empat", "D001"],
      ["S05", "Lima", "D001"],
      ["T01", "Tren Satu", "D002"],
      ["T02", "Tren Dua", "D002"],
    ]),
  );
  const service = lecturers.service;
  // Several screenings per student: only the latest counts.
  addScreening(service, "N001", "2026-01-10T08:00:00.000Z", "Tinggi", "Rendah");
  addScreening(service, "N001", "2026-03-10T08:00:00.000Z", "Rendah", "Tinggi");
  addScreening(service, "S01", "2026-02-01T08:00:00.000Z", "Sedang", "Sedang");
  // S02: two screenings share the latest tanggal (the higher Id wins); a later insert with an older tanggal does not.
  addScreening(service, "S02", "2026-04-01T00:00:00.000Z", "Tinggi", "Sedang");
  addScreening(service, "S02", "2026-04-01T00:00:00.000Z", "Rendah", "Rendah");
  addScreening(service, "S02", "2026-03-01T00:00:00.000Z", "Sedang", "Tinggi");
  addScreening(service, "S03", "2026-05-01T08:00:00.000Z", "Tinggi", "Rendah");
  // S04 and S05 have none. Another lecturer's students must not count for D001.
  addScreening(service, "N002", "2026-05-01T08:00:00.000Z", "Tinggi", "Tinggi");
});
afterAll(() => lecturers.service.close());

const d001 = {
  total_mahasiswa: 6,
  sudah_skrining: 4,
  belum_skrining: 2,
  stress_dist: { Rendah: 2, Sedang: 1, Tinggi: 1 },
  motivasi_dist: { Rendah: 2, Sedang: 1, Tinggi: 1 },
};

describe("GET /api/dosen/statistik: counts", () => {
  test("each advisee counts once, by the latest screening (ties to the highest Id_skrining)", async () => {
    const response = await statistik("dosen1");
    expect(response.status).toBe(200);
    const { trend, ...counts } = response.body;
    expect(counts).toEqual(d001);
    expect(trend).toHaveLength(12);
  });

  test("an admin names the lecturer with NIP; a lecturer cannot", async () => {
    const { trend: _adminTrend, ...admin } = (await statistik("admin", "?NIP=D001")).body;
    expect(admin).toEqual(d001);
    const { trend: _ownTrend, ...own } = (await statistik("dosen1", "?NIP=D002")).body;
    expect(own).toEqual(d001);
  });

  test("advisees without any screening: every key present, all zero", async () => {
    lecturers.service.context.db.$client.run("UPDATE mahasiswa SET NIP_doswal = 'D003' WHERE NIM = 'S04'");
    try {
      const { trend, ...counts } = (await statistik("tanpaBimbingan")).body;
      expect(counts).toEqual({ total_mahasiswa: 1, sudah_skrining: 0, belum_skrining: 1, stress_dist: zero, motivasi_dist: zero });
      expect(trend.every((week: { stress: unknown; motivasi: unknown }) => JSON.stringify([week.stress, week.motivasi]) === JSON.stringify([zero, zero]))).toBe(true);
    } finally {
      lecturers.service.context.db.$client.run("UPDATE mahasiswa SET NIP_doswal = 'D001' WHERE NIM = 'S04'");
    }
  });

  test.each([
    ["an admin without NIP", "admin", ""],
    ["an admin with an empty NIP", "admin", "?NIP="],
    ["an admin with an unknown NIP", "admin", "?NIP=D999"],
    ["a dosen account without a lecturer profile", "tanpaProfil", ""],
    ["a lecturer without advisees", "tanpaBimbingan", ""],
  ] as const)("an empty population has exactly the interface's shape: %s", async (_name, who, query) => {
    const response = await statistik(who, query);
    expect(response.status).toBe(200);
    expect(response.body).toStrictEqual(emptyShape);
    expect(Object.keys(response.body)).toEqual(["total_mahasiswa", "sudah_skrining", "stress_dist", "motivasi_dist"]);
  });
});

describe("GET /api/dosen/statistik: trend", () => {
  test("the last 12 ISO weeks (in WIB), oldest first, counting every screening of the advisees in each", async () => {
    const now = Date.now();
    // The faculty's weeks begin Monday 00:00 WIB; WIB is UTC+7 all year.
    const wib = 7 * 3600 * 1000;
    const local = new Date(now + wib);
    const dayOfWeek = (local.getUTCDay() + 6) % 7;
    const currentStart = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - dayOfWeek * dayMs - wib;
    const oldestStart = currentStart - 11 * weekMs;
    const nextStart = currentStart + weekMs;
    const service = lecturers.service;
    addScreening(service, "T01", oldestStart - 1, "Tinggi", "Tinggi"); // the week before: left out
    addScreening(service, "T01", oldestStart, "Tinggi", "Rendah"); // first instant of the oldest week
    addScreening(service, "T02", oldestStart + 2 * dayMs, "Sedang", "Rendah");
    addScreening(service, "T01", currentStart + 3600 * 1000, "Rendah", "Sedang");
    addScreening(service, "T02", nextStart - 1, "Tinggi", "Sedang"); // last instant of the current week
    addScreening(service, "T02", nextStart, "Rendah", "Rendah"); // next week: left out
    addScreening(service, "N001", currentStart + 3600 * 1000, "Tinggi", "Tinggi"); // another lecturer's student

    const response = await statistik("admin", "?NIP=D002");
    expect(response.status).toBe(200);
    const trend = response.body.trend as { week: string; start: string; stress: object; motivasi: object }[];
    expect(trend.map((week) => week.start)).toEqual(Array.from({ length: 12 }, (_, index) => new Date(oldestStart + index * weekMs + wib).toISOString().slice(0, 10)));
    expect(trend.map((week) => week.week)).toEqual(Array.from({ length: 12 }, (_, index) => sqliteIsoWeek(oldestStart + index * weekMs + wib + 3 * dayMs)));
    expect(trend.at(-1)!.week).toBe(sqliteIsoWeek(now + wib));
    expect(trend[0]).toEqual({
      week: trend[0]!.week,
      start: trend[0]!.start,
      stress: { Rendah: 0, Sedang: 1, Tinggi: 1 },
      motivasi: { Rendah: 2, Sedang: 0, Tinggi: 0 },
    });
    expect(trend[11]).toMatchObject({ stress: { Rendah: 1, Sedang: 0, Tinggi: 1 }, motivasi: { Rendah: 0, Sedang: 2, Tinggi: 0 } });
    for (const week of trend.slice(1, 11)) expect(week).toMatchObject({ stress: zero, motivasi: zero });
  });
});

describe("StatisticsService.trend at fixed times", () => {
  const labels = (service: StatisticsService, now: number) => service.trend("D003", now).map((week) => `${week.week} ${week.start}`);

  test("weeks across a year boundary take the ISO year of their Thursday", () => {
    const service = new StatisticsService(lecturers.service.context.db, "Asia/Jakarta");
    // Thursday 2026-01-01 lies in 2026-W01, which began on Monday 2025-12-29.
    expect(labels(service, Date.UTC(2026, 0, 1, 12))).toEqual([
      "2025-W42 2025-10-13",
      "2025-W43 2025-10-20",
      "2025-W44 2025-10-27",
      "2025-W45 2025-11-03",
      "2025-W46 2025-11-10",
      "2025-W47 2025-11-17",
      "2025-W48 2025-11-24",
      "2025-W49 2025-12-01",
      "2025-W50 2025-12-08",
      "2025-W51 2025-12-15",
      "2025-W52 2025-12-22",
      "2026-W01 2025-12-29",
    ]);
    // 2026 has 53 ISO weeks: Sunday 2027-01-03 is the last day of 2026-W53, until 23:59:59.999 WIB (16:59:59.999 UTC).
    expect(labels(service, Date.UTC(2027, 0, 3, 16, 59, 59, 999)).slice(-2)).toEqual(["2026-W52 2026-12-21", "2026-W53 2026-12-28"]);
    // Monday 00:00 WIB (Sunday 17:00 UTC) already belongs to the new week.
    expect(labels(service, Date.UTC(2027, 0, 3, 17)).at(-1)).toBe("2027-W01 2027-01-04");
    // The same moment in a service that counts in UTC is still Sunday.
    expect(labels(new StatisticsService(lecturers.service.context.db, "UTC"), Date.UTC(2027, 0, 3, 17)).at(-1)).toBe("2026-W53 2026-12-28");
  });

  test("screenings fall into their week by the faculty's time (WIB, UTC+7), at the boundaries too", () => {
    const service = new StatisticsService(lecturers.service.context.db, "Asia/Jakarta");
    const db = lecturers.service;
    // A week runs from Monday 00:00 WIB (Sunday 17:00 UTC) to Sunday 23:59:59.999 WIB.
    addScreening(db, "T01", "2025-10-12T16:59:59.999Z", "Tinggi", "Tinggi"); // before the oldest week
    addScreening(db, "T01", "2025-10-12T17:00:00.000Z", "Tinggi", "Rendah");
    addScreening(db, "T02", "2025-10-19T16:59:59.999Z", "Sedang", "Rendah");
    addScreening(db, "T02", "2025-10-19T17:00:00.000Z", "Rendah", "Tinggi");
    addScreening(db, "T01", "2025-12-31T10:00:00.000Z", "Tinggi", "Tinggi");
    addScreening(db, "T02", "2026-01-04T16:59:59.999Z", "Rendah", "Sedang"); // after now, still the current week
    addScreening(db, "T02", "2026-01-04T17:00:00.000Z", "Rendah", "Rendah"); // next week
    addScreening(db, "N001", "2025-11-01T00:00:00.000Z", "Tinggi", "Tinggi"); // another lecturer's student

    const trend = service.trend("D002", Date.UTC(2026, 0, 1, 12));
    expect(trend[0]).toEqual({ week: "2025-W42", start: "2025-10-13", stress: { Rendah: 0, Sedang: 1, Tinggi: 1 }, motivasi: { Rendah: 2, Sedang: 0, Tinggi: 0 } });
    expect(trend[1]).toEqual({ week: "2025-W43", start: "2025-10-20", stress: { Rendah: 1, Sedang: 0, Tinggi: 0 }, motivasi: { Rendah: 0, Sedang: 0, Tinggi: 1 } });
    expect(trend[11]).toEqual({ week: "2026-W01", start: "2025-12-29", stress: { Rendah: 1, Sedang: 0, Tinggi: 1 }, motivasi: { Rendah: 0, Sedang: 1, Tinggi: 1 } });
    for (const week of trend.slice(2, 11)) expect(week).toMatchObject({ stress: zero, motivasi: zero });
  });
});
