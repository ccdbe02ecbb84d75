/**
 * Computes every registered benchmark metric the stored data supports and upserts it into
 * metric_values (spec: "SoCRATES metrics", "ProMediate per-turn baseline"). What is computed and
 * how each row is built lives in app/domain/metrics (registry.ts and the descriptors); this module
 * only loads each run's stored facts and writes the rows.
 */
import { asc, eq, or } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { MEDIATOR_ID } from "../../domain/bundle.ts";
import type { RunData } from "../../domain/metrics/metric-inputs.ts";
import { parseMetricParams, type MetricParams } from "../../domain/metrics/metric-params.ts";
import { pairMetricRows, runMetricRows, type MetricRow } from "../../domain/metrics/metric-rows.ts";
import type { Db } from "../db.server.ts";

function loadRunData(db: Db, runId: string): RunData {
  const run = db.select().from(schema.runs).where(eq(schema.runs.id, runId)).get();
  if (!run) throw new Error(`there is no run "${runId}"`);
  const condition = db.select().from(schema.conditions).where(eq(schema.conditions.id, run.conditionId)).get()!;
  const played = condition.expanded ?? db.select().from(schema.scenarios).where(eq(schema.scenarios.id, run.scenarioId)).get()!;
  const speakers = db
    .select({ speaker: schema.turns.speaker })
    .from(schema.turns)
    .where(eq(schema.turns.runId, runId))
    .orderBy(asc(schema.turns.turnId))
    .all()
    .map((t) => t.speaker);
  const evaluations = db
    .select()
    .from(schema.evaluations)
    .where(eq(schema.evaluations.runId, runId))
    .orderBy(asc(schema.evaluations.id))
    .all()
    .map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  const judgments = db
    .select()
    .from(schema.interventionJudgments)
    .where(eq(schema.interventionJudgments.runId, runId))
    .orderBy(asc(schema.interventionJudgments.backbone), asc(schema.interventionJudgments.turnId))
    .all();
  return {
    runId,
    mediated: run.mediated,
    topicIds: played.topics.map((t) => t.id),
    partyIds: played.parties.map((p) => p.id),
    speakers,
    partyTurns: speakers.filter((s) => s !== MEDIATOR_ID).length,
    mediatorTurns: speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : [])),
    decisionSeconds: (run.mediatorDecisions ?? []).flatMap((d) => (d.seconds === undefined ? [] : [d.seconds])),
    evaluations,
    judgments,
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
  params: MetricParams;
  computedAt: string;
}

function upsert(db: Db, rows: MetricRow[], computedAt: string): void {
  db.transaction((tx) => {
    for (const row of rows) {
      const values = { ...row, computedAt };
      tx.insert(schema.metricValues)
        .values(values)
        .onConflictDoUpdate({
          target: [schema.metricValues.subjectKind, schema.metricValues.subjectId, schema.metricValues.evaluationId, schema.metricValues.metric],
          set: { value: row.value, detail: row.detail, params: row.params, computedAt },
        })
        .run();
    }
  });
}

export function computeMetrics(db: Db, request: MetricsRequest = {}): MetricsSummary {
  const params = parseMetricParams(request.params ?? {});
  const computedAt = (request.now ?? new Date()).toISOString();
  const runIds =
    request.runId !== undefined
      ? [loadRunData(db, request.runId).runId]
      : db.select({ id: schema.runs.id }).from(schema.runs).orderBy(asc(schema.runs.id)).all().map((r) => r.id);
  const pairs = db
    .select()
    .from(schema.matchedPairs)
    .where(request.runId !== undefined ? or(eq(schema.matchedPairs.mediatedRunId, request.runId), eq(schema.matchedPairs.unmediatedRunId, request.runId)) : undefined)
    .orderBy(asc(schema.matchedPairs.id))
    .all();

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
  upsert(db, rows, computedAt);
  return { runs: runIds.length, pairs: pairs.length, rows, params, computedAt };
}

/** The page-side reader, re-exported so CLI and tests find the writer and reader together. */
export { getRunMetrics } from "../catalog.server.ts";
