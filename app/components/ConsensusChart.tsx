/**
 * A line chart of consensus (0–100 %) over turns, with mediator turns marked.
 * Plain SVG: a few dozen points need no chart library, and it renders on the server.
 */
import { PercentGrid } from "./PercentGrid.tsx";
import { ScrollX } from "./ScrollX.tsx";
export interface ChartSeries {
  label: string;
  /** Values in [0, 1] at turns 0..T. */
  values: number[];
  color: string;
  dashed?: boolean;
}

interface Props {
  series: ChartSeries[];
  totalTurns: number;
  mediatorTurns: number[];
  title: string;
}

const WIDTH = 760;
const HEIGHT = 280;
const PAD = { top: 16, right: 16, bottom: 36, left: 48 };

export function ConsensusChart({ series, totalTurns, mediatorTurns, title }: Props) {
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (t: number) => PAD.left + (totalTurns === 0 ? 0 : (t / totalTurns) * innerW);
  const y = (v: number) => PAD.top + (1 - v) * innerH;
  const xTicks = Array.from({ length: totalTurns + 1 }, (_, t) => t).filter(
    (t) => t % (totalTurns > 20 ? 5 : 2) === 0 || t === totalTurns,
  );
  return (
    <figure className="chart" data-testid="consensus-chart">
      <ScrollX label={title}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
          <title>{title}</title>
          <PercentGrid y={y} left={PAD.left} right={WIDTH - PAD.right} />
          {mediatorTurns.map((t) => (
            <g key={`m${t}`} className="mediator-mark">
              <line x1={x(t)} x2={x(t)} y1={PAD.top} y2={PAD.top + innerH} />
              <text x={x(t)} y={PAD.top + 10} textAnchor="middle">
                M
              </text>
            </g>
          ))}
          {xTicks.map((t) => (
            <text key={t} x={x(t)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle" className="tick">
              {t}
            </text>
          ))}
          <text x={PAD.left + innerW / 2} y={HEIGHT - 4} textAnchor="middle" className="axis-label">
            turn
          </text>
          {series.map((s) => (
            <g key={s.label}>
              <polyline
                fill="none"
                stroke={s.color}
                strokeWidth={2.5}
                strokeDasharray={s.dashed ? "6 4" : undefined}
                points={s.values.map((v, t) => `${x(t)},${y(v)}`).join(" ")}
              />
              {s.values.map((v, t) => (
                <circle key={t} cx={x(t)} cy={y(v)} r={3} fill={s.color}>
                  <title>{`${s.label}, turn ${t}: ${(v * 100).toFixed(1)}%`}</title>
                </circle>
              ))}
            </g>
          ))}
        </svg>
      </ScrollX>
      <figcaption className="legend">
        {series.map((s) => (
          <span key={s.label}>
            <i style={{ background: s.color }} className={s.dashed ? "dashed" : undefined} /> {s.label}
          </span>
        ))}
        {mediatorTurns.length > 0 ? (
          <span>
            <i className="mediator-swatch" /> mediator turn
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
