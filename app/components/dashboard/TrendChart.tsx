/**
 * Consensus by snippet position: the expert mean against each method, on 0–100 %.
 * Plain SVG in the style of ConsensusChart; a position where a series has no value breaks its line.
 */
import type { ConsensusTrend, TrendSeries } from "../../domain/validation/index.ts";
import { PercentGrid } from "../PercentGrid.tsx";
import { ScrollX } from "../ScrollX.tsx";

const WIDTH = 760;
const HEIGHT = 300;
const PAD = { top: 16, right: 16, bottom: 44, left: 56 };
const EVALUATOR_COLORS = ["#1f6feb", "#0b7a75", "#6f42c1", "#0969da"];

interface Style {
  color: string;
  dash?: string;
  width: number;
}

function styles(series: readonly TrendSeries[]): Style[] {
  let evaluators = 0;
  return series.map((s) => {
    if (s.method === "expert") return { color: "#1b1f24", width: 3 };
    if (s.method === "baseline") return { color: "#d9480f", dash: "6 4", width: 2 };
    if (s.method === "crowd") return { color: "#b08800", dash: "2 3", width: 2 };
    return { color: EVALUATOR_COLORS[evaluators++ % EVALUATOR_COLORS.length], width: 2 };
  });
}

/** Runs of consecutive points that have a value. */
function segments(series: TrendSeries): { position: number; mean: number; n: number }[][] {
  const out: { position: number; mean: number; n: number }[][] = [];
  let current: { position: number; mean: number; n: number }[] = [];
  for (const p of series.points) {
    if (p.mean === null) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push({ position: p.position, mean: p.mean, n: p.n });
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function TrendChart({ trend, title = "Consensus by snippet position" }: { trend: ConsensusTrend; title?: string }) {
  if (trend.positions.length === 0) {
    return <p className="empty-state">No labels yet — the trend appears once experts have scored snippets.</p>;
  }
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const first = trend.positions[0];
  const last = trend.positions[trend.positions.length - 1];
  const x = (position: number) => PAD.left + (last === first ? innerW / 2 : ((position - first) / (last - first)) * innerW);
  const y = (v: number) => PAD.top + (1 - v) * innerH;
  const step = trend.positions.length > 20 ? 5 : trend.positions.length > 10 ? 2 : 1;
  const ticks = trend.positions.filter((p, i) => i % step === 0 || p === last);
  const look = styles(trend.series);
  return (
    <figure className="chart" data-testid="trend-chart">
      <ScrollX label={title}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
          <title>{title}</title>
          <PercentGrid y={y} left={PAD.left} right={WIDTH - PAD.right} />
          {ticks.map((p) => (
            <text key={p} x={x(p)} y={HEIGHT - PAD.bottom + 16} textAnchor="middle" className="tick">
              {p}
            </text>
          ))}
          <text x={PAD.left + innerW / 2} y={HEIGHT - 6} textAnchor="middle" className="axis-label">
            snippet position
          </text>
          <text x={14} y={PAD.top + innerH / 2} textAnchor="middle" className="axis-label" transform={`rotate(-90 14 ${PAD.top + innerH / 2})`}>
            consensus, (score − 1) / 4
          </text>
          {trend.series.map((s, i) => (
            <g key={s.key} data-series={s.key}>
              {segments(s)
                .filter((seg) => seg.length > 1) // a lone point is drawn as its circle only
                .map((seg) => (
                <polyline
                  key={seg[0].position}
                  fill="none"
                  stroke={look[i].color}
                  strokeWidth={look[i].width}
                  strokeDasharray={look[i].dash}
                  points={seg.map((p) => `${x(p.position)},${y(p.mean)}`).join(" ")}
                />
              ))}
              {s.points.map((p) =>
                p.mean === null ? null : (
                  <circle key={p.position} cx={x(p.position)} cy={y(p.mean)} r={3} fill={look[i].color}>
                    <title>{`${s.label}, snippet ${p.position}: ${(p.mean * 100).toFixed(1)}% (${p.n} unit${p.n === 1 ? "" : "s"})`}</title>
                  </circle>
                ),
              )}
            </g>
          ))}
        </svg>
      </ScrollX>
      <figcaption className="legend">
        {trend.series.map((s, i) => (
          <span key={s.key}>
            <i style={{ background: look[i].color }} className={look[i].dash ? "dashed" : undefined} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
