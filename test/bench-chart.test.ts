import { describe, expect, test } from "bun:test";
import { ratioText, throughputChart, type ChartRoute } from "../bench/chart";

/** Each `<rect class="bar">` in document order: the ceiling first, then one per route. */
function bars(svg: string): { width: number; fill: string }[] {
  return [...svg.matchAll(/<rect class="bar" [^>]*width="([\d.]+)"[^>]*fill="([^"]+)"/g)].map((match) => ({ width: Number(match[1]), fill: match[2]! }));
}

/** The tick labels under the axis, in order. */
function ticks(svg: string): string[] {
  return [...svg.matchAll(/<text [^>]*text-anchor="middle" fill="[^"]+">([^<]+)<\/text>/g)].map((match) => match[1]!).filter((label) => label !== "requests per second");
}

/** Start and end tags balance, every `&` starts an entity and no `<` or `>` stands loose in text. */
function expectWellFormed(svg: string): void {
  const open: string[] = [];
  for (const [tag, closing, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z]+)\b[^<>]*?(\/?)>/g)) {
    if (closing) expect(open.pop()).toBe(name);
    else if (!selfClosing) open.push(name!);
    expect(tag.slice(1, -1)).not.toMatch(/[<>]/);
  }
  expect(open).toEqual([]);
  expect(svg.replace(/<[^<>]*>/g, "")).not.toMatch(/[<>]/);
  expect(svg).not.toMatch(/&(?!(lt|gt|amp|quot|apos);)/);
}

const routes: ChartRoute[] = [
  { name: "`GET /api/auth/me`", requestsPerSecond: 25_000, target: 0.5 },
  { name: "`GET /api/dosen/mahasiswa` (40 advisees)", requestsPerSecond: 2_000, target: 0.5 },
];

