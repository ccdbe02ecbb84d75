/**
 * What the report builders read: one subject per mediated run of the plan's grid, with the
 * stored metric values it carries (the server's report-data module fills it from metric_values).
 * Pure data, so every builder is a plain function of it.
 */
import type { GridPart } from "../grid.ts";
import type { MediatorMode } from "../plan.ts";

/** The topic-localized metrics of one run (IT, IE) and its pair (CG) under one judge backbone; null = no value. */
export interface JudgedValues {
  IT: number | null;
  IE: number | null;
  CG: number | null;
  /** IE's per-intervention lifts with their progress p = m/T (the timing profile's input). */
  interventions: { progress: number; ie: number }[];
}

export interface ReportSubject {
  /** The mediated run (for CG, the pair's mediated run): what a cell links to. */
  runId: string;
  mediator: string;
  scenarioId: string;
  domain: string;
  /** `general` or `<axis>:<variant>`. */
  conditionKey: string;
  axis: string;
  variant: string;
  part: GridPart;
  simulator: string;
  runIndex: number;
  IF: number | null;
  FI: number | null;
  /** By evaluator backbone; an evaluator without stored rows for this run is absent. */
  judged: Record<string, JudgedValues>;
}

export interface BootstrapSettings {
  draws: number;
  seed: number;
  level: number;
}

export interface ReportInput {
  planName: string;
  planHash: string;
  /** The main evaluator first, then the ablation's. */
  evaluators: string[];
  simulator: string;
  /** Figure 6: each ablation simulator with the mediators it plays. */
  ablationSimulators: { model: string; mediators: string[] }[];
  mediators: { name: string; mode: MediatorMode }[];
  /** Table 9: run indices 0..runs−1 on these condition keys; absent without the ablation. */
  repeats?: { runs: number; conditionKeys: string[] };
  subjects: ReportSubject[];
  bootstrap: BootstrapSettings;
  bins: number;
}

export const TOPIC_METRICS = ["IT", "IE", "CG"] as const;
export type TopicMetric = (typeof TOPIC_METRICS)[number];

/** The subjects of the main table: the main grid under the main simulator. */
export function mainSubjects(input: ReportInput): ReportSubject[] {
  return input.subjects.filter((s) => s.part === "main" && s.simulator === input.simulator);
}

/** One subject's value of a topic-localized metric under a judge (null when not stored or undefined). */
export function judgedValue(subject: ReportSubject, evaluator: string, metric: TopicMetric): number | null {
  return subject.judged[evaluator]?.[metric] ?? null;
}
