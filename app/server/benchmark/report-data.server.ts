/**
 * The report's input from the database: one subject per mediated run of the plan's grid with
 * its stored metric rows — IT and IE under the run's topic-localized evaluation by each evaluator
 * that the current judge prompt may use (resolveEvaluationIds), CG of its matched pair under the
 * same id, IF and FI under "" — for every evaluator of the plan. Two queries per subject kind,
 * whatever the grid's size. A missing row or a null value is missing, and so is a row computed
 * with other parameters than the plan's (storedWithParams): it is never shown as the plan's value.
 * Each stored run of the grid (mediated or not) also carries its emotion metrics — ER, EF, EV
 * under `emotionSubjectId` and EC under `emotionConsensusSubjectId` of its preferred trajectory
 * (app/server/emotion-trajectories.server.ts; a few queries per run, since the source depends on the run's records).
 * CC, TLE, RL, ME and MI of both metric definitions come from ./report-definitions.server.ts.
 */
import {
  planEvaluators,
  selectedConditionKeys,
  type BenchmarkGrid,
  type GridMediatedRun,
  type GridUnit,
} from "../../domain/benchmark/grid.ts";
import type { BenchmarkReport } from "../../domain/benchmark/report-model.ts";
import type {
  DefinitionValues,
  JudgedValues,
  ReportInput,
  ReportSubject,
  RunEmotion,
  RunPlace,
} from "../../domain/benchmark/report/input.ts";
import { emotionConsensusSubjectId, emotionSourceLabel, emotionSubjectId } from "../../domain/emotion/trajectory.ts";
import { parseMetricParams, storedWithParams, type MetricParams } from "../../domain/metrics/metric-params.ts";
import { currentEvaluationIds } from "../pipeline/evaluation-identity.server.ts";
import type { Db } from "../db.server.ts";
import { metricRowsOfMetrics } from "../models/metric-value.server.ts";
import { runIds } from "../models/run.server.ts";
import type { LoadedPlan } from "./plan-file.server.ts";
import { preferredRunTrajectory } from "../emotion-trajectories.server.ts";
import { loadConditionCoverage } from "./report-conditions.server.ts";
import { definitionValuesReader } from "./report-definitions.server.ts";

type StoredRow = Awaited<ReturnType<typeof metricRowsOfMetrics>>[number];

export interface ReportData {
  input: Omit<ReportInput, "bootstrap" | "bins">;
  /** Each metric parameter with every distinct value (JSON) found on the rows used. */
  params: Map<string, Set<string>>;
  /** Stored rows of the grid's runs and pairs computed with other parameters than the plan's: not used. */
  otherParams: { rows: number; example: string | null };
  coverage: BenchmarkReport["coverage"];
}

const rowKey = (subjectId: string, evaluation: string, metric: string) =>
  `${subjectId}\u0000${evaluation}\u0000${metric}`;

/**
 * The rows computed with the plan's parameters, by key; a row of other parameters is missing (and, when of the grid,
 * listed in `other`).
 */
function indexRows(
  rows: readonly StoredRow[],
  params: MetricParams,
  grid: ReadonlySet<string>,
  other: StoredRow[],
): Map<string, StoredRow> {
  const kept = rows.filter((r) => {
    const ok = storedWithParams(r, params);
    if (!ok && grid.has(r.subjectId)) other.push(r);
    return ok;
  });
  return new Map(kept.map((r) => [rowKey(r.subjectId, r.evaluationId, r.metric), r]));
}

const isIncomplete = (row: StoredRow | undefined) =>
  Boolean(row && (row.detail as { incomplete?: unknown } | null)?.incomplete === true);

function interventionsOf(row: StoredRow | undefined): JudgedValues["interventions"] {
  const list =
    (row?.detail as { perIntervention?: { progress?: unknown; ie?: unknown }[] } | null)?.perIntervention ?? [];
  return list.flatMap((p) =>
    typeof p.progress === "number" && typeof p.ie === "number" && p.progress > 0 && p.progress <= 1
      ? [{ progress: p.progress, ie: p.ie }]
      : [],
  );
}

/** ER's per-intervention repairs (detail.perIntervention[].{progress, er}) with a progress in (0, 1]. */
function repairsOf(row: StoredRow | undefined): RunEmotion["interventions"] {
  const list =
    (row?.detail as { perIntervention?: { progress?: unknown; er?: unknown }[] } | null)?.perIntervention ?? [];
  return list.flatMap((p) =>
    typeof p.progress === "number" && typeof p.er === "number" && p.progress > 0 && p.progress <= 1
      ? [{ progress: p.progress, er: p.er }]
      : [],
  );
}

