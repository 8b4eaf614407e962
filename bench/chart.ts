// The bench's throughput chart: one horizontal bar per route on the ceiling's req/s axis,
// as a standalone SVG (no fonts, styles or scripts from outside) for bench/results/.

export interface ChartRoute {
  /** As in the Markdown report; backticks are dropped. */
  name: string;
  requestsPerSecond: number;
  /** The least ratio to the ceiling the route must reach, e.g. 0.5; none for a route shown for comparison. */
  target?: number;
  /** Errors, timeouts or non-2xx answers of the run (see `problems` in report.ts): the goal is then not met whatever the rate. */
  problems?: string;
}

export interface ChartInput {
  /** What the ratios are against: the median of the samples when there are several. */
  ceilingRequestsPerSecond: number;
  /** Each of the ceiling's samples in the run, drawn as marks on its bar with their range. */
  ceilingSamples?: number[];
  routes: ChartRoute[];
  /** A second line under the heading, e.g. the run's date and connections. */
  subtitle?: string;
}

const width = 900;
const margin = 16;
const headerHeight = 96;
const rowHeight = 40;
/** Where the bar starts inside its row; the goal label sits above it. */
const barOffset = 15;
const barHeight = 18;
const nameSize = 12;
const valueSize = 11;
const goalSize = 10;
const fontFamily = "DejaVu Sans, Arial, sans-serif";
const colours = {
  text: "#1f2328",
  muted: "#59636e",
  grid: "#d1d9e0",
  ceiling: "#59636e",
  // Blue and dark orange stay apart for red–green colour blindness; each carries white text at ≥ 4.5:1.
  met: "#0b5cad",
  notMet: "#b3470a",
  // A route without a goal: an outline, so that no colour has to be told apart from the others.
  comparison: "#ffffff",
};

/** Average advance of a character of the font stack, in ems: an estimate, enough to place labels. */
const characterWidth = 0.6;
const textWidth = (text: string, size: number) => text.length * size * characterWidth;

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (character) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[character]!);

/** Coordinates to a tenth of a pixel keep the file short. */
const px = (value: number) => String(Math.round(value * 10) / 10);
const rate = (value: number) => Math.round(value).toLocaleString("en-US");
const displayName = (name: string) => name.replaceAll("`", "");

/** A step of 1, 2, 2.5 or 5 × 10ⁿ giving at most about six intervals up to `largest`. */
function tickStep(largest: number): number {
  const rough = largest / 6;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= rough)!;
  return step * magnitude;
}

/**
 * A ratio to two decimals, or to three where two would put it on the other side of its
 * target (0.398 is not 0.40 against a goal of 0.40) or it is below 0.1 (0.068 against a
 * floor of 0.07).
 */
export function ratioText(ratio: number, target?: number): string {
  const two = ratio.toFixed(2);
  const roundedAcross = target !== undefined && ratio >= target !== Number(two) >= target;
  return roundedAcross || ratio < 0.1 ? ratio.toFixed(3) : two;
}

const tickLabel = (value: number) => (value >= 1000 ? `${Number((value / 1000).toFixed(2))}k` : String(Number(value.toFixed(2))));

function shortened(text: string, size: number, room: number): string {
  if (textWidth(text, size) <= room) return text;
  const characters = Math.max(1, Math.floor(room / (size * characterWidth)) - 1);
  return `${text.slice(0, characters)}…`;
}

