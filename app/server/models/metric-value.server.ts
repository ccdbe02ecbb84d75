/**
 * Data access for metric_values: one row per (subject, evaluation, metric), written by the metrics
 * runner. Each row records the definition version that computed it; the readers below return only
 * rows of the metric's current definition (a stale row is never served as the current metric).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { rowDefinitions } from "../../domain/metrics/metric-params.ts";
import { definitionVersion, isCurrentDefinition } from "../../domain/metrics/registry.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";
import { changedRows } from "../db.server.ts";

const { metricValues, runs, conditions, evaluations } = schema;

export type MetricValueRow = typeof metricValues.$inferSelect;

export type NewMetricValue = {
  subjectKind: "run" | "pair";
  subjectId: string;
  evaluationId: string;
  metric: string;
  value: number | null;
  detail: Record<string, unknown>;
  params: Record<string, unknown>;
  definitionVersion: number;
  computedAt: string;
};

// Written thousands of times by one `socrates metrics`: prepared once per connection.
const p = sql.placeholder;
const upsert = preparedOnce((db) =>
  db
    .insert(metricValues)
    .values({
      subjectKind: p("subjectKind"),
      subjectId: p("subjectId"),
      evaluationId: p("evaluationId"),
      metric: p("metric"),
      value: p("value"),
      detail: p("detail"),
      params: p("params"),
      definitionVersion: p("definitionVersion"),
      definitions: p("definitions"),
      computedAt: p("computedAt"),
    })
    .onConflictDoUpdate({
      target: [
        metricValues.subjectKind,
        metricValues.subjectId,
        metricValues.evaluationId,
        metricValues.metric,
        metricValues.definitions,
      ],
      set: {
        value: sql`excluded.value`,
        detail: sql`excluded.detail`,
        params: sql`excluded.params`,
        definitionVersion: sql`excluded.definition_version`,
        computedAt: sql`excluded.computed_at`,
      },
    })
    .prepare(),
);

/**
 * Stores a value, replacing the one stored for the same subject, evaluation, metric and definitions (a row of the
 * other definitions stays).
 */
export async function upsertMetricValue(db: Db, row: NewMetricValue): Promise<void> {
  await upsert(db).execute({ ...row, definitions: rowDefinitions(row) });
}

/** Removes a subject's values of these metrics (under every evaluation); returns how many went. */
export async function deleteMetricValues(
  db: Db,
  subjectKind: "run" | "pair",
  subjectId: string,
  metrics: readonly string[],
): Promise<number> {
  if (metrics.length === 0) return 0;
  return changedRows(
    await db
      .delete(metricValues)
      .where(
        and(
          eq(metricValues.subjectKind, subjectKind),
          eq(metricValues.subjectId, subjectId),
          inArray(metricValues.metric, [...metrics]),
        ),
      ),
  );
}

async function storedValuesOf(db: Db, subjectKind: "run" | "pair", subjectId: string): Promise<MetricValueRow[]> {
  return await db
    .select()
    .from(metricValues)
    .where(and(eq(metricValues.subjectKind, subjectKind), eq(metricValues.subjectId, subjectId)))
    .orderBy(asc(metricValues.evaluationId), asc(metricValues.metric));
}

/** The stored values of one subject computed by their metric's current definition, by evaluation and metric. */
export async function metricValuesOf(
  db: Db,
  subjectKind: "run" | "pair",
  subjectId: string,
): Promise<MetricValueRow[]> {
  return (await storedValuesOf(db, subjectKind, subjectId)).filter(isCurrentDefinition);
}

/**
 * For the run page: the current rows, and each stale row as a row without a value whose reason
 * says which definition computed it and how to recompute (its old value is not shown).
 */
export async function metricValuesNotingStale(
  db: Db,
  subjectKind: "run" | "pair",
  subjectId: string,
): Promise<MetricValueRow[]> {
  const stale = (await staleMetricValuesOf(db, subjectKind, subjectId)).map(
    (row): MetricValueRow => ({
      ...row,
      value: null,
      detail: {
        stale: true,
        reason: `computed by definition v${row.definitionVersion} of ${row.metric}, now v${definitionVersion(row.metric)}: npx socrates metrics computes it again`,
      },
    }),
  );
  return [...(await metricValuesOf(db, subjectKind, subjectId)), ...stale];
}

/** The subject's rows computed by an earlier definition of their metric: `socrates metrics` must compute them again. */
export async function staleMetricValuesOf(
  db: Db,
  subjectKind: "run" | "pair",
  subjectId: string,
): Promise<MetricValueRow[]> {
  return (await storedValuesOf(db, subjectKind, subjectId)).filter((row) => !isCurrentDefinition(row));
}

/**
 * Run-level values of one metric on mediated runs, with the run's mediator, its condition
 * (axis:variant) and the evaluation they came from (its backbone as `judge`); by mediator, condition, judge, run.
 */
export async function mediatedRunValues(db: Db, metric: string) {
  const condition = sql<string>`${conditions.axis} || ':' || ${conditions.variant}`;
  return (
    await db
      .select({
        metric: metricValues.metric,
        definitionVersion: metricValues.definitionVersion,
        detail: metricValues.detail,
        mediator: runs.mediatorBackbone,
        condition,
        judge: evaluations.backbone,
        evaluation: {
          id: evaluations.id,
          runId: evaluations.runId,
          method: evaluations.method,
          backbone: evaluations.backbone,
          promptVersion: evaluations.promptVersion,
        },
      })
      .from(metricValues)
      .innerJoin(runs, eq(runs.id, metricValues.subjectId))
      .innerJoin(conditions, eq(conditions.id, runs.conditionId))
      .innerJoin(evaluations, eq(evaluations.id, metricValues.evaluationId))
      .where(and(eq(metricValues.subjectKind, "run"), eq(metricValues.metric, metric), eq(runs.mediated, true)))
      .orderBy(asc(runs.mediatorBackbone), asc(condition), asc(evaluations.backbone), asc(runs.id))
  ).filter(isCurrentDefinition);
}

/**
 * Every stored value of these metrics on one kind of subject, in one query (the report reads a
 * grid of thousands of runs; the caller keeps the subjects it wants).
 */
export async function metricRowsOfMetrics(db: Db, subjectKind: "run" | "pair", metrics: readonly string[]) {
  return (
    await db
      .select({
        subjectId: metricValues.subjectId,
        evaluationId: metricValues.evaluationId,
        metric: metricValues.metric,
        value: metricValues.value,
        detail: metricValues.detail,
        params: metricValues.params,
        definitionVersion: metricValues.definitionVersion,
        definitions: metricValues.definitions,
      })
      .from(metricValues)
      .where(and(eq(metricValues.subjectKind, subjectKind), inArray(metricValues.metric, [...metrics])))
  ).filter(isCurrentDefinition);
}
