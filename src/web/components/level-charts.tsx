// Charts of counts per level (the statistics): every bar carries its level's word or sits
// under a legend in words, and its colour means how worrying the level is, the same in
// every chart (src/web/levels.ts). Like the other charts they are pictures for those who see
// them (`aria-hidden`); the numbers are in a sentence and a table beside them.
import { ChartLegend, anchorAt, useBoxWidth } from "./charts";

export interface LevelBar {
  /** The level's word, written left of its bar. */
  label: string;
  /** The bar's length as a share of the whole (0–1). */
  share: number;
  /** What is written after the bar: the count and its share. */
  value: string;
  tone: string;
}

const rowHeight = 36;
const barHeight = 22;
const labelWidth = 80;
/** Room right of the longest bar for its value (`120 · 100%`). */
const valueWidth = 92;

/**
 * One horizontal bar per level, each a share of the whole drawn over a track of the whole,
 * its level's word left of it and its count and share after it.
 */
export function LevelBars(props: { title: string; bars: readonly LevelBar[] }) {
  const { box, width } = useBoxWidth();
  const track = Math.max(40, width - labelWidth - valueWidth);
  const height = props.bars.length * rowHeight + 4;
  return (
    <figure class="chart-figure">
      <div ref={box}>
        <svg class="chart chart-bars" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-hidden="true" focusable="false">
          {props.bars.map((bar, index) => {
            const y = 4 + index * rowHeight;
            const length = bar.share > 0 ? Math.max(2, bar.share * track) : 0;
            return (
              <g key={bar.label}>
                <text class="bar-label" x={8} y={y + barHeight / 2 + 5}>
                  {bar.label}
                </text>
                <rect class="track" x={labelWidth} y={y} width={track} height={barHeight} />
                <rect class={`bar ${bar.tone}`} x={labelWidth} y={y} width={length} height={barHeight} />
                <text class="axis" x={labelWidth + length + 6} y={y + barHeight / 2 + 5}>
                  {bar.value}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption class="visually-hidden">{props.title}</figcaption>
    </figure>
  );
}

export interface Stack {
  /** Under the bar (a week's first day). */
  label: string;
  /** One count per series, in the order of `series` (the bottom first). */
  values: readonly number[];
}

const stackHeight = 200;
const stackMargin = { top: 20, right: 8, bottom: 30, left: 34 };

/** The ticks of a count axis: 0, its top, and the middle when it is a whole number between. */
function countTicks(top: number): number[] {
  const middle = Math.round(top / 2);
  return middle > 0 && middle < top ? [0, middle, top] : [0, top];
}

/**
 * A stacked bar per group (a week), the series bottom up, its total above it, on a count
 * axis with gridlines; the legend names each colour's level and meaning in words.
 */
export function StackedBars(props: { title: string; series: readonly { label: string; meaning: string; tone: string }[]; stacks: readonly Stack[] }) {
  const { box, width } = useBoxWidth();
  const plotWidth = width - stackMargin.left - stackMargin.right;
  const plotHeight = stackHeight - stackMargin.top - stackMargin.bottom;
  const totals = props.stacks.map((stack) => stack.values.reduce((sum, value) => sum + value, 0));
  const top = Math.max(1, ...totals);
  const yOf = (count: number) => stackMargin.top + plotHeight - (count / top) * plotHeight;
  const slot = plotWidth / Math.max(1, props.stacks.length);
  const barWidth = Math.max(4, slot * 0.62);
  // A date under a bar takes about 48 px: as many as fit without overlapping, counted from the newest.
  const labelEvery = Math.max(1, Math.ceil(props.stacks.length / Math.max(2, Math.floor(plotWidth / 48))));
  return (
    <figure class="chart-figure">
      <ChartLegend series={props.series} />
      <div ref={box}>
        <svg class="chart" width={width} height={stackHeight} viewBox={`0 0 ${width} ${stackHeight}`} role="img" aria-hidden="true" focusable="false">
          {countTicks(top).map((tick) => (
            <g key={tick}>
              <line class="grid" x1={stackMargin.left} x2={width - stackMargin.right} y1={yOf(tick)} y2={yOf(tick)} />
              <text class="axis" x={stackMargin.left - 6} y={yOf(tick) + 4} text-anchor="end">
                {tick}
              </text>
            </g>
          ))}
          {props.stacks.map((stack, index) => {
            const x = stackMargin.left + index * slot + (slot - barWidth) / 2;
            let below = 0;
            return (
              <g key={stack.label}>
                {stack.values.map((value, seriesIndex) => {
                  const from = below;
                  below += value;
                  return value > 0 ? <rect key={seriesIndex} class={`bar ${props.series[seriesIndex]!.tone}`} x={x} width={barWidth} y={yOf(below)} height={yOf(from) - yOf(below)} /> : null;
                })}
                {totals[index]! > 0 && (
                  <text class="axis" x={x + barWidth / 2} y={yOf(totals[index]!) - 4} text-anchor="middle">
                    {totals[index]}
                  </text>
                )}
                {(props.stacks.length - 1 - index) % labelEvery === 0 && (
                  <text class="axis" x={x + barWidth / 2} y={stackHeight - 10} text-anchor={anchorAt(x + barWidth / 2, width)}>
                    {stack.label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption class="visually-hidden">{props.title}</figcaption>
    </figure>
  );
}
