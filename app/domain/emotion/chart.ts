/**
 * A run's emotion trajectory from one source as a Vega-Lite spec: one line per party over turns
 * 0..T (the consensus chart's x domain, so the two read against each other), a point at each of
 * the party's own turns carrying its score and reason in the tooltip, and each mediator turn
 * as a vertical rule. The run page draws it with renderChartSvg (the tooltip becomes the
 * points' hover title) and inlines the SVG.
 */
import type { TopLevelSpec } from "vega-lite";
import { CHART_BASE, OKABE_ITO, type ChartRow } from "../benchmark/charts/style.ts";
import { EMOTION_MAX, EMOTION_MIN } from "./scale.ts";
import { emotionSourceLabel, type EmotionTrajectory } from "./trajectory.ts";

export interface EmotionChartInput {
  trajectory: EmotionTrajectory;
  totalTurns: number;
  mediatorTurns: readonly number[];
  /** Party ids in the run's order, with the names the legend shows. */
  parties: readonly { id: string; name: string }[];
}

/** The mark names the drawn SVG carries as classes (`<name>_marks`), for tests and styling. */
export const EMOTION_CHART_MARKS = {
  lines: "emotion_lines",
  points: "emotion_points",
  mediator: "mediator_turns",
} as const;

const NO_REASON = "(no reason given)";

/**
 * One row per reported score: the party's name, the turn, the 0–100 score, its reason, and the
 * line the point's hover title shows (the tooltip fields in one sentence).
 */
export function emotionChartRows(trajectory: EmotionTrajectory, parties: EmotionChartInput["parties"]): ChartRow[] {
  return parties.flatMap((p) =>
    (trajectory.parties[p.id] ?? []).map((pt) => {
      const reason = pt.reason ?? NO_REASON;
      return {
        party: p.name,
        turn: pt.turnId,
        score: pt.score,
        reason,
        hover: `${p.name}, turn ${pt.turnId}: ${pt.score} — ${reason}`,
      };
    }),
  );
}

export function emotionChartTitle(trajectory: EmotionTrajectory): string {
  return `Emotion by turn (${emotionSourceLabel(trajectory.source)})`;
}

export function emotionChartSpec(input: EmotionChartInput): TopLevelSpec {
  const domain = input.parties.map((p) => p.name);
  const x = {
    field: "turn",
    type: "quantitative",
    title: "turn",
    scale: { domain: [0, input.totalTurns], nice: false, zero: true },
    axis: { tickMinStep: 1, format: "d" },
  } as const;
  const color = {
    field: "party",
    type: "nominal",
    title: "party",
    sort: domain,
    scale: { domain, range: OKABE_ITO },
    legend: { orient: "bottom", labelLimit: 320 },
  } as const;
  return {
    ...CHART_BASE,
    title: {
      text: emotionChartTitle(input.trajectory),
      subtitle: "0–100, higher = calmer and more open; grey rules: mediator turns",
    },
    width: 620,
    height: 220,
    layer: [
      {
        name: EMOTION_CHART_MARKS.mediator,
        data: { values: input.mediatorTurns.map((turn) => ({ turn, hover: `mediator, turn ${turn}` })) },
        mark: { type: "rule", color: "#8c959f", strokeDash: [4, 3] },
        encoding: { x, tooltip: [{ field: "turn", title: "mediator turn" }], description: { field: "hover" } },
      },
      {
        data: { values: emotionChartRows(input.trajectory, input.parties) },
        encoding: {
          x,
          y: {
            field: "score",
            type: "quantitative",
            title: "emotion (0–100)",
            scale: { domain: [EMOTION_MIN, EMOTION_MAX] },
          },
          color,
        },
        layer: [
          // Steps, not slopes: a score holds until the party reports again (the metrics carry it forward).
          { name: EMOTION_CHART_MARKS.lines, mark: { type: "line", strokeWidth: 2.5, interpolate: "step-after" } },
          {
            name: EMOTION_CHART_MARKS.points,
            mark: { type: "point", filled: true, size: 60 },
            encoding: {
              tooltip: [{ field: "party" }, { field: "turn" }, { field: "score" }, { field: "reason" }],
              description: { field: "hover" },
            },
          },
        ],
      },
    ],
  } as TopLevelSpec;
}
