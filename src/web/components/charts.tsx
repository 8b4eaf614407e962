// Charts as plain SVG, each with its numbers in a table beside it: the chart is a picture
// for those who see it (`aria-hidden`), the table is what a screen reader reads. A chart is
// drawn at the width its box has on the screen, so that its labels keep their size on a
// phone instead of shrinking with a scaled picture.
import type { ComponentChildren } from "preact";
import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { common, sentence } from "../strings";
import "./charts.css";

export interface Band {
  /** The band's values: from `from` (inclusive) to `to`. */
  from: number;
  to: number;
  label: string;
  /** A CSS class that colours the band (`tone-good`, ...). */
  tone: string;
}

/** A value axis: its ends, the values marked on it and the bands behind the line. */
export interface Scale {
  min: number;
  max: number;
  ticks: readonly number[];
  bands: readonly Band[];
  /** What the bands mean, shown under the chart. */
  note?: string;
}

export interface LinePoint {
  /** Where on the x axis, in order (a time, an index). */
  x: number;
  y: number;
  /** The x value as a person reads it, under the axis. */
  label: string;
}

const height = 240;
const margin = { top: 12, right: 12, bottom: 32, left: 44 };
/** A line chart writes its band names right of the plot, where no value can cover them. */
const bandLabelWidth = 56;

/** A label under the axis stays inside the picture: the first and last ones lean inwards. */
export function anchorAt(x: number, width: number): "start" | "middle" | "end" {
  if (x < 30) return "start";
  if (x > width - 30) return "end";
  return "middle";
}

/** A chart's key: each series' swatch and name (and what it means), hidden from screen readers, which read the table. */
export function ChartLegend(props: { series: readonly { label: string; tone: string; meaning?: string }[] }) {
  return (
    <ul class="legend" aria-hidden="true">
      {props.series.map((each) => (
        <li key={each.label}>
          <span class={`swatch ${each.tone}`} />
          {each.meaning ? `${each.label}: ${each.meaning}` : each.label}
        </li>
      ))}
    </ul>
  );
}

/** The width of the chart's box in CSS pixels, followed as the window changes; a guess until it is known. */
export function useBoxWidth() {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(240, Math.round(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { box, width };
}

/**
 * One series over level bands: the shaded bands show which level a value falls in, the line
 * and its dots the values.
 */
export function LineChart(props: { title: string; points: readonly LinePoint[]; scale: Scale }) {
  const { points } = props;
  const { min, max, ticks, bands } = props.scale;
  const { box, width } = useBoxWidth();
  const right = margin.right + bandLabelWidth;
  const plotWidth = width - margin.left - right;
  const plotHeight = height - margin.top - margin.bottom;
  const xs = points.map((point) => point.x);
  const [first, last] = [Math.min(...xs), Math.max(...xs)];
  const xOf = (x: number) => margin.left + (last === first ? plotWidth / 2 : ((x - first) / (last - first)) * plotWidth);
  const yOf = (y: number) => margin.top + (1 - (Math.min(Math.max(y, min), max) - min) / (max - min)) * plotHeight;
  const path = points.map((point, index) => `${index === 0 ? "M" : "L"}${xOf(point.x).toFixed(1)},${yOf(point.y).toFixed(1)}`).join(" ");
  // A date label takes about 60 px: as many as fit, so that they never overlap.
  const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(2, Math.floor(plotWidth / 60))));
  return (
    <figure class="chart-figure">
      <div ref={box}>
        <svg class="chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-hidden="true" focusable="false">
          {bands.map((band) => (
            <g key={band.label}>
              <rect class={`band ${band.tone}`} x={margin.left} width={plotWidth} y={yOf(band.to)} height={Math.max(0, yOf(band.from) - yOf(band.to))} />
              <text class="band-label" x={width - margin.right} y={(yOf(band.to) + yOf(band.from)) / 2 + 4.5} text-anchor="end">
                {band.label}
              </text>
            </g>
          ))}
          {ticks.map((tick) => (
            <g key={tick}>
              <line class="grid" x1={margin.left} x2={margin.left + plotWidth} y1={yOf(tick)} y2={yOf(tick)} />
              <text class="axis" x={margin.left - 6} y={yOf(tick) + 4} text-anchor="end">
                {tick}
              </text>
            </g>
          ))}
          <path class="series" d={path} />
          {points.map((point, index) => (
            <circle key={index} class="dot" cx={xOf(point.x)} cy={yOf(point.y)} r={4} />
          ))}
          {points.map((point, index) =>
            index % labelEvery === 0 || index === points.length - 1 ? (
              <text key={`label-${index}`} class="axis" x={xOf(point.x)} y={height - 10} text-anchor={anchorAt(xOf(point.x), width)}>
                {point.label}
              </text>
            ) : null,
          )}
        </svg>
      </div>
      <figcaption>
        <span class="visually-hidden">{sentence(props.title)} </span>
        {props.scale.note && <span class="chart-note">{props.scale.note}</span>}
      </figcaption>
    </figure>
  );
}

/** Whether a box's content is wider than the box, followed as either changes. */
function useOverflow() {
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { box, overflows };
}

/**
 * The numbers of a chart as a table with a caption, headers and row headers. A table wider
 * than its box (a phone) scrolls inside it: the box is a region the keyboard can reach and a
 * screen reader names, and a line above it says so while the table is wider. A table whose
 * last column holds the row's actions (`stacked`) shows each row as a card on a phone
 * instead, every cell under its column's name: scrolled sideways, the actions were off-screen.
 */
export function DataTable(props: { caption: string; columns: readonly string[]; rows: readonly (readonly ComponentChildren[])[]; numeric?: readonly boolean[]; stacked?: boolean }) {
  const { box, overflows } = useOverflow();
  const hintId = useId();
  return (
    <>
      {overflows && (
        <p class="scroll-hint" id={hintId}>
          <span aria-hidden="true">↔ </span>
          {common.scrollHint}
        </p>
      )}
      <div class={props.stacked ? "table-wrap stacked" : "table-wrap"} ref={box} tabIndex={0} role="region" aria-label={props.caption} aria-describedby={overflows ? hintId : undefined}>
        <table>
          <caption>{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((column, index) => (
                <th key={column} scope="col" class={props.numeric?.[index] ? "number" : undefined}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, index) =>
                  index === 0 ? (
                    <th key={index} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={index} class={props.numeric?.[index] ? "number" : undefined} data-label={props.columns[index]}>
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
