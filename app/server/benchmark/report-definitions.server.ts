/**
 * The report's CC, TLE, RL, ME and MI of each grid run under both metric definitions (spec and
 * promediate-reference, docs/metrics.md), for the side-by-side report part. A row counts for a
 * definition only when computed with the plan's parameters and that definition (storedWithParams).
 * A run's per-turn rows are read under the plan's main evaluator's per-turn evaluation and its MI
 * under that backbone's judgments; when it has none, under the first other one (by evaluation id).
 */
import type { DefinitionValues } from "../../domain/benchmark/report/input.ts";
import { DEFINITION_METRICS } from "../../domain/benchmark/report/input.ts";
import { METRIC_DEFINITIONS } from "../../domain/metrics/benchmark/shared-params.ts";
import { miEvaluationId } from "../../domain/evaluation-ids.ts";
import { storedWithParams, type MetricParams } from "../../domain/metrics/metric-params.ts";
import type { Db } from "../db.server.ts";
import { metricRowsOfMetrics } from "../models/metric-value.server.ts";
import { currentEvaluationIds } from "../pipeline/evaluation-identity.server.ts";

type StoredRow = Awaited<ReturnType<typeof metricRowsOfMetrics>>[number];

const key = (runId: string, metric: string, definitions: string) => `${runId}\u0000${metric}\u0000${definitions}`;

/** The grid's rows of the five metrics by run, metric and definitions (each list sorted by evaluation id). */
async function groupRows(
  db: Db,
  planParams: MetricParams,
  grid: ReadonlySet<string>,
): Promise<Map<string, StoredRow[]>> {
  const groups = new Map<string, StoredRow[]>();
  const rows = (await metricRowsOfMetrics(db, "run", DEFINITION_METRICS))
    .filter((r) => grid.has(r.subjectId))
    .sort((a, b) => a.evaluationId.localeCompare(b.evaluationId));
  for (const definitions of METRIC_DEFINITIONS) {
    const params = { ...planParams, definitions } as MetricParams;
    for (const row of rows.filter((r) => storedWithParams(r, params))) {
      const k = key(row.subjectId, row.metric, definitions);
      groups.set(k, [...(groups.get(k) ?? []), row]);
    }
  }
  return groups;
}

/** Reads each grid run's values of both definitions; undefined for a run without any such row. */
export async function definitionValuesReader(
  db: Db,
  planParams: MetricParams,
  gridRunIds: string[],
  mainEvaluator: string,
): Promise<(runId: string) => DefinitionValues | undefined> {
  const groups = await groupRows(db, planParams, new Set(gridRunIds));
  const perTurnIds = await currentEvaluationIds(db, gridRunIds, "per-turn", mainEvaluator);
  const readValue = (runId: string, metric: string, definitions: string): number | null => {
    const rows = groups.get(key(runId, metric, definitions)) ?? [];
    const preferred = metric === "MI" ? miEvaluationId(runId, mainEvaluator) : perTurnIds.get(runId);
    return (rows.find((r) => r.evaluationId === preferred) ?? rows[0])?.value ?? null;
  };
  return (runId) => {
    const found = DEFINITION_METRICS.some((m) => METRIC_DEFINITIONS.some((d) => groups.has(key(runId, m, d))));
    if (!found) return undefined;
    return Object.fromEntries(
      DEFINITION_METRICS.map((m) => [
        m,
        { spec: readValue(runId, m, "spec"), reference: readValue(runId, m, "promediate-reference") },
      ]),
    ) as DefinitionValues;
  };
}
