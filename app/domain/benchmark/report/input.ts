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

/**
 * A run's emotion metrics from its preferred trajectory (app/domain/emotion/trajectory.ts
 * preferredTrajectory: the self-report, else the plan's emotion judge, else the first judge).
 * null values: no stored row, undefined, or incomplete judge output. Unmediated runs have ER null.
 */
export interface RunEmotion {
  /** emotionSourceLabel of the trajectory: "self-report" or "judge <backbone>". */
  source: string;
  ER: number | null;
  EF: number | null;
  EV: number | null;
  /** Under the plan's main evaluator's topic-localized evaluation. */
  EC: number | null;
  /** ER's per-intervention repairs with their progress p = m/T. */
  interventions: { progress: number; er: number }[];
}

/** Where a run sits in the grid. */
export interface RunPlace {
  runId: string;
  scenarioId: string;
  domain: string;
  /** `general` or `<axis>:<variant>`. */
  conditionKey: string;
  axis: string;
  variant: string;
  part: GridPart;
  simulator: string;
  runIndex: number;
  /** null: the run has no emotion trajectory. */
  emotion: RunEmotion | null;
}

/** The metrics computed both ways (docs/metrics.md, "ProMediate reference definitions"). */
export const DEFINITION_METRICS = ["CC", "TLE", "RL", "ME", "MI"] as const;
export type DefinitionMetric = (typeof DEFINITION_METRICS)[number];

/**
 * A run's CC, TLE, RL, ME (per-turn baseline) and MI (judge) under the spec's definitions and ProMediate's reference
 * ones; null = no stored row of that definition, or undefined.
 */
export type DefinitionValues = Record<DefinitionMetric, { spec: number | null; reference: number | null }>;

export interface ReportSubject extends RunPlace {
  /** The mediated run (for CG, the pair's mediated run): what a cell links to. */
  runId: string;
  mediator: string;
  IF: number | null;
  FI: number | null;
  /** By evaluator backbone; an evaluator without stored rows for this run is absent. */
  judged: Record<string, JudgedValues>;
  /** Absent when the run has no per-turn evaluation or MI judgment with metric rows. */
  definitions?: DefinitionValues;
}

/** A scenario the plan selects, with what the database holds of its 15 conditions (Table 5). */
export interface ScenarioConditions {
  scenarioId: string;
  /** null: the plan names the scenario but the database does not hold it. */
  domain: string | null;
  /** The condition keys stored for it (`general`, `<axis>:<variant>`; the fidelity conditions left out). */
  stored: string[];
  /**
   * Runs the plan's grid plans on each of its stored, selected conditions (every part; mediated and unmediated), by
   * condition key.
   */
  plannedRuns: Record<string, number>;
}

/** Table 5's input: the plan's scenarios in the plan's order and the condition keys it selects. */
export interface ConditionCoverage {
  /** The keys of the main grid and the repeats, in Table 5 order. */
  selected: string[];
  scenarios: ScenarioConditions[];
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
  /** The grid's stored unmediated runs: the emotion tables' baseline (EF, EV, EC without a mediator). */
  unmediated: RunPlace[];
  /** Table 5: which of the 15 conditions each scenario of the plan has. */
  conditions: ConditionCoverage;
  bootstrap: BootstrapSettings;
  bins: number;
}

export const TOPIC_METRICS = ["IT", "IE", "CG"] as const;
export type TopicMetric = (typeof TOPIC_METRICS)[number];

/** The subjects of the main table: the main grid under the main simulator. */
export function mainSubjects(input: ReportInput): ReportSubject[] {
  return input.subjects.filter((s) => s.part === "main" && s.simulator === input.simulator);
}

/** The main grid's unmediated runs under the main simulator. */
export function mainUnmediated(input: ReportInput): RunPlace[] {
  return input.unmediated.filter((s) => s.part === "main" && s.simulator === input.simulator);
}

/** One subject's value of a topic-localized metric under a judge (null when not stored or undefined). */
export function judgedValue(subject: ReportSubject, evaluator: string, metric: TopicMetric): number | null {
  return subject.judged[evaluator]?.[metric] ?? null;
}
