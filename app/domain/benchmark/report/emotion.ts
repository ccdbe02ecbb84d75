/**
 * What the emotion part of the report (docs/metrics-emotion.md; its tables and figure are
 * app/report-parts/emotion-repair, emotion-summary and emotion-repair-figure) shares. Each run is
 * read through its preferred trajectory (ReportSubject.emotion); a run without one is left out of
 * the cells' counts altogether, a run whose metric is null is counted as missing.
 */
import { CONDITION_VARIANTS } from "../../bundle.ts";
import type { ReportColumn } from "../report-model.ts";
import type { CellSample } from "./cells.ts";
import type { ReportInput, RunPlace } from "./input.ts";

/** The repair table's column over every condition (the leaderboard's Emotional repair). */
export const ALL_CONDITIONS = "all";
export const UNMEDIATED_ROW = "unmediated";

export const EMOTION_AXIS = "emotion";
export const EMOTION_VARIANTS: readonly string[] = CONDITION_VARIANTS.emotion;

/** Why the emotion part is missing, and how to get it. */
export const NO_EMOTION_WARNING =
  "Emotion tables and figure omitted: no run of the grid has an emotion trajectory. Set the plan's `emotion` field (self-report during simulation, or an emotion judge) or run `socrates evaluate --method emotion`, then `socrates metrics`.";

export type EmotionMetric = "ER" | "EF" | "EV" | "EC";

/** The runs that have an emotion trajectory, each as a cell sample of one metric. */
export function samples(runs: readonly RunPlace[], metric: EmotionMetric): CellSample[] {
  return runs.flatMap((r) =>
    r.emotion ? [{ value: r.emotion[metric], scenarioId: r.scenarioId, runId: r.runId }] : [],
  );
}

/** The condition keys present, emotion axis first (CC, CR, RR), then general, then the others in the paper's order. */
export function emotionConditionColumns(runs: readonly RunPlace[]): ReportColumn[] {
  const present = new Set(runs.map((r) => r.conditionKey));
  const axes = [
    "general",
    ...Object.keys(CONDITION_VARIANTS).filter((a) => a !== "general" && a !== EMOTION_AXIS),
  ] as (keyof typeof CONDITION_VARIANTS)[];
  const first = EMOTION_VARIANTS.map((v) => ({ key: `${EMOTION_AXIS}:${v}`, label: v, group: "emotion axis" }));
  const rest = axes.flatMap((axis) =>
    CONDITION_VARIANTS[axis].map((v) =>
      axis === "general" ? { key: "general", label: "general" } : { key: `${axis}:${v}`, label: v, group: axis },
    ),
  );
  return [...first, ...rest].filter((c) => present.has(c.key));
}

/** Sources the report's runs were read from ("self-report", "judge x"), for the captions. */
export function sourcesOf(runs: readonly RunPlace[]): string {
  const sources = [...new Set(runs.flatMap((r) => (r.emotion ? [r.emotion.source] : [])))].sort();
  return sources.join(", ");
}

/** Whether any run of the input has an emotion trajectory. */
export function hasEmotion(input: ReportInput): boolean {
  return input.subjects.some((s) => s.emotion !== null) || input.unmediated.some((s) => s.emotion !== null);
}
