/**
 * Computes every registered benchmark metric the stored data supports and upserts it into
 * metric_values (spec: "SoCRATES metrics", "ProMediate per-turn baseline"). What is computed and
 * how each row is built lives in app/domain/metrics (registry.ts and the descriptors); this module
 * only loads each run's stored facts and writes the rows. A caller that holds a run in memory (the
 * benchmark runner, for the runs it just simulated) gives the run's own facts instead of their
 * being read back; its evaluations and judgments, which other commands may add, are always read.
 */
import { MEDIATOR_ID, type Run } from "../../domain/bundle.ts";
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
import { runEmotionTrajectories, type EmotionTurn } from "../../domain/emotion/trajectory.ts";
import type { PlayedScenario } from "../../domain/visibility.ts";
import { findScenario } from "../models/scenario.server.ts";
import { recordMetricParams } from "./metric-settings.server.ts";
import { usableEvaluationIds } from "./evaluation-identity.server.ts";
import { transact } from "../db-transaction.server.ts";

/** What a run is, fixed once it is stored (a run is never changed): all its metrics read but its judges' work. */
export interface RunFacts {
  runId: string;
  mediated: boolean;
  topicIds: string[];
  partyIds: string[];
  /** speakers[t - 1] spoke turn t. */
  speakers: string[];
  decisionSeconds: number[];
  emotionTurns: EmotionTurn[];
}

const secondsOf = (decisions: readonly { seconds?: number }[] | null | undefined) =>
  (decisions ?? []).flatMap((d) => (d.seconds === undefined ? [] : [d.seconds]));

async function loadRunFacts(db: Db, runId: string): Promise<RunFacts> {
  const run = await findRun(db, runId);
  if (!run) throw new Error(`there is no run "${runId}"`);
  const condition = (await findCondition(db, run.conditionId))!;
  const played = condition.expanded ?? (await findScenario(db, run.scenarioId))!;
  return {
    runId,
    mediated: run.mediated,
    topicIds: played.topics.map((t) => t.id),
    partyIds: played.parties.map((p) => p.id),
    speakers: await runSpeakers(db, runId),
    decisionSeconds: secondsOf(run.mediatorDecisions),
    emotionTurns: await emotionTurns(db, runId),
  };
}

/** The facts of a run record held in memory, as loadRunFacts reads them once it is stored. */
export function runFactsOf(run: Run, played: PlayedScenario): RunFacts {
  return {
    runId: run.id,
    mediated: run.mediated,
    topicIds: played.topics.map((t) => t.id),
    partyIds: played.parties.map((p) => p.id),
    speakers: run.turns.map((t) => t.speaker),
    decisionSeconds: secondsOf(run.mediator_decisions),
    emotionTurns: run.turns.map((t) => ({
      turnId: t.turn_id,
      speaker: t.speaker,
      role: t.role,
      emotion: t.emotion ?? null,
      emotionReason: t.emotion_reason ?? null,
    })),
  };
}

async function loadRunData(db: Db, facts: RunFacts): Promise<RunData> {
  const { runId, speakers, partyIds } = facts;
  // Only evaluations the current judge prompts may use: a superseded prompt version's are not measured.
  const stored = await evaluationsOfRun(db, runId);
  const usable = usableEvaluationIds(stored);
  const evaluations = stored
    .filter((e) => usable.has(e.id))
    .map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  return {
    runId,
    mediated: facts.mediated,
    topicIds: facts.topicIds,
    partyIds,
    speakers,
    partyTurns: speakers.filter((s) => s !== MEDIATOR_ID).length,
    mediatorTurns: speakers.flatMap((s, i) => (s === MEDIATOR_ID ? [i + 1] : [])),
    decisionSeconds: facts.decisionSeconds,
    evaluations,
    judgments: await judgmentsOfRun(db, runId),
    emotions: runEmotionTrajectories(facts.emotionTurns, evaluations, partyIds),
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
  /** Runs the caller holds in memory, by id: their facts are not read back (runFactsOf). */
  held?: ReadonlyMap<string, RunFacts>;
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
async function store(
  db: Db,
  rows: MetricRow[],
  unmediatedRuns: string[],
  params: MetricParams,
  computedAt: string,
): Promise<void> {
  await transact(db, async (db) => {
    for (const runId of unmediatedRuns) await deleteMetricValues(db, "run", runId, MEDIATOR_METRIC_IDS);
    for (const row of rows) await upsertMetricValue(db, { ...row, computedAt });
    await recordMetricParams(db, params);
  });
}

export async function computeMetrics(db: Db, request: MetricsRequest = {}): Promise<MetricsSummary> {
  const params = parseMetricParams(request.params ?? {});
  const computedAt = (request.now ?? new Date()).toISOString();
  const cache = new Map<string, RunData>();
  const dataOf = async (id: string) => {
    let data = cache.get(id);
    if (!data) cache.set(id, (data = await loadRunData(db, request.held?.get(id) ?? (await loadRunFacts(db, id)))));
    return data;
  };
  const runIds = request.runId !== undefined ? [(await dataOf(request.runId)).runId] : await allRunIds(db);
  const pairs = request.runId !== undefined ? await matchedPairsOfRun(db, request.runId) : await allMatchedPairs(db);

  const rows: MetricRow[] = [];
  for (const id of runIds) rows.push(...runMetricRows(await dataOf(id), params));
  for (const pair of pairs) {
    rows.push(
      ...pairMetricRows(
        { id: pair.id, mediated: await dataOf(pair.mediatedRunId), unmediated: await dataOf(pair.unmediatedRunId) },
        params,
      ),
    );
  }
  const unmediatedRuns: string[] = [];
  for (const id of runIds) if (!(await dataOf(id)).mediated) unmediatedRuns.push(id);
  await store(db, rows, unmediatedRuns, params, computedAt);
  const incomplete = rows.filter((r) => r.detail.incomplete === true).length;
  return { runs: runIds.length, pairs: pairs.length, rows, incomplete, params, computedAt };
}

/** The page-side reader, re-exported so CLI and tests find the writer and reader together. */
export { getRunMetrics } from "../catalog.server.ts";