describe("the bench's throughput chart", () => {
  test("is one well-formed, labelled SVG document with a bar for the ceiling and each route", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 40_000, routes, subtitle: "Run of 2026-11-25 03:01 UTC" });
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expectWellFormed(svg);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="chart-title chart-desc"');
    expect(svg).toMatch(/<title id="chart-title">[^<]+<\/title>/);
    expect(svg).toMatch(/<desc id="chart-desc">[^<]*GET \/api\/auth\/me: 25,000 req\/s, ratio 0.63, goal 0.50, met\.[^<]*<\/desc>/);
    expect(svg).toContain("Run of 2026-11-25 03:01 UTC");
    expect(bars(svg)).toHaveLength(3);
    // Nothing is fetched from elsewhere.
    expect(svg).not.toMatch(/<(script|style|image|link)\b|@import|href=/);
    expect(svg).toContain('font-family="DejaVu Sans, Arial, sans-serif"');
  });

  test("names the bars without Markdown backticks, the ceiling first", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 40_000, routes });
    const names = [...svg.matchAll(/font-size="12" text-anchor="end">([^<]+)</g)].map((match) => match[1]);
    expect(names).toEqual(["ceiling: bare Bun.serve", "GET /api/auth/me", "GET /api/dosen/mahasiswa (40 advisees)"]);
    expect(svg).not.toContain("`");
  });

  test("escapes XML's special characters in a route's name", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 1_000, routes: [{ name: `\`GET /a?x=<b>&y="c"\``, requestsPerSecond: 600, target: 0.5 }] });
    expectWellFormed(svg);
    expect(svg).toContain("GET /a?x=&lt;b&gt;&amp;y=&quot;c&quot;");
    expect(svg).not.toContain("<b>");
  });

  test("draws bar widths in proportion to req/s, the ceiling bar across the whole axis", () => {
    const svg = throughputChart({
      ceilingRequestsPerSecond: 30_000,
      routes: [
        { name: "half", requestsPerSecond: 15_000, target: 0.5 },
        { name: "tenth", requestsPerSecond: 3_000, target: 0.5 },
        { name: "none", requestsPerSecond: 0, target: 0.5 },
      ],
    });
    const [ceiling, half, tenth, none] = bars(svg).map((bar) => bar.width);
    expect(ceiling).toBeGreaterThan(400);
    expect(half).toBeCloseTo(ceiling! / 2, 0);
    expect(tenth).toBeCloseTo(ceiling! / 10, 0);
    expect(none).toBe(0);
    expect(ticks(svg)).toEqual(["0", "5k", "10k", "15k", "20k", "25k", "30k"]);
  });

  test("says met or not met beside each route and colours the two differently", () => {
    const svg = throughputChart({
      ceilingRequestsPerSecond: 10_000,
      routes: [
        { name: "exactly at the goal", requestsPerSecond: 5_000, target: 0.5 },
        { name: "just under", requestsPerSecond: 4_990, target: 0.5 },
        { name: "a low goal", requestsPerSecond: 3_000, target: 0.25 },
        { name: "fast but failing", requestsPerSecond: 9_000, target: 0.5, problems: "12 errors" },
      ],
    });
    expect(svg).toContain("5,000 req/s · ratio 0.50 · met<");
    // Rounded to two decimals it would read 0.50 against a goal of 0.50.
    expect(svg).toContain("4,990 req/s · ratio 0.499 · not met<");
    expect(svg).toContain("3,000 req/s · ratio 0.30 · met<");
    expect(svg).toContain("9,000 req/s · ratio 0.90 · not met (12 errors)<");
    expect(svg).toContain(">10,000 req/s<");
    const [ceiling, atGoal, under, lowGoal, failing] = bars(svg).map((bar) => bar.fill);
    expect(new Set([ceiling, atGoal, under]).size).toBe(3);
    expect(lowGoal).toBe(atGoal!);
    expect(failing).toBe(under!);
  });

  test("marks each route's goal at target × ceiling on the axis", () => {
    const svg = throughputChart({
      ceilingRequestsPerSecond: 20_000,
      routes: [
        { name: "half goal", requestsPerSecond: 1_000, target: 0.5 },
        { name: "quarter goal", requestsPerSecond: 1_000, target: 0.25 },
      ],
    });
    const goals = [...svg.matchAll(/<text x="([\d.]+)"[^>]*>goal ([\d.]+)<\/text>/g)].map((match) => ({ x: Number(match[1]), label: match[2] }));
    expect(goals.map((goal) => goal.label)).toEqual(["0.50", "0.25"]);
    const ceilingWidth = bars(svg)[0]!.width;
    expect(goals[0]!.x - goals[1]!.x).toBeCloseTo(ceilingWidth / 4, 0);
  });

  test("widens the axis to a route faster than the ceiling", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 10_000, routes: [{ name: "faster", requestsPerSecond: 20_000, target: 0.5 }] });
    const [ceiling, faster] = bars(svg).map((bar) => bar.width);
    expect(faster).toBeCloseTo(2 * ceiling!, 0);
    expect(ticks(svg).at(-1)).toBe("20k");
    expect(svg).toContain("20,000 req/s · ratio 2.00 · met");
    const alone = bars(throughputChart({ ceilingRequestsPerSecond: 10_000, routes: [] }));
    expect(alone).toHaveLength(1);
    expect(alone[0]!.width).toBeCloseTo(faster!, 0);
  });

  test("draws each of the ceiling's samples as a dot on its bar, their range as a line, and names them in the description", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 40_000, ceilingSamples: [36_000, 40_000, 44_000], routes });
    expectWellFormed(svg);
    const ceilingWidth = bars(svg)[0]!.width;
    const dots = [...svg.matchAll(/<circle class="sample" cx="([\d.]+)" cy="([\d.]+)"/g)].map((match) => ({ x: Number(match[1]), y: Number(match[2]) }));
    // One in the legend, one per sample on the ceiling's row.
    expect(dots).toHaveLength(4);
    const onBar = dots.slice(1);
    expect(onBar[1]!.x - onBar[0]!.x).toBeCloseTo(ceilingWidth / 10, 0);
    expect(onBar[2]!.x - onBar[1]!.x).toBeCloseTo(ceilingWidth / 10, 0);
    expect(new Set(onBar.map((dot) => dot.y)).size).toBe(1);
    expect(svg).toContain("ceiling: bare Bun.serve (median of 3)");
    // Above the bar, clear of the dots.
    const label = /<text x="[\d.]+" y="([\d.]+)" font-size="11">median 40,000 req\/s · samples 36,000–44,000<\/text>/.exec(svg);
    expect(label).not.toBeNull();
    expect(Number(label![1])).toBeLessThan(onBar[0]!.y - 9);
    expect(svg).toMatch(/<desc id="chart-desc">[^<]*40,000 req\/s, the median of 3 samples taken during the run \(36,000, 40,000, 44,000; range 36,000–44,000\); every ratio is to the median\./);
    // Ratios stay against the median.
    expect(svg).toContain("25,000 req/s · ratio 0.63 · met<");
  });

  test("shows a route without a goal as an outlined bar saying so, with no goal mark", () => {
    const svg = throughputChart({ ceilingRequestsPerSecond: 10_000, routes: [{ name: "many lecturers", requestsPerSecond: 2_000 }, { name: "with a goal", requestsPerSecond: 6_000, target: 0.5 }] });
    expectWellFormed(svg);
    const [, comparison, withGoal] = bars(svg);
    expect(comparison!.fill).toBe("#ffffff");
    expect(withGoal!.fill).not.toBe("#ffffff");
    expect(svg).toContain("2,000 req/s · ratio 0.20 · no goal<");
    expect([...svg.matchAll(/>goal [\d.]+<\/text>/g)]).toHaveLength(1);
    expect(svg).toContain(">no goal</text>");
    expect(svg).toMatch(/many lecturers: 2,000 req\/s, ratio 0.20, no goal, shown for comparison\./);
  });

  test.each([
    ["a ceiling of 0", 0, 100],
    ["a negative ceiling", -1, 100],
    ["a ceiling that is not a number", Number.NaN, 100],
    ["a route's infinite req/s", 1_000, Number.POSITIVE_INFINITY],
    ["a route's negative req/s", 1_000, -5],
  ])("refuses %s", (_case, ceiling, requestsPerSecond) => {
    expect(() => throughputChart({ ceilingRequestsPerSecond: ceiling, routes: [{ name: "route", requestsPerSecond, target: 0.5 }] })).toThrow(RangeError);
  });
});

describe("a ratio as the tables and the chart write it", () => {
  test.each([
    { ratio: 0.5292, target: 0.5, text: "0.53" },
    { ratio: 0.3977, target: 0.4, text: "0.398" },
    { ratio: 0.4, target: 0.4, text: "0.40" },
    { ratio: 0.4049, target: 0.4, text: "0.40" },
    { ratio: 0.8349, target: 0.9, text: "0.83" },
    { ratio: 0.0683, target: 0.25, text: "0.068" },
    { ratio: 0.0753, target: undefined, text: "0.075" },
    { ratio: 0.2, target: undefined, text: "0.20" },
    { ratio: 1.4, target: 0.5, text: "1.40" },
  ])("$ratio against $target: $text", ({ ratio, target, text }) => {
    expect(ratioText(ratio, target)).toBe(text);
  });
});