export const EMOTION_METRICS = ["ER", "EF", "EV", "EC"] as const;

/**
 * Reads a run's emotion metrics from its preferred trajectory: rows keyed by (run, the
 * trajectory's subject id, metric); EC under the main evaluator's topic-localized evaluation.
 */
function emotionReader(
  db: Db,
  rows: Map<string, StoredRow>,
  topicIds: Map<string, string>,
  judge: string | undefined,
  use: (row: StoredRow | undefined) => number | null,
) {
  return async (runId: string): Promise<RunEmotion | null> => {
    const trajectory = await preferredRunTrajectory(db, runId, judge);
    if (!trajectory) return null;
    const id = emotionSubjectId(runId, trajectory.source);
    const er = rows.get(rowKey(runId, id, "ER"));
    const ecId = emotionConsensusSubjectId(runId, trajectory.source, topicIds.get(runId)!);
    return {
      source: emotionSourceLabel(trajectory.source),
      ER: use(er),
      EF: use(rows.get(rowKey(runId, id, "EF"))),
      EV: use(rows.get(rowKey(runId, id, "EV"))),
      EC: use(rows.get(rowKey(runId, ecId, "EC"))),
      interventions: er?.value === null ? [] : repairsOf(er),
    };
  };
}

type ReadValue = (row: StoredRow | undefined) => number | null;

/**
 * The grid's stored metric rows computed with the plan's parameters (runs, pairs), by key; rows of
 * the grid with other parameters are listed in `other`.
 */
async function loadGridRows(db: Db, planParams: MetricParams, grid: BenchmarkGrid, gridRunIds: string[]) {
  const other: StoredRow[] = [];
  const runRows = indexRows(
    await metricRowsOfMetrics(db, "run", ["IT", "IE", "IF", "FI", ...EMOTION_METRICS]),
    planParams,
    new Set(gridRunIds),
    other,
  );
  const pairRows = indexRows(
    await metricRowsOfMetrics(db, "pair", ["CG"]),
    planParams,
    new Set(grid.units.flatMap((u) => u.mediated.map((m) => m.pairId))),
    other,
  );
  return { runRows, pairRows, other };
}

/** A row's value (null when there is no row) that also records each of its parameters' values (JSON) into `params`. */
function paramRecorder(params: Map<string, Set<string>>): ReadValue {
  return (row) => {
    if (!row) return null;
    for (const [k, v] of Object.entries(row.params ?? {})) {
      const set = params.get(k) ?? new Set<string>();
      set.add(JSON.stringify(v));
      params.set(k, set);
    }
    return row.value;
  };
}

/** What the subjects are read from. */
interface SubjectSources {
  evaluators: string[];
  /** Every stored run's id. */
  stored: Set<string>;
  runRows: Map<string, StoredRow>;
  pairRows: Map<string, StoredRow>;
  /** By evaluator, the evaluation its rows are read under, per run. */
  topicIds: Map<string, Map<string, string>>;
  emotionOf: (runId: string) => Promise<RunEmotion | null>;
  /** CC, TLE, RL, ME and MI under both metric definitions (./report-definitions.server.ts). */
  definitionsOf: (runId: string) => DefinitionValues | undefined;
  use: ReadValue;
}

/** The coverage counts other than the stored mediated runs (the subjects themselves). */
type Counts = Required<Omit<BenchmarkReport["coverage"], "storedMediatedRuns">>;

/** Where a unit's runs sit in the grid. */
function placeOf(unit: GridUnit): Omit<RunPlace, "runId" | "emotion"> {
  return {
    scenarioId: unit.scenarioId,
    domain: unit.domain,
    conditionKey: unit.conditionKey,
    axis: unit.axis,
    variant: unit.variant,
    part: unit.part,
    simulator: unit.simulator.model,
    runIndex: unit.runIndex,
  };
}

/**
 * A stored mediated run's judged values by evaluator (an evaluator without rows is absent); only
 * the main evaluator's rows count it as evaluated (and incomplete).
 */
function judgedOf(src: SubjectSources, m: GridMediatedRun, counts: Counts): Record<string, JudgedValues> {
  const judged: Record<string, JudgedValues> = {};
  for (const evaluator of src.evaluators) {
    const id = src.topicIds.get(evaluator)!.get(m.runId)!;
    const it = src.runRows.get(rowKey(m.runId, id, "IT"));
    const ie = src.runRows.get(rowKey(m.runId, id, "IE"));
    const cg = src.pairRows.get(rowKey(m.pairId, id, "CG"));
    if (!it && !ie && !cg) continue;
    if (evaluator === src.evaluators[0]) {
      counts.evaluatedRuns += 1;
      if (isIncomplete(it) || isIncomplete(ie) || isIncomplete(cg)) counts.incompleteRuns += 1;
    }
    judged[evaluator] = {
      IT: src.use(it),
      IE: src.use(ie),
      CG: src.use(cg),
      interventions: ie?.value === null ? [] : interventionsOf(ie),
    };
  }
  return judged;
}

