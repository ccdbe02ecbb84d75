/**
 * What a benchmark grid still needs, read from the database: for each unit of the shard, which of
 * its runs are stored, which matched pairs are stored, which topic-localized evaluations each run
 * still lacks, and (with the plan's emotion judge) whether its emotion-judge evaluation is
 * pending. Shared by the runner, `--dry-run` and `benchmark status`; reads only.
 */
import { inShard, planEvaluators, type GridPart, type GridUnit } from "../../domain/benchmark/grid.ts";
import type { BenchmarkPlan, PlanBackbone, PlanMediator } from "../../domain/benchmark/plan.ts";
import { estimateGridCost, type GridCostEstimate, type RunGroup } from "../../domain/benchmark/cost.ts";
import type { Condition } from "../../domain/bundle.ts";
import { EMOTION_METHOD } from "../../domain/emotion/trajectory.ts";
import { resolveEvaluationIds } from "../pipeline/evaluation-identity.server.ts";
import type { RunSettings } from "../../domain/simulation/run-identity.ts";
import type { PlayedScenario } from "../../domain/visibility.ts";
import type { Db } from "../db.server.ts";
import type { LlmConfig } from "../llm/config.server.ts";
import { storedMatchedPairIds } from "../models/matched-pair.server.ts";
import { selfReportedRunIds, storedRunIds } from "../models/run.server.ts";
import { TOPIC_METHOD } from "../pipeline/evaluate-topic.server.ts";
import { loadScenario, resolveCondition } from "../pipeline/simulate.server.ts";
import { gridSampling, planGrid, type LoadedPlan } from "./plan-file.server.ts";
import { checkGridComplete } from "./plan-check.server.ts";

export interface RunWork {
  runId: string;
  /** The plan's mediator, or null for the unit's shared unmediated run. */
  mediator: PlanMediator | null;
  stored: boolean;
  /** Evaluator backbones whose topic-localized evaluation of this run is not stored yet. */
  pendingEvaluators: PlanBackbone[];
  /**
   * The plan's emotion judge on this run: "none" without a judge or when the parties report
   * their own emotion, else whether its evaluation is still "pending" or "done".
   */
  emotionJudge: EmotionJudgeWork;
  /** The run's identity: what it is (or will be) simulated with. */
  settings: RunSettings;
}

export type EmotionJudgeWork = "none" | "pending" | "done";

export interface PairWork {
  id: string;
  mediatedRunId: string;
  unmediatedRunId: string;
  stored: boolean;
}

export interface UnitWork {
  unit: GridUnit;
  runs: RunWork[];
  pairs: PairWork[];
  evaluators: PlanBackbone[];
}

/** A played scenario-condition: what a run of it needs to be simulated. */
export interface PlayedCondition {
  condition: Condition;
  played: PlayedScenario;
}

/** Loads each scenario-condition once per command. */
export function playedConditions(
  db: Db,
): (unit: Pick<GridUnit, "scenarioId" | "conditionId">) => Promise<PlayedCondition> {
  const cache = new Map<string, PlayedCondition>();
  return async (unit) => {
    let found = cache.get(unit.conditionId);
    if (!found) {
      const scenario = await loadScenario(db, unit.scenarioId);
      const { condition } = await resolveCondition(db, scenario, unit.conditionId);
      const body = condition.expanded ?? scenario;
      found = { condition, played: { background: body.background, topics: body.topics, parties: body.parties } };
      cache.set(unit.conditionId, found);
    }
    return found;
  };
}

/** The judges of a unit: Table 8's ablation evaluators judge the main grid only. */
export function unitEvaluators(plan: BenchmarkPlan, part: GridPart): PlanBackbone[] {
  return part === "main" ? planEvaluators(plan) : [plan.evaluator];
}

/**
 * Whether each run still needs the plan's emotion judge; a run not simulated yet will self-report when the plan says
 * so.
 */
async function emotionJudgeWork(
  db: Db,
  plan: BenchmarkPlan,
  runIds: readonly string[],
  stored: ReadonlySet<string>,
  selfReported: ReadonlySet<string>,
): Promise<(runId: string) => EmotionJudgeWork> {
  const judge = plan.emotion?.judge;
  if (!judge) return () => "none";
  const judged = await resolveEvaluationIds(db, runIds, EMOTION_METHOD, judge.model);
  return (runId) => {
    if (judged.has(runId)) return "done";
    const willSelfReport = stored.has(runId) ? selfReported.has(runId) : plan.emotion!.selfReport;
    return willSelfReport ? "none" : "pending";
  };
}

