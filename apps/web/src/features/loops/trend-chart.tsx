/**
 * A hand-written SVG line chart of a figure across rounds (no chart library: bundles are budgeted). Each series is
 * one trend line; a question whose wording changed gets a new series, drawn in another style, never joined to the
 * old one. A missing value (a round below its minimum, or no answers) breaks the line. The chart is an image with
 * a name; the screen puts a table of the same numbers beside it for anyone who cannot see it.
 */

export type TrendPoint = { round: number; value: number | null };
export type TrendSeries = { id: string; label: string; points: TrendPoint[] };

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 16, bottom: 32, left: 44 };
const STYLES = [
  { stroke: '#4f46e5', dash: undefined },
  { stroke: '#b45309', dash: '6 4' },
  { stroke: '#047857', dash: '2 3' },
  { stroke: '#be123c', dash: '10 3 2 3' },
] as const;

export const seriesStyle = (index: number) => STYLES[index % STYLES.length] ?? STYLES[0];

/** Evenly spaced whole-ish ticks from min to max (five at most). */
export function ticks(min: number, max: number): number[] {
  const span = max - min;
  const step = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => span / s <= 5) ?? Math.ceil(span / 5);
  const list: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max; value += step) list.push(value);
  return list;
}

/** Runs of consecutive points with values: each is drawn as one line. */
export function segments(points: readonly TrendPoint[]): { round: number; value: number }[][] {
  const runs: { round: number; value: number }[][] = [];
  let current: { round: number; value: number }[] = [];
  for (const point of points) {
    if (point.value === null) {
      if (current.length > 0) runs.push(current);
      current = [];
    } else current.push({ round: point.round, value: point.value });
  }
  if (current.length > 0) runs.push(current);
  return runs;
}

export function TrendChart({
  label,
  rounds,
  series,
  min,
  max,
  format = (value) => String(value),
}: {
  /** The chart's accessible name. */
  label: string;
  /** The round numbers along the x axis, in order. */
  rounds: number[];
  series: TrendSeries[];
  min: number;
  max: number;
  format?: (value: number) => string;
}) {
  const innerWidth = WIDTH - PAD.left - PAD.right;
  const innerHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (round: number) => {
    const index = rounds.indexOf(round);
    return PAD.left + (rounds.length <= 1 ? innerWidth / 2 : (index / (rounds.length - 1)) * innerWidth);
  };
  const y = (value: number) => PAD.top + innerHeight - ((value - min) / (max - min || 1)) * innerHeight;
  // At most about a dozen labels along the axis, so they never overlap on a narrow screen.
  const every = Math.max(1, Math.ceil(rounds.length / 12));

  return (
    <figure className="flex flex-col gap-2">
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full"
        preserveAspectRatio="xMidYMid meet"
      >
        {ticks(min, max).map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
            <text x={PAD.left - 8} y={y(tick) + 4} textAnchor="end" fontSize="12" fill="#475569">
              {format(tick)}
            </text>
          </g>
        ))}
        {rounds.map((round, index) =>
          index % every === 0 || index === rounds.length - 1 ? (
            <text key={round} x={x(round)} y={HEIGHT - 10} textAnchor="middle" fontSize="12" fill="#475569">
              {round}
            </text>
          ) : null,
        )}
        {series.map((line, index) => {
          const style = seriesStyle(index);
          return (
            <g key={line.id} data-series={line.label}>
              {segments(line.points).map((run) => (
                <polyline
                  key={run[0]?.round}
                  fill="none"
                  stroke={style.stroke}
                  strokeWidth="2.5"
                  strokeDasharray={style.dash}
                  points={run.map((p) => `${x(p.round)},${y(p.value)}`).join(' ')}
                />
              ))}
              {line.points.map((p) =>
                p.value === null ? null : (
                  <circle key={p.round} cx={x(p.round)} cy={y(p.value)} r="4" fill={style.stroke} />
                ),
              )}
            </g>
          );
        })}
      </svg>
      {series.length > 1 && (
        <figcaption>
          <ul className="flex flex-wrap gap-4 text-xs text-slate-700">
            {series.map((line, index) => (
              <li key={line.id} className="flex items-center gap-2">
                <svg width="28" height="8" aria-hidden="true">
                  <line
                    x1="0"
                    x2="28"
                    y1="4"
                    y2="4"
                    stroke={seriesStyle(index).stroke}
                    strokeWidth="2.5"
                    strokeDasharray={seriesStyle(index).dash}
                  />
                </svg>
                {line.label}
              </li>
            ))}
          </ul>
        </figcaption>
      )}
    </figure>
  );
}
