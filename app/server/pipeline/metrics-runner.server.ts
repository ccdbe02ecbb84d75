/**
 * Computes every registered benchmark metric the stored data supports and upserts it into
 * metric_values (spec: "SoCRATES metrics", "ProMediate per-turn baseline"). What is computed and
 * how each row is built lives in app/domain/metrics (registry.ts and the descriptors); this module
 * only loads each run's stored facts and writes the rows.
 */
import { MEDIATOR_ID } from "../../domain/bundle.ts";
import type { RunData } from "../../domain/metrics/metric-inputs.ts";
import { parseMetricParams, type MetricParams } from "../../domain/metrics/metric-params.ts";
import { pairMetricRows, runMetricRows, type MetricRow } from "../../domain/metrics/metric-rows.ts";
import { MEDIATOR_METRIC_IDS } from "../../domain/metrics/registry.ts";
import type { Db } from "../db.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { evaluationsOfRun, judgmentsOfRun } from "../models/evaluation.server.ts";
import { allMatchedPairs, matchedPairsOfRun } from "../models/matched-pair.server.ts";
import { deleteMetricValues, upsertMetricValue } from "../models/metric-value.server.ts";
import { emotionTurns, findRun, runIds as allRunIds, runSpeakers } from "../models/run.server.ts";
import { runEmotionTrajectories } from "../../domain/emotion/trajectory.ts";
import { findScenario } from "../models/scenario.server.ts";
import { recordMetricParams } from "./metric-settings.server.ts";
import { usableEvaluationIds } from "./evaluation-identity.server.ts";

function loadRunData(db: Db, runId: string): RunData {
  const run = findRun(db, runId);
  if (!run) throw new Error(`there is no run "${runId}"`);
  const condition = findCondition(db, run.conditionId)!;
  const played = condition.expanded ?? findScenario(db, run.scenarioId)!;
  const speakers = runSpeakers(db, runId);
  // Only evaluations the current judge prompts may use: a superseded prompt version's are not measured.
  const stored = evaluationsOfRun(db, runId);
  const usable = usableEvaluationIds(stored);
  const evaluations = stored.filter((e) => usable.has(e.id)).map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  const judgments = judgmentsOfRun(db, runId);
  const partyIds = played.parties.map((p) => p.id);
  return {
    runId,
    mediated: run.mediated,
    topicIds: played.topics.map((t) => t.id),
    partyIds,
    speakers,
    partyTurns: speakers.filter((s) => s !== MEDIATOR_ID).length,
    mediatorTurns: speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : [])),
    decisionSeconds: (run.mediatorDecisions ?? []).flatMap((d) => (d.seconds === undefined ? [] : [d.seconds])),
    evaluations,
    judgments,
    emotions: runEmotionTrajectories(emotionTurns(db, runId), evaluations, partyIds),
  };
}

// ---------- the runner ----------

export interface MetricsRequest {
  /** One run (and the matched pair it belongs to); omit for every run and pair. */
  runId?: string;
  /** Overrides of the defaults, checked by parseMetricParams (e.g. parsed from `--params`). */
  params?: Partial<MetricParams> | Record<string, unknown>;
  /** Timestamp recorded on every row (defaults to now). */
  now?: Date;
}

export interface MetricsSummary {
  runs: number;
  pairs: number;
  rows: MetricRow[];
  /** Rows stored null because their input was incomplete (`detail.incomplete`: a judge reply failed). */
  incomplete: number;
  params: MetricParams;
  computedAt: string;
}

/**
 * Stores the rows and the parameters they were computed with, together. Unmediated runs lose any
 * mediator metric an earlier version stored for them (IT = 0, IF = 0): they have none.
 */
function store(db: Db, rows: MetricRow[], unmediatedRuns: string[], params: MetricParams, computedAt: string): void {
  db.transaction(() => {
    for (const runId of unmediatedRuns) deleteMetricValues(db, "run", runId, MEDIATOR_METRIC_IDS);
    for (const row of rows) upsertMetricValue(db, { ...row, computedAt });
    recordMetricParams(db, params);
  });
}

export function computeMetrics(db: Db, request: MetricsRequest = {}): MetricsSummary {
  const params = parseMetricParams(request.params ?? {});
  const computedAt = (request.now ?? new Date()).toISOString();
  const runIds = request.runId !== undefined ? [loadRunData(db, request.runId).runId] : allRunIds(db);
  const pairs = request.runId !== undefined ? matchedPairsOfRun(db, request.runId) : allMatchedPairs(db);

  const cache = new Map<string, RunData>();
  const dataOf = (id: string) => {
    let data = cache.get(id);
    if (!data) cache.set(id, (data = loadRunData(db, id)));
    return data;
  };
  const rows: MetricRow[] = [];
  for (const id of runIds) rows.push(...runMetricRows(dataOf(id), params));
  for (const pair of pairs) {
    rows.push(...pairMetricRows({ id: pair.id, mediated: dataOf(pair.mediatedRunId), unmediated: dataOf(pair.unmediatedRunId) }, params));
  }
  store(db, rows, runIds.filter((id) => !dataOf(id).mediated), params, computedAt);
  const incomplete = rows.filter((r) => r.detail.incomplete === true).length;
  return { runs: runIds.length, pairs: pairs.length, rows, incomplete, params, computedAt };
}

/** The page-side reader, re-exported so CLI and tests find the writer and reader together. */
export { getRunMetrics } from "../catalog.server.ts";
