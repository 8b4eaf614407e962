import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { fourthStudent, TestService, signedInService } from "../helpers";
import { jfifSegment, jpegWith } from "../photos/fixtures";

// Decisions §16: reads without a token (the photo route the interface leaves open) are one
// row per client address per minute, with a count and every student read, and are limited
// per address; no client makes the trail grow faster than that.

let service: TestService;
let tokens: Record<"dosen1" | "mhs1" | "mhs2" | "mhs4", string>;
const students = ["N001", "N002", "N004"];
const limit = 10;

beforeAll(async () => {
  ({ service, tokens } = await signedInService(["dosen1", "mhs1", "mhs2", "mhs4"], { environment: { SKRINING_TOKENLESS_READS: String(limit) }, more: [fourthStudent] }));
  for (const owner of ["mhs1", "mhs2", "mhs4"] as const) {
    const form = new FormData();
    form.append("foto", new File([jpegWith([jfifSegment])], "foto.jpg"));
    expect((await service.request("PUT", "/api/mahasiswa/profil/foto", { token: tokens[owner], rawBody: form })).status).toBe(200);
  }
  await service.context.audit.flushAll();
});
afterAll(() => service.close());
afterEach(() => setSystemTime());

const lastId = () => (service.context.db.$client.query("SELECT coalesce(max(id), 0) AS id FROM audit_log").get() as { id: number }).id;
const rowsAfter = (id: number) =>
  service.context.db.$client
    .query(
      `SELECT actor_role AS role, actor_username AS who, client_address AS address, reads,
         (SELECT group_concat(nim, ' ') FROM (SELECT nim FROM audit_subjects WHERE audit_id = audit_log.id ORDER BY nim)) AS students, target, detail
       FROM audit_log WHERE id > ? ORDER BY id`,
    )
    .all(id);

/** `count` photo reads from `address`, going round the students; the statuses answered. */
async function readPhotos(address: string, count: number, headers: Record<string, string> = {}): Promise<number[]> {
  service.address = address;
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    statuses.push((await service.request("GET", `/api/mahasiswa/profil/foto/${students[index % students.length]}`, { headers })).status);
  }
  return statuses;
}

describe("reads without a token", () => {
  test("a loop over the students from one address: the limit answers 429, and the minute is one row with the count and every student", async () => {
    setSystemTime(new Date("2026-05-04T01:00:00.000Z"));
    const before = lastId();
    const statuses = await readPhotos("10.0.0.66", limit + 5);
    expect(statuses).toEqual([...Array(limit).fill(200), ...Array(5).fill(429)]);
    service.address = "10.0.0.66";
    const refused = await service.request("GET", "/api/mahasiswa/profil/foto/N001");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Terlalu banyak permintaan\. Coba lagi dalam \d+ detik\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Nothing is written before the minute ends; then one row.
    expect(rowsAfter(before)).toEqual([]);
    await service.context.audit.flushAll();
    expect(rowsAfter(before)).toEqual([
      { role: "anonim", who: null, address: "10.0.0.66", reads: limit, students: students.join(" "), target: "GET /api/mahasiswa/profil/foto/:nim", detail: null },
    ]);
  });

  test("each address its own row and its own limit; a token that does not authenticate counts as none", async () => {
    setSystemTime(new Date("2026-05-04T02:00:00.000Z"));
    const before = lastId();
    expect(await readPhotos("10.0.0.70", 2)).toEqual([200, 200]);
    expect(await readPhotos("10.0.0.71", 1, { authorization: "Bearer palsu" })).toEqual([200]);
    await service.context.audit.flushAll();
    expect(rowsAfter(before)).toMatchObject([
      { address: "10.0.0.70", reads: 2, students: "N001 N002" },
      { address: "10.0.0.71", reads: 1, students: "N001" },
    ]);
  });

  test("a flood over several minutes: at most one row a minute, whatever the number of requests", async () => {
    const before = lastId();
    for (let minute = 0; minute < 3; minute++) {
      setSystemTime(new Date(Date.UTC(2026, 4, 5, 1, minute * 2)));
      const statuses = await readPhotos("10.0.0.80", 40);
      expect(statuses.filter((status) => status === 200)).toHaveLength(limit);
      await service.context.audit.flushAll();
    }
    expect(rowsAfter(before)).toHaveLength(3);
    expect(rowsAfter(before).map((row) => (row as { reads: number }).reads)).toEqual([limit, limit, limit]);
  });

  test("a lecturer's token is no read without a token: not limited, a row of its own naming the reader", async () => {
    setSystemTime(new Date("2026-05-04T03:00:00.000Z"));
    const before = lastId();
    const statuses = await readPhotos("10.0.0.90", limit + 3, { authorization: `Bearer ${tokens.dosen1}` });
    expect(statuses.every((status) => status === 200 || status === 403)).toBe(true);
    await service.context.audit.flushAll();
    expect(rowsAfter(before).every((row) => (row as { role: string }).role === "dosen")).toBe(true);
  });

  test("the student's Data saya shows the minute's reads as one anonymous access with its count", async () => {
    setSystemTime(new Date("2026-05-04T04:00:00.000Z"));
    await readPhotos("10.0.0.99", 3);
    await service.context.audit.flushAll();
    setSystemTime();
    const own = await service.request("GET", "/api/mahasiswa/data-saya", { token: tokens.mhs1 });
    expect(own.body.dilihat_oleh[0]).toMatchObject({ peran: "anonim", nama: null, aksi: "view", rute: "GET /api/mahasiswa/profil/foto/:nim", kali: 3 });
  });
});
