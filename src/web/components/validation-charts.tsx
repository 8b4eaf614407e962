// The charts of the local validation (decisions §20, the console's Model page): how often a
// rule's positive call meets the handlers' judgement, and whether a model's probabilities
// mean what they say. Pictures for those who see them (`aria-hidden`), as the other charts;
// every number is in the table beside them.
import { ChartLegend, useBoxWidth } from "./charts";

export interface RateRow {
  /** Left of the row's bars: the level and whose call it is. */
  label: string;
  /** Each rate 0–1, or null where its denominator is 0 (written "–", no bar). */
  rates: readonly (number | null)[];
}

const valueWidth = 48;
const barHeight = 14;
const barGap = 3;

/** For each row its label, then one bar per rate (sensitivity, specificity) under it, each over a track of 100 %, its value after it. */
export function RateBars(props: { title: string; series: readonly { label: string; tone: string }[]; rows: readonly RateRow[]; format: (rate: number) => string }) {
  const { box, width } = useBoxWidth();
  // The label above the bars: a level with whose call it is does not fit beside them on a phone.
  const left = 8;
  const labelRow = 18;
  const track = Math.max(40, width - left - valueWidth - 8);
  const rowHeight = labelRow + props.series.length * (barHeight + barGap) + 12;
  const height = props.rows.length * rowHeight + 4;
  return (
    <figure class="chart-figure">
      <ChartLegend series={props.series} />
      <div ref={box}>
        <svg class="chart chart-bars" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-hidden="true" focusable="false">
          {props.rows.map((row, rowIndex) => {
            const top = 6 + rowIndex * rowHeight;
            return (
              <g key={row.label}>
                <text class="bar-label" x={8} y={top + 12}>
                  {row.label}
                </text>
                {row.rates.map((rate, index) => {
                  const y = top + labelRow + index * (barHeight + barGap);
                  const length = rate === null ? 0 : Math.max(rate > 0 ? 2 : 0, rate * track);
                  return (
                    <g key={index}>
                      <rect class="track" x={left} y={y} width={track} height={barHeight} />
                      {rate !== null && <rect class={`bar ${props.series[index]!.tone}`} x={left} y={y} width={length} height={barHeight} />}
                      <text class="axis" x={left + track + 6} y={y + barHeight - 2}>
                        {rate === null ? "–" : props.format(rate)}
                      </text>
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption class="visually-hidden">{props.title}</figcaption>
    </figure>
  );
}

export interface CalibrationPoint {
  /** The bin's mean forecast and share of `ya`, both 0–1, and how many it holds. */
  forecast: number;
  observed: number;
  n: number;
}

const margin = { top: 12, right: 16, bottom: 40, left: 48 };

/**
 * Observed share against forecast, one dot per non-empty bin (larger for more screenings),
 * over the diagonal where they would agree: a dot under it, the model said more than happened.
 */
export function CalibrationChart(props: { title: string; points: readonly CalibrationPoint[]; axisForecast: string; axisObserved: string; diagonal: string }) {
  const { box, width } = useBoxWidth();
  const side = Math.max(160, Math.min(width, 360) - margin.left - margin.right);
  const size = { width: side + margin.left + margin.right, height: side + margin.top + margin.bottom };
  const x = (value: number) => margin.left + value * side;
  const y = (value: number) => margin.top + (1 - value) * side;
  const most = Math.max(1, ...props.points.map((point) => point.n));
  const ticks = [0, 0.5, 1];
  return (
    <figure class="chart-figure">
      <div ref={box}>
        <svg class="chart chart-calibration" width={size.width} height={size.height} viewBox={`0 0 ${size.width} ${size.height}`} role="img" aria-hidden="true" focusable="false">
          {ticks.map((tick) => (
            <g key={tick}>
              <line class="grid" x1={x(0)} x2={x(1)} y1={y(tick)} y2={y(tick)} />
              <line class="grid" x1={x(tick)} x2={x(tick)} y1={y(0)} y2={y(1)} />
              <text class="axis" x={margin.left - 6} y={y(tick) + 4} text-anchor="end">
                {tick * 100}%
              </text>
              <text class="axis" x={x(tick)} y={y(0) + 16} text-anchor={tick === 0 ? "start" : tick === 1 ? "end" : "middle"}>
                {tick * 100}%
              </text>
            </g>
          ))}
          <line class="diagonal" x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} />
          <text class="axis" x={x(0.5)} y={size.height - 6} text-anchor="middle">
            {props.axisForecast}
          </text>
          <text class="axis" x={x(0.02)} y={y(0.95)}>
            {props.axisObserved}
          </text>
          {props.points.map((point) => (
            <circle key={`${point.forecast} ${point.observed}`} class="dot" cx={x(point.forecast)} cy={y(point.observed)} r={4 + 6 * Math.sqrt(point.n / most)} />
          ))}
        </svg>
      </div>
      <figcaption>
        <span class="visually-hidden">{props.title} </span>
        <span class="chart-note">{props.diagonal}</span>
      </figcaption>
    </figure>
  );
}
