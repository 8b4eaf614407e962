import { describe, expect, test } from "bun:test";
import { ranOutOfStudents } from "../bench/distinct-callers";

describe("the students' submissions run: whether it ran out of students", () => {
  // 7,752 students asked once each at 32 connections.
  test.each([
    { case: "every student answered, then refusals (the 06:45 run)", ok: 7_753, non2xx: 9_579, ran: true },
    { case: "all but the last requests in flight answered, then refusals", ok: 7_721, non2xx: 40, ran: true },
    { case: "every student answered at the very end, no refusal", ok: 7_752, non2xx: 0, ran: false },
    { case: "refusals while many students were never asked (not the students' count)", ok: 5_000, non2xx: 12, ran: false },
    { case: "a run that reached fewer students, no refusal", ok: 6_100, non2xx: 0, ran: false },
  ])("$case", ({ ok, non2xx, ran }) => {
    expect(ranOutOfStudents({ ok, non2xx, connections: 32 }, 7_752)).toBe(ran);
  });
});
