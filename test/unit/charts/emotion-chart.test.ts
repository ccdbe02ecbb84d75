// The run page's emotion chart: its Vega-Lite rows from a hand-made trajectory, and its drawn SVG.
import { describe, expect, it } from "vitest";
import {
  EMOTION_CHART_MARKS,
  emotionChartRows,
  emotionChartSpec,
  emotionChartTitle,
} from "../../../app/domain/emotion/chart.ts";
import type { EmotionTrajectory } from "../../../app/domain/emotion/trajectory.ts";
import { renderChartSvg } from "../../../app/server/charts/render.server.ts";

// Turns 0..6: A speaks at 0, 2, 5; B at 1, 4; the mediator at 3 and 6.
const self: EmotionTrajectory = {
  source: { kind: "self" },
  parties: {
    a: [
      { turnId: 0, score: 30, reason: "they ignore my costs" },
      { turnId: 2, score: 35, reason: null },
      { turnId: 5, score: 70, reason: "heard at last" },
    ],
    b: [
      { turnId: 1, score: 50, reason: "wary" },
      { turnId: 4, score: 45, reason: "still wary" },
    ],
  },
  failedParties: [],
};
const parties = [
  { id: "a", name: "Ana" },
  { id: "b", name: "Ben" },
];
const input = { trajectory: self, totalTurns: 6, mediatorTurns: [3, 6], parties };

type Layer = {
  name?: string;
  data?: { values: Record<string, unknown>[] };
  encoding?: Record<string, { scale?: { domain?: unknown[] } }>;
  layer?: Layer[];
};

describe("emotionChartSpec", () => {
  it("has one row per reported score, in party order, the reason kept (or marked missing)", () => {
    expect(emotionChartRows(self, parties)).toEqual([
      {
        party: "Ana",
        turn: 0,
        score: 30,
        reason: "they ignore my costs",
        hover: "Ana, turn 0: 30 — they ignore my costs",
      },
      { party: "Ana", turn: 2, score: 35, reason: "(no reason given)", hover: "Ana, turn 2: 35 — (no reason given)" },
      { party: "Ana", turn: 5, score: 70, reason: "heard at last", hover: "Ana, turn 5: 70 — heard at last" },
      { party: "Ben", turn: 1, score: 50, reason: "wary", hover: "Ben, turn 1: 50 — wary" },
      { party: "Ben", turn: 4, score: 45, reason: "still wary", hover: "Ben, turn 4: 45 — still wary" },
    ]);
  });

  it("draws the mediator turns as rules, over the consensus chart's turn domain 0..T, titled by source", () => {
    const spec = emotionChartSpec(input) as unknown as { title: { text: string }; layer: Layer[] };
    const [rules, parts] = spec.layer;
    expect(rules.name).toBe(EMOTION_CHART_MARKS.mediator);
    expect(rules.data!.values.map((r) => r.turn)).toEqual([3, 6]);
    expect(rules.encoding!.x.scale!.domain).toEqual([0, 6]);
    expect(parts.encoding!.x.scale!.domain).toEqual([0, 6]);
    expect(parts.encoding!.y.scale!.domain).toEqual([0, 100]);
    expect(parts.data!.values).toEqual(emotionChartRows(self, parties));
    expect(parts.layer!.map((l) => l.name)).toEqual([EMOTION_CHART_MARKS.lines, EMOTION_CHART_MARKS.points]);
    expect(spec.title.text).toBe("Emotion by turn (self-report)");
    expect(emotionChartTitle({ ...self, source: { kind: "judge", backbone: "qwen", evaluationId: "e1" } })).toBe(
      "Emotion by turn (judge qwen)",
    );
  });

  it("leaves a failed party without rows", () => {
    const judged: EmotionTrajectory = {
      source: { kind: "judge", backbone: "qwen", evaluationId: "e1" },
      parties: { a: self.parties.a, b: [] },
      failedParties: ["b"],
    };
    expect(emotionChartRows(judged, parties).map((r) => r.party)).toEqual(["Ana", "Ana", "Ana"]);
  });

  it("renders one line per party, a rule per mediator turn and a hover title per point", async () => {
    const svg = await renderChartSvg(emotionChartSpec(input));
    expect(svg.match(/aria-roledescription="line mark"/g)).toHaveLength(2);
    const rules = svg.match(/role-mark mediator_turns_marks"[^>]*>([\s\S]*?)<\/g>/)![1];
    expect(rules.match(/<line /g)).toHaveLength(2);
    expect(svg).toContain("<title>Ana, turn 5: 70 — heard at last</title>");
    expect(svg).toContain("<title>mediator, turn 3</title>");
  });

  it("keeps the points' hover titles on an unmediated run, whose mediator rule draws nothing", async () => {
    const svg = await renderChartSvg(emotionChartSpec({ ...input, mediatorTurns: [] }));
    expect(svg).toMatch(/role-mark mediator_turns_marks"[^>]*\/>/);
    expect(svg).toContain("<title>Ana, turn 5: 70 — heard at last</title>");
  });
});