/**
 * One subject per stored mediated run and one place per stored unmediated run of the grid, with the coverage counts.
 */
async function collectSubjects(src: SubjectSources, units: readonly GridUnit[]) {
  const subjects: ReportSubject[] = [];
  const unmediated: RunPlace[] = [];
  const counts: Counts = {
    plannedRuns: 0,
    storedRuns: 0,
    evaluatedRuns: 0,
    incompleteRuns: 0,
    plannedMediatedRuns: 0,
  };
  for (const unit of units) {
    counts.plannedRuns += 1 + unit.mediated.length;
    const place = placeOf(unit);
    if (src.stored.has(unit.unmediatedRunId)) {
      counts.storedRuns += 1;
      unmediated.push({ runId: unit.unmediatedRunId, ...place, emotion: await src.emotionOf(unit.unmediatedRunId) });
    }
    counts.plannedMediatedRuns += unit.mediated.length;
    for (const m of unit.mediated) {
      if (!src.stored.has(m.runId)) continue;
      counts.storedRuns += 1;
      const judged = judgedOf(src, m, counts);
      subjects.push({
        runId: m.runId,
        mediator: m.mediator,
        ...place,
        emotion: await src.emotionOf(m.runId),
        IF: src.use(src.runRows.get(rowKey(m.runId, "", "IF"))),
        FI: src.use(src.runRows.get(rowKey(m.runId, "", "FI"))),
        judged,
        definitions: src.definitionsOf(m.runId),
      });
    }
  }
  return { subjects, unmediated, counts };
}

/** The report input's fields that come from the plan alone. */
function planFields(loaded: LoadedPlan, evaluators: string[]) {
  const { plan } = loaded;
  const repeats = plan.ablations.repeats;
  return {
    planName: plan.name,
    planHash: loaded.hash,
    evaluators,
    simulator: plan.simulator.model,
    ablationSimulators: plan.ablations.simulators.map((s) => ({ model: s.model, mediators: s.mediators })),
    mediators: plan.mediators.map((m) => ({ name: m.name, mode: m.mode })),
    ...(repeats ? { repeats: { runs: repeats.runs, conditionKeys: selectedConditionKeys(repeats.conditions) } } : {}),
  };
}

export async function loadReportData(db: Db, loaded: LoadedPlan, grid: BenchmarkGrid): Promise<ReportData> {
  const { plan } = loaded;
  const evaluators = planEvaluators(plan).map((e) => e.model);
  const planParams = parseMetricParams(plan.params);
  const gridRunIds = grid.units.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)]);
  const { runRows, pairRows, other } = await loadGridRows(db, planParams, grid, gridRunIds);
  // The evaluation each evaluator's rows are read under, per run (one query per evaluator).
  const topicIds = new Map(
    await Promise.all(
      evaluators.map(async (e) => [e, await currentEvaluationIds(db, gridRunIds, "topic-localized", e)] as const),
    ),
  );
  const stored = new Set(await runIds(db));
  const params = new Map<string, Set<string>>();
  const use = paramRecorder(params);

  const emotionOf = emotionReader(db, runRows, topicIds.get(evaluators[0])!, plan.emotion?.judge?.model, use);
  const definitionsOf = await definitionValuesReader(db, planParams, gridRunIds, evaluators[0]);
  const sources = { evaluators, stored, runRows, pairRows, topicIds, emotionOf, definitionsOf, use };
  const { subjects, unmediated, counts } = await collectSubjects(sources, grid.units);
  return {
    input: {
      ...planFields(loaded, evaluators),
      subjects,
      unmediated,
      conditions: await loadConditionCoverage(db, plan, grid),
    },
    params,
    otherParams: {
      rows: other.length,
      example:
        other.length > 0 ? `${other[0].metric} of ${other[0].subjectId} with ${JSON.stringify(other[0].params)}` : null,
    },
    coverage: {
      plannedRuns: counts.plannedRuns,
      storedRuns: counts.storedRuns,
      evaluatedRuns: counts.evaluatedRuns,
      incompleteRuns: counts.incompleteRuns,
      plannedMediatedRuns: counts.plannedMediatedRuns,
      storedMediatedRuns: subjects.length,
    },
  };
}
