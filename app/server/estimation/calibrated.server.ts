/**
 * Human-calibrated estimates of a benchmark plan's mediators (issue 33, Build 2): for the stored
 * runs of the plan's main grid, each run's human-scale quantities read from the plan's main
 * evaluator (s[k][t_end] at snippet ends the snippet rule gives, on every run) and from the expert
 * consensus studies named (the expert mean score per snippet and topic), then the estimates of
 * app/domain/estimation/calibrated.ts. Read-only. `socrates estimate`, the report's
 * "Human-calibrated scores" part and the Benchmark page call this.
 *
 * An active study (part E) passes its design (`design`): the inclusion probability per run.
 */
import { planGrid, type LoadedPlan } from "../benchmark/plan-file.server.ts";
import {
  calibratedRows,
  DEFAULT_CALIBRATION,
  type ActiveDesign,
  type CalibratedEstimates,
  type CalibrationRun,
  type CalibrationSettings,
} from "../../domain/estimation/calibrated.ts";
import { runQuantities, type RunValues } from "../../domain/estimation/run-quantities.ts";
import { parseMetricParams } from "../../domain/metrics/metric-params.ts";
import { failedTopicsOf } from "../../domain/metrics/incomplete-input.ts";
import { segmentSnippets, type SnippetTurn } from "../../domain/snippets.ts";
import { referenceUnits, seriesLookup, type AlignmentItem } from "../../domain/validation/alignment-table.ts";
import type { ConsensusLabelRow } from "../../domain/validation/types.ts";
import { CONSENSUS_SNIPPET, type ConsensusLabel } from "../../task-types/consensus-snippet/label.ts";
import {
  alignmentItemOf,
  loadItems,
  loadLatestLabels,
  loadSeries,
  topicsByRun,
} from "../annotation/dashboard-data.server.ts";
import type { Db } from "../db.server.ts";
import { findEvaluation } from "../models/evaluation.server.ts";
import { findRun, publicTurns, storedRunIds } from "../models/run.server.ts";
import { findStudy } from "../models/study.server.ts";
import { activeDesignOf } from "./active-study.server.ts";

/** Bad input to the estimate (a study that is missing or not an expert consensus study); names where it was named. */
export class CalibrationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CalibrationInputError";
  }
}

export interface CalibrationRequest {
  loaded: LoadedPlan;
  /** Expert snippet-consensus study ids. */
  studyIds: readonly number[];
  /** Where study i was named, for errors (default `--study`). */
  studyWhere?: (index: number) => string;
  settings?: Partial<CalibrationSettings>;
  /** An active study's design; absent: `active` is null on every row. */
  design?: ActiveDesign;
}

/** Each named study, checked: it exists and is an expert snippet-consensus study. */
async function checkStudies(db: Db, ids: readonly number[], where: (i: number) => string): Promise<number[]> {
  for (const [i, id] of ids.entries()) {
    const study = await findStudy(db, id);
    if (!study) throw new CalibrationInputError(`${where(i)}: study ${id} does not exist (see the Studies page)`);
    if (study.type !== CONSENSUS_SNIPPET || study.pool !== "expert")
      throw new CalibrationInputError(
        `${where(i)}: study ${id} ("${study.name}") is a ${study.pool} ${study.type} study; the estimate reads expert snippet-consensus studies`,
      );
  }
  return [...new Set(ids)];
}

/** The stored runs of the plan's main grid, with their mediator (null: unmediated) and domain. */
async function planRuns(db: Db, loaded: LoadedPlan) {
  const units = (await planGrid(db, loaded.plan)).units.filter((u) => u.part === "main");
  const all = units.flatMap((u) => [
    { runId: u.unmediatedRunId, mediator: null as string | null, domain: u.domain },
    ...u.mediated.map((m) => ({ runId: m.runId, mediator: m.mediator as string | null, domain: u.domain })),
  ]);
  const stored = await storedRunIds(
    db,
    all.map((r) => r.runId),
  );
  const seen = new Set<string>();
  return all.filter((r) => stored.has(r.runId) && !seen.has(r.runId) && seen.add(r.runId));
}

/** Every run's snippets by the snippet rule (app/domain/snippets.ts) as items, with the run's topics. */
async function snippetItems(
  db: Db,
  runIds: readonly string[],
  topics: Map<string, string[]>,
): Promise<AlignmentItem[]> {
  const items: AlignmentItem[] = [];
  for (const runId of runIds) {
    const run = (await findRun(db, runId))!;
    const turns = (await publicTurns(db, runId)).map((t) => ({
      turnId: t.turnId,
      role: t.role as SnippetTurn["role"],
      speaker: t.speaker,
    }));
    for (const s of segmentSnippets(turns, run.partyOrder, run.turnOrder)) {
      items.push({
        itemId: `${runId}#${s.position}`,
        runId,
        snippetPosition: s.position,
        isLastSnippet: s.isLast,
        endTurn: s.endTurn,
        topicIds: topics.get(runId) ?? [],
        isGold: false,
      });
    }
  }
  return items;
}