export async function unitWork(db: Db, plan: BenchmarkPlan, unit: GridUnit): Promise<UnitWork> {
  const mediators = new Map(plan.mediators.map((m) => [m.name, m]));
  const evaluators = unitEvaluators(plan, unit.part);
  const runIds = [unit.unmediatedRunId, ...unit.mediated.map((m) => m.runId)];
  const stored = await storedRunIds(db, runIds);
  const pairsStored = await storedMatchedPairIds(
    db,
    unit.mediated.map((m) => m.pairId),
  );
  // One query for the unit's evaluations, reading their backbones only (not the judge outputs).
  const judged = new Map(
    await Promise.all(
      evaluators.map(async (e) => [e.model, await resolveEvaluationIds(db, runIds, TOPIC_METHOD, e.model)] as const),
    ),
  );
  const pending = (runId: string) => evaluators.filter((e) => !stored.has(runId) || !judged.get(e.model)!.has(runId));
  // One query for which stored runs self-reported (only a plan with `emotion` asks).
  const selfReported = plan.emotion ? await selfReportedRunIds(db, [...stored]) : new Set<string>();
  const emotionJudge = await emotionJudgeWork(db, plan, runIds, stored, selfReported);
  const runWork = async (runId: string, mediator: PlanMediator | null, settings: RunSettings): Promise<RunWork> => ({
    runId,
    mediator,
    stored: stored.has(runId),
    pendingEvaluators: pending(runId),
    emotionJudge: await emotionJudge(runId),
    settings,
  });
  const runs: RunWork[] = [
    await runWork(unit.unmediatedRunId, null, unit.unmediatedSettings),
    ...(await Promise.all(
      unit.mediated.map(async (m) => await runWork(m.runId, mediators.get(m.mediator)!, m.settings)),
    )),
  ];
  const pairs = unit.mediated.map((m) => ({
    id: m.pairId,
    mediatedRunId: m.runId,
    unmediatedRunId: unit.unmediatedRunId,
    stored: pairsStored.has(m.pairId),
  }));
  return { unit, runs, pairs, evaluators };
}

export interface ShardWork {
  /** Units of the whole grid, and of this shard. */
  gridUnits: number;
  units: UnitWork[];
}

/**
 * The shard's units and what each still needs; refuses a grid with missing conditions or unknown
 * scenarios. With the LLM configuration, runs are matched on their sampling too (see planGrid).
 */
export async function shardWork(
  db: Db,
  loaded: LoadedPlan,
  shard?: { index: number; count: number },
  config?: LlmConfig,
): Promise<ShardWork> {
  const grid = await planGrid(db, loaded.plan, config ? gridSampling(config) : undefined);
  checkGridComplete(grid, loaded.source);
  const units = shard ? grid.units.filter((u) => inShard(u, shard)) : grid.units;
  return {
    gridUnits: grid.units.length,
    units: await Promise.all(units.map(async (u) => await unitWork(db, loaded.plan, u))),
  };
}

export interface PartCounts {
  units: number;
  runs: number;
  runsStored: number;
  evaluations: number;
  evaluationsPending: number;
  /** Emotion-judge evaluations the plan asks for (runs without self-report), and how many are pending. */
  emotionEvaluations: number;
  emotionPending: number;
}

/** Counts per part of the grid (main, repeat, simulator). */
export function countsByPart(work: readonly UnitWork[]): Record<string, PartCounts> {
  const out: Record<string, PartCounts> = {};
  for (const w of work) {
    const c = (out[w.unit.part] ??= {
      units: 0,
      runs: 0,
      runsStored: 0,
      evaluations: 0,
      evaluationsPending: 0,
      emotionEvaluations: 0,
      emotionPending: 0,
    });
    c.units += 1;
    c.runs += w.runs.length;
    c.runsStored += w.runs.filter((r) => r.stored).length;
    c.evaluations += w.runs.length * w.evaluators.length;
    c.evaluationsPending += w.runs.reduce((n, r) => n + r.pendingEvaluators.length, 0);
    c.emotionEvaluations += w.runs.filter((r) => r.emotionJudge !== "none").length;
    c.emotionPending += w.runs.filter((r) => r.emotionJudge === "pending").length;
  }
  return out;
}

/** The estimated calls and dollars of what is still pending, at the configured prices. */
export async function estimateShardCost(
  db: Db,
  plan: BenchmarkPlan,
  config: LlmConfig,
  work: readonly UnitWork[],
): Promise<GridCostEstimate> {
  const playedOf = playedConditions(db);
  const groups: RunGroup[] = [];
  for (const w of work) {
    const { played } = await playedOf(w.unit);
    const scenarioChars = JSON.stringify(played).length;
    for (const r of w.runs) {
      const judges: Record<string, number> = {};
      for (const e of r.pendingEvaluators) judges[e.model] = (judges[e.model] ?? 0) + 1;
      const emotionJudge = plan.emotion?.judge;
      groups.push({
        emotionJudges: emotionJudge && r.emotionJudge === "pending" ? { [emotionJudge.model]: 1 } : {},
        parties: played.parties.length,
        mediated: r.mediator !== null,
        runs: r.stored ? 0 : 1,
        simulatorModel: w.unit.simulator.model,
        mediatorModel: r.mediator?.model ?? null,
        ...(r.mediator ? { mediatorMode: r.mediator.mode } : {}),
        judges,
        scenarioChars,
        topics: played.topics.length,
        budget: plan.budget,
      });
    }
  }
  return estimateGridCost(groups, config.prices);
}