function assertRate(value: number, what: string): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${what} must be a finite number ≥ 0, got ${value}`);
}

export function throughputChart(input: ChartInput): string {
  const ceiling = input.ceilingRequestsPerSecond;
  assertRate(ceiling, "the ceiling's req/s");
  if (ceiling === 0) throw new RangeError("the ceiling's req/s must be above 0: every ratio is relative to it");
  for (const route of input.routes) {
    assertRate(route.requestsPerSecond, `req/s of ${route.name}`);
    if (route.target !== undefined) assertRate(route.target, `target of ${route.name}`);
  }
  const samples = input.ceilingSamples ?? [];
  for (const sample of samples) assertRate(sample, "a ceiling sample's req/s");

  const routes = input.routes.map((route) => {
    const ratio = route.requestsPerSecond / ceiling;
    if (route.target === undefined) {
      const verdict = route.problems ? `no goal (${route.problems})` : "no goal";
      return { ...route, label: displayName(route.name), ratio, met: undefined, verdict };
    }
    const met = ratio >= route.target && !route.problems;
    const verdict = met ? "met" : route.problems ? `not met (${route.problems})` : "not met";
    return { ...route, label: displayName(route.name), ratio, met, verdict };
  });
  const ceilingLabel = samples.length > 1 ? `ceiling: bare Bun.serve (median of ${samples.length})` : "ceiling: bare Bun.serve";
  const rows = [{ label: ceilingLabel, requestsPerSecond: ceiling }, ...routes];
  const axisEnd = Math.max(ceiling, ...samples, ...routes.map((route) => Math.max(route.requestsPerSecond, (route.target ?? 0) * ceiling)));

  const nameRoom = Math.min(width * 0.4, Math.max(...rows.map((row) => textWidth(row.label, nameSize))));
  const plotLeft = margin + nameRoom + 12;
  const plotRight = width - margin;
  const plotTop = headerHeight;
  const plotBottom = plotTop + rows.length * rowHeight;
  const height = plotBottom + 52;
  const x = (value: number) => plotLeft + ((plotRight - plotLeft) * value) / axisEnd;

  const title = "Throughput per route against the ceiling";
  const sampleRange = samples.length > 1 ? `${rate(Math.min(...samples))}–${rate(Math.max(...samples))}` : "";
  const description = [
    `Horizontal bar chart of requests per second on one axis from 0 to ${rate(axisEnd)}.`,
    samples.length > 1
      ? `Ceiling, a bare Bun.serve answering small JSON: ${rate(ceiling)} req/s, the median of ${samples.length} samples taken during the run (${samples.map(rate).join(", ")}; range ${sampleRange}); every ratio is to the median.`
      : `Ceiling, a bare Bun.serve answering small JSON: ${rate(ceiling)} req/s.`,
    ...routes.map((route) =>
      route.target === undefined
        ? `${route.label}: ${rate(route.requestsPerSecond)} req/s, ratio ${ratioText(route.ratio)}, ${route.verdict}, shown for comparison.`
        : `${route.label}: ${rate(route.requestsPerSecond)} req/s, ratio ${ratioText(route.ratio, route.target)}, goal ${route.target.toFixed(2)}, ${route.verdict}.`,
    ),
  ].join(" ");

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${px(height)}" viewBox="0 0 ${width} ${px(height)}" role="img" aria-labelledby="chart-title chart-desc" font-family="${fontFamily}" fill="${colours.text}">`,
    `<title id="chart-title">${escapeXml(title)}</title>`,
    `<desc id="chart-desc">${escapeXml(description)}</desc>`,
    // Opaque so the chart stays readable on a dark page.
    `<rect class="background" width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${margin}" y="28" font-size="16" font-weight="bold">${escapeXml(title)} (req/s)</text>`,
  ];
  if (input.subtitle) parts.push(`<text x="${margin}" y="48" font-size="12" fill="${colours.muted}">${escapeXml(input.subtitle)}</text>`);

  // Legend: the colours, and what the short vertical mark means.
  let legendX = margin;
  const legendY = 70;
  const legend: [string, string][] = [
    [colours.ceiling, "ceiling"],
    [colours.met, "goal met"],
    [colours.notMet, "goal not met"],
  ];
  if (routes.some((route) => route.target === undefined)) legend.push([colours.comparison, "no goal"]);
  for (const [colour, text] of legend) {
    const outline = colour === colours.comparison ? ` stroke="${colours.ceiling}" stroke-width="1.5"` : "";
    parts.push(
      `<rect class="swatch" x="${legendX}" y="${legendY - 10}" width="12" height="12" fill="${colour}"${outline}/>`,
      `<text x="${legendX + 17}" y="${legendY}" font-size="${valueSize}">${text}</text>`,
    );
    legendX += 17 + textWidth(text, valueSize) + 20;
  }
  if (samples.length > 1) {
    parts.push(
      `<circle class="sample" cx="${px(legendX + 5)}" cy="${legendY - 4}" r="3.5" fill="${colours.text}" stroke="#ffffff" stroke-width="1.5"/>`,
      `<text x="${px(legendX + 14)}" y="${legendY}" font-size="${valueSize}">ceiling sample</text>`,
    );
    legendX += 14 + textWidth("ceiling sample", valueSize) + 20;
  }
  parts.push(
    `<line x1="${px(legendX + 6)}" y1="${legendY - 12}" x2="${px(legendX + 6)}" y2="${legendY + 3}" stroke="${colours.text}" stroke-width="2"/>`,
    `<text x="${px(legendX + 14)}" y="${legendY}" font-size="${valueSize}">goal: target ratio × ceiling</text>`,
  );

  const step = tickStep(axisEnd);
  for (let tick = 0; tick <= axisEnd + step * 1e-9; tick += step) {
    const tickX = px(x(tick));
    parts.push(
      `<line x1="${tickX}" y1="${plotTop}" x2="${tickX}" y2="${plotBottom}" stroke="${tick === 0 ? colours.muted : colours.grid}" stroke-width="1"/>`,
      `<text x="${tickX}" y="${plotBottom + 16}" font-size="${valueSize}" text-anchor="middle" fill="${colours.muted}">${tickLabel(tick)}</text>`,
    );
  }
  parts.push(
    `<text x="${px((plotLeft + plotRight) / 2)}" y="${plotBottom + 36}" font-size="${valueSize}" text-anchor="middle" fill="${colours.muted}">requests per second</text>`,
  );

  rows.forEach((row, index) => {
    const barTop = plotTop + index * rowHeight + barOffset;
    const middle = barTop + barHeight / 2;
    const barEnd = x(row.requestsPerSecond);
    const route = "ratio" in row ? row : undefined;
    const colour = route ? (route.met === undefined ? colours.comparison : route.met ? colours.met : colours.notMet) : colours.ceiling;
    const outlined = colour === colours.comparison;
    const ceilingValue = samples.length > 1 ? `median ${rate(row.requestsPerSecond)} req/s · samples ${sampleRange}` : `${rate(row.requestsPerSecond)} req/s`;
    const value = route ? `${rate(row.requestsPerSecond)} req/s · ratio ${ratioText(route.ratio, route.target)} · ${route.verdict}` : ceilingValue;

    parts.push(
      `<text x="${px(plotLeft - 10)}" y="${px(middle + nameSize * 0.35)}" font-size="${nameSize}" text-anchor="end">${escapeXml(shortened(row.label, nameSize, nameRoom))}</text>`,
      `<rect class="bar" x="${px(plotLeft)}" y="${barTop}" width="${px(barEnd - plotLeft)}" height="${barHeight}" fill="${colour}"${outlined ? ` stroke="${colours.ceiling}" stroke-width="1.5"` : ""}/>`,
    );
    if (!route && samples.length > 1) {
      // The samples' range as a line through the bar, each sample a dot on it.
      parts.push(
        `<line x1="${px(x(Math.min(...samples)))}" y1="${px(middle)}" x2="${px(x(Math.max(...samples)))}" y2="${px(middle)}" stroke="#ffffff" stroke-width="4"/>`,
        `<line x1="${px(x(Math.min(...samples)))}" y1="${px(middle)}" x2="${px(x(Math.max(...samples)))}" y2="${px(middle)}" stroke="${colours.text}" stroke-width="2"/>`,
        ...samples.map((sample) => `<circle class="sample" cx="${px(x(sample))}" cy="${px(middle)}" r="3.5" fill="${colours.text}" stroke="#ffffff" stroke-width="1.5"/>`),
      );
    }
    if (route?.target !== undefined) {
      const goalX = px(x(route.target * ceiling));
      // A white line under the dark one keeps the mark visible over a bar of either colour.
      parts.push(
        `<line x1="${goalX}" y1="${barTop - 4}" x2="${goalX}" y2="${barTop + barHeight + 4}" stroke="#ffffff" stroke-width="4"/>`,
        `<line x1="${goalX}" y1="${barTop - 4}" x2="${goalX}" y2="${barTop + barHeight + 4}" stroke="${colours.text}" stroke-width="2"/>`,
        `<text x="${goalX}" y="${barTop - 6}" font-size="${goalSize}" text-anchor="middle">goal ${route.target.toFixed(2)}</text>`,
      );
    }
    // The samples' dots and range sit on the ceiling's bar and past its end: its text goes
    // above the bar, where a route's goal label would be. Otherwise after the bar when the
    // text fits before the edge, else inside its end in white.
    const valueY = px(middle + valueSize * 0.35);
    if (!route && samples.length > 1) {
      parts.push(`<text x="${px(plotLeft)}" y="${barTop - 4}" font-size="${valueSize}">${escapeXml(value)}</text>`);
    } else if (barEnd + 6 + textWidth(value, valueSize) <= width - margin / 2) {
      parts.push(
        `<text x="${px(barEnd + 6)}" y="${valueY}" font-size="${valueSize}" stroke="#ffffff" stroke-width="3" paint-order="stroke">${escapeXml(value)}</text>`,
      );
    } else {
      // Outlined in the bar's colour so a goal mark behind the text does not cut through it.
      const [fill, stroke] = outlined ? [colours.text, "#ffffff"] : ["#ffffff", colour];
      parts.push(
        `<text x="${px(barEnd - 6)}" y="${valueY}" font-size="${valueSize}" text-anchor="end" fill="${fill}" stroke="${stroke}" stroke-width="3" paint-order="stroke">${escapeXml(value)}</text>`,
      );
    }
  });

  parts.push("</svg>");
  return parts.join("\n") + "\n";
}
