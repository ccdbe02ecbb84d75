/**
 * The topic-localized judge's readings of whole runs, whether or not any study holds their
 * snippets (issue 33: an active study's population, its uncertainty and the estimator's f on every
 * run). Scores are read as the dashboard reads them: s[k][t_end] with the s0 `socrates metrics`
 * last used, a superseded prompt's evaluations and a failed topic's rows left out.
 */
import { runQuantities, type RunValues } from "../../domain/estimation/run-quantities.ts";
import { seriesLookup, type AlignmentItem, type ValueLookup } from "../../domain/validation/alignment-table.ts";
import { failedTopicsOf } from "../../domain/metrics/incomplete-input.ts";
import { loadSeries, topicsByRun, type ScoreSeries } from "../annotation/dashboard-data.server.ts";
import type { Db } from "../db.server.ts";
import { findEvaluation } from "../models/evaluation.server.ts";
import { snippetsOfRuns } from "../models/study-draw.server.ts";
import { currentMetricParams } from "../pipeline/metric-settings.server.ts";

/**
 * A topic whose judge pass failed has no s[k] of its own (its stored rows sit at s0): its units
 * get no evaluator value rather than a made-up one (spec: invalid output is never silently used).
 */
export async function withoutFailedTopics(
  db: Db,
  series: ScoreSeries[],
  topics: Map<string, string[]>,
): Promise<ScoreSeries[]> {
  const failed = new Map<string, Set<string>>();
  const failedOf = async (evaluationId: string, runId: string) => {
    let set = failed.get(evaluationId);
    if (!set) {
      const e = (await findEvaluation(db, evaluationId))!;
      failed.set(
        evaluationId,
        (set = new Set(
          failedTopicsOf(topics.get(runId) ?? [], { id: e.id, output: e.output, errors: e.errors ?? [] }),
        )),
      );
    }
    return set;
  };
  const kept: ScoreSeries[] = [];
  for (const s of series) if (!(await failedOf(s.evaluationId, s.runId)).has(s.topicId)) kept.push(s);
  return kept;
}

export interface JudgeReadings {
  /** Every snippet of the runs as an alignment item (the snippet id as item id). */
  items: AlignmentItem[];
  topics: Map<string, string[]>;
  /** Per backbone: its score on (run, topic, t_end), null where it has none. */
  lookups: Map<string, ValueLookup>;
}

export async function judgeReadings(
  db: Db,
  runIds: readonly string[],
  backbones: readonly string[],
): Promise<JudgeReadings> {
  const topics = await topicsByRun(db, runIds);
  const items: AlignmentItem[] = (await snippetsOfRuns(db, runIds)).map((s) => ({
    itemId: s.id,
    runId: s.runId,
    snippetPosition: s.position,
    isLastSnippet: s.isLast,
    endTurn: s.endTurn,
    topicIds: topics.get(s.runId) ?? [],
    isGold: false,
  }));
  const { s0 } = await currentMetricParams(db);
  const series = await withoutFailedTopics(db, await loadSeries(db, runIds, "topic-localized"), topics);
  const lookups = new Map(
    backbones.map((b) => [
      b,
      seriesLookup(
        series.filter((s) => s.backbone === b),
        s0,
      ),
    ]),
  );
  return { items, topics, lookups };
}

/** Each backbone's 1–5 topic scores at each run's final snippet; a run missing any score is left out. */
export function finalTopicScores(readings: JudgeReadings, backbones: readonly string[]): Map<string, number[][]> {
  const out = new Map<string, number[][]>();
  for (const item of readings.items) {
    if (!item.isLastSnippet || item.topicIds.length === 0) continue;
    const perBackbone = backbones.map((b) =>
      item.topicIds.map((t) => readings.lookups.get(b)?.(item.runId, t, item.endTurn) ?? null),
    );
    if (perBackbone.every((scores) => scores.every((s) => s !== null))) out.set(item.runId, perBackbone as number[][]);
  }
  return out;
}

/** The judge's human-scale quantities per run (run-quantities.ts), read from one backbone. */
export function judgeRunValues(readings: JudgeReadings, backbone: string): Map<string, RunValues> {
  const lookup = readings.lookups.get(backbone);
  return runQuantities(readings.items, (item, topic) => (lookup ? lookup(item.runId, topic, item.endTurn) : null));
}