/**
 * The judge's quantities per run: the main evaluator's s[k][t_end] (with s0) at each snippet end. A
 * topic whose judge pass failed has no value, so the run's quantities that need it are null.
 */
async function judgeValues(db: Db, loaded: LoadedPlan, runIds: string[], topics: Map<string, string[]>, s0: number) {
  const evaluator = loaded.plan.evaluator.model;
  const failed = new Map<string, Set<string>>();
  const series: Awaited<ReturnType<typeof loadSeries>> = [];
  for (const s of await loadSeries(db, runIds, "topic-localized")) {
    if (s.backbone !== evaluator) continue;
    let set = failed.get(s.evaluationId);
    if (!set) {
      const e = (await findEvaluation(db, s.evaluationId))!;
      set = new Set(failedTopicsOf(topics.get(s.runId) ?? [], { id: e.id, output: e.output, errors: e.errors ?? [] }));
      failed.set(s.evaluationId, set);
    }
    if (!set.has(s.topicId)) series.push(s);
  }
  const lookup = seriesLookup(series, s0);
  const items = await snippetItems(db, runIds, topics);
  return runQuantities(items, (item, topic) => lookup(item.runId, topic, item.endTurn));
}

/**
 * The experts' quantities per run of the plan from the studies' expert labels (those the
 * dashboards' statistics use), and how many scored runs lie outside the plan. A run no expert
 * scored is absent.
 */
async function humanValues(db: Db, studyIds: readonly number[], inPlan: Set<string>, topics: Map<string, string[]>) {
  const items = (await loadItems(db, studyIds)).filter((i) => i.kind === CONSENSUS_SNIPPET && i.runId !== null);
  const labels: ConsensusLabelRow[] = (await loadLatestLabels(db, studyIds, "statistics"))
    .filter((l) => l.pool === "expert")
    .map((l) => ({
      itemId: l.itemId,
      annotatorId: l.annotatorId,
      pool: l.pool,
      payload: l.payload as ConsensusLabel,
      secondsOnTask: l.secondsOnTask,
    }));
  const planItems: AlignmentItem[] = items
    .filter((i) => inPlan.has(i.runId as string))
    .map((i) => alignmentItemOf(i, topics));
  const planItemIds = new Set(planItems.map((i) => i.itemId));
  const runOfItem = new Map(items.map((i) => [i.itemId, i.runId as string]));
  const outside = new Set(
    labels.map((l) => runOfItem.get(l.itemId as number)).filter((r) => r !== undefined && !inPlan.has(r)),
  );
  const units = referenceUnits(
    planItems,
    labels.filter((l) => planItemIds.has(l.itemId as number)),
  );
  const reference = new Map(units.map((u) => [`${u.runId}\u0000${u.snippetPosition}\u0000${u.topicId}`, u.reference]));
  // One item per snippet: two studies showing the same snippet share its expert mean.
  const bySnippet = new Map(planItems.filter((i) => !i.isGold).map((i) => [`${i.runId}\u0000${i.snippetPosition}`, i]));
  const values = runQuantities(
    [...bySnippet.values()],
    (item, topic) => reference.get(`${item.runId}\u0000${item.snippetPosition}\u0000${topic}`) ?? null,
  );
  const scored = new Set(units.map((u) => u.runId));
  const human = new Map<string, RunValues>([...values].filter(([runId]) => scored.has(runId)));
  return { human, outside: outside.size };
}

export async function calibratedEstimates(db: Db, request: CalibrationRequest): Promise<CalibratedEstimates> {
  const { loaded } = request;
  const settings: CalibrationSettings = { ...DEFAULT_CALIBRATION, ...request.settings };
  const studyIds = await checkStudies(db, request.studyIds, request.studyWhere ?? (() => "--study"));
  const { s0 } = parseMetricParams(loaded.plan.params);
  const runs = await planRuns(db, loaded);
  const runIds = runs.map((r) => r.runId);
  const topics = await topicsByRun(db, runIds);
  const judge = await judgeValues(db, loaded, runIds, topics, s0);
  const { human, outside } = await humanValues(db, studyIds, new Set(runIds), topics);
  // A named active study brings its own design (docs/active-labelling.md): π at its current prefix.
  const design = request.design ?? (await activeDesignOf(db, studyIds));
  const noValue: RunValues = { outcome: null, trajectory: null };
  const calibration: CalibrationRun[] = runs.map((r) => ({
    ...r,
    judge: judge.get(r.runId) ?? noValue,
    human: human.get(r.runId) ?? null,
  }));
  return {
    planName: loaded.plan.name,
    planHash: loaded.hash,
    evaluator: loaded.plan.evaluator.model,
    s0,
    studyIds,
    settings,
    runs: runs.length,
    labelledOutsidePlan: outside,
    rows: calibratedRows(calibration, settings, {
      mediators: loaded.plan.mediators.map((m) => m.name),
      ...(design ? { design } : {}),
    }),
  };
}
