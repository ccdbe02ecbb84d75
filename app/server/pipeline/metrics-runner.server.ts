/**
 * Computes every benchmark metric the stored data supports and upserts it into metric_values
 * (spec: "SoCRATES metrics", "ProMediate per-turn baseline"). The arithmetic lives in
 * app/domain/metrics; this module rebuilds the series from stored evaluations, calls those
 * functions, and records each value with the parameters it used and the counts behind it.
 *
 * Rows written (subject run unless noted):
 * - evaluation_id "": IF, FI (properties of the run itself);
 * - each topic-localized evaluation: IT, IE (per-intervention lifts with progress p = m/T, the
 *   timing-profile input, in its detail);
 * - each per-turn evaluation: CC, TLE, RL (with the mediator's mean decision seconds), ME;
 * - each MI judge backbone: MI, under evaluation_id `${runId}:mi:${backbone}`;
 * - subject pair: CG per evaluator backbone that scored both runs of a matched pair, under the
 *   mediated run's evaluation id.
 * A metric that is undefined for its subject is stored with value null and a reason in detail.
 */
import { asc, eq, or } from "drizzle-orm";
import { z } from "zod";
import * as schema from "../../../db/schema.ts";
import { MEDIATOR_ID, type PerTurnOutput, type TopicJudgeOutput } from "../../domain/bundle.ts";
import { perTurnTrajectory } from "../../domain/baseline.ts";
import { DEFAULT_S0, topicLocalizedTrajectory } from "../../domain/consensus.ts";
import {
  consensusChange,
  consensusGain,
  firstIntervention,
  interventionEffectiveness,
  interventionFrequency,
  interventionTimeliness,
  mediatorEffectiveness,
  mediatorIntelligence,
  responseLatency,
  topicLevelEfficiency,
} from "../../domain/metrics/index.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import type { Db } from "../db.server.ts";
import { backboneSlug } from "./evaluation-context.server.ts";

// ---------- parameters ----------

export const metricParamsSchema = z
  .object({
    /** Starting 1–5 score of every topic before its first located turn. */
    s0: z.number().min(1).max(5).default(DEFAULT_S0),
    /** IT: minimum fall of C that makes a drop event. */
    delta: z.number().min(0).max(1).default(0.05),
    /** IT: response window W in turns. */
    W: z.number().int().min(1).default(10),
    /** IE: horizon h in turns. */
    h: z.number().int().min(1).default(5),
    /** CC: upper bound on the window, w = min(wMax, ⌊T/2⌋). */
    wMax: z.number().int().min(1).default(10),
    /** RL: G must fall by more than τ … */
    tau: z.number().min(0).max(1).default(0.1),
    /** … within this many turns. */
    rlWindow: z.number().int().min(1).default(10),
    /** ME: turns on each side of an intervention for the slopes. */
    meSpan: z.number().int().min(1).default(5),
  })
  .strict();
export type MetricParams = z.infer<typeof metricParamsSchema>;
export const DEFAULT_METRIC_PARAMS: MetricParams = metricParamsSchema.parse({});

export class MetricParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MetricParamsError";
  }
}

/** Parses user-supplied overrides; unknown keys and bad values are errors naming the key. */
export function parseMetricParams(value: unknown, source = "params"): MetricParams {
  const result = metricParamsSchema.safeParse(value ?? {});
  if (!result.success) {
    throw new MetricParamsError(result.error.issues.map((i) => `${source}: ${formatJsonPath(i.path)}: ${i.message}`).join("\n"));
  }
  return result.data;
}

// ---------- rows ----------

export const METRIC_NAMES = ["IT", "IE", "IF", "FI", "CC", "TLE", "RL", "ME", "MI", "CG"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export interface MetricRow {
  subjectKind: "run" | "pair";
  subjectId: string;
  evaluationId: string;
  metric: MetricName;
  value: number | null;
  detail: Record<string, unknown>;
  params: Record<string, unknown>;
}

export function miEvaluationId(runId: string, backbone: string): string {
  return `${runId}:mi:${backboneSlug(backbone)}`;
}

/** Keeps a reason only when the value is undefined, so detail stays compact. */
function reasonOf(value: number | null, reason: string | undefined): { reason?: string } {
  return value === null && reason ? { reason } : {};
}

// ---------- what one run needs ----------

interface StoredEvaluation {
  id: string;
  method: string;
  backbone: string;
  output: unknown;
  errors: { topic_id?: string; message: string }[];
}

export interface RunData {
  runId: string;
  mediated: boolean;
  topicIds: string[];
  partyIds: string[];
  speakers: string[];
  partyTurns: number;
  mediatorTurns: number[];
  decisionSeconds: number[];
  evaluations: StoredEvaluation[];
  judgments: (typeof schema.interventionJudgments.$inferSelect)[];
}

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

// ---------- pure computations ----------

/** C[t] of a topic-localized evaluation, with the topics whose judge pass failed. */
export function topicConsensus(data: Pick<RunData, "topicIds" | "speakers">, evaluation: StoredEvaluation, s0: number) {
  const trajectory = topicLocalizedTrajectory(evaluation.output as Record<string, TopicJudgeOutput>, data.topicIds, data.speakers.length, s0);
  const failedTopics = data.topicIds.filter((id) => !(id in (evaluation.output as Record<string, unknown>)));
  return { consensus: trajectory.consensus, failedTopics };
}

export function runOnlyRows(data: RunData): MetricRow[] {
  const base = { subjectKind: "run" as const, subjectId: data.runId, evaluationId: "", params: {} };
  const frequency = interventionFrequency(data.mediatorTurns.length, data.partyTurns);
  const rows: MetricRow[] = [
    {
      ...base,
      metric: "IF",
      value: frequency.frequency,
      detail: { mediatorTurns: frequency.mediatorTurns, partyTurns: frequency.partyTurns, ...reasonOf(frequency.frequency, frequency.reason) },
    },
  ];
  if (data.speakers.length > 0) {
    const first = firstIntervention(data.mediatorTurns, data.speakers.length);
    rows.push({ ...base, metric: "FI", value: first.fi, detail: { firstTurn: first.firstTurn, totalTurns: first.lastTurn, interventions: first.interventions, ...reasonOf(first.fi, first.reason) } });
  }
  return rows;
}

export function topicLocalizedRows(data: RunData, evaluation: StoredEvaluation, params: MetricParams): MetricRow[] {
  const { consensus, failedTopics } = topicConsensus(data, evaluation, params.s0);
  const T = data.speakers.length;
  const base = { subjectKind: "run" as const, subjectId: data.runId, evaluationId: evaluation.id };
  const quality = { evaluationErrors: evaluation.errors.length, ...(failedTopics.length > 0 ? { failedTopics } : {}) };

  const it = interventionTimeliness(consensus, data.mediatorTurns, { delta: params.delta, window: params.W });
  const ie = interventionEffectiveness(consensus, data.mediatorTurns, { horizon: params.h });
  return [
    {
      ...base,
      metric: "IT",
      value: it.it,
      params: { s0: params.s0, delta: params.delta, W: params.W },
      detail: {
        events: it.events.length,
        counted: it.counted,
        censored: it.censored,
        interventions: it.interventions,
        perEvent: it.events.map((e) => ({ t: e.t, responseTurn: e.responseTurn, d: e.d, score: e.score, censored: e.censored })),
        ...quality,
        ...reasonOf(it.it, it.reason),
      },
    },
    {
      ...base,
      metric: "IE",
      value: ie.ie,
      params: { s0: params.s0, h: params.h },
      detail: {
        interventions: ie.interventions,
        truncatedHorizon: ie.truncatedHorizon,
        // p = m / T per intervention: the input of the timing profile.
        perIntervention: ie.perIntervention.map((p) => ({ m: p.m, progress: p.m / T, before: p.before, afterTurn: p.afterTurn, after: p.after, ie: p.ie })),
        ...quality,
        ...reasonOf(ie.ie, ie.reason),
      },
    },
  ];
}

export function perTurnRows(data: RunData, evaluation: StoredEvaluation, params: MetricParams): MetricRow[] {
  const trajectory = perTurnTrajectory(evaluation.output as PerTurnOutput, { topicIds: data.topicIds, partyIds: data.partyIds, speakers: data.speakers });
  const T = data.speakers.length;
  const base = { subjectKind: "run" as const, subjectId: data.runId, evaluationId: evaluation.id };
  const quality = { evaluationErrors: evaluation.errors.length };

  const cc = consensusChange(trajectory.consensus, { maxWindow: params.wMax });
  const tle = topicLevelEfficiency(trajectory.topicConsensus, trajectory.mentions);
  const rl = responseLatency(trajectory.consensus, data.mediatorTurns, { tau: params.tau, window: params.rlWindow }, data.decisionSeconds);
  const rows: MetricRow[] = [
    {
      ...base,
      metric: "CC",
      value: cc.cc,
      params: { wMax: params.wMax },
      detail: { w: cc.w, firstMean: cc.firstMean, lastMean: cc.lastMean, totalTurns: cc.lastTurn, ...quality, ...reasonOf(cc.cc, cc.reason) },
    },
    {
      ...base,
      metric: "TLE",
      value: tle.tle,
      params: {},
      detail: { topicsUsed: tle.topicsUsed, topicsUnmentioned: tle.topicsUnmentioned, perTopic: tle.perTopic, ...quality, ...reasonOf(tle.tle, tle.reason) },
    },
    {
      ...base,
      metric: "RL",
      value: rl.meanLatency,
      params: { tau: params.tau, rlWindow: params.rlWindow },
      detail: {
        events: rl.eventCount,
        responded: rl.responded,
        unresponded: rl.unresponded,
        unrespondedShare: rl.unrespondedShare,
        meanDecisionSeconds: rl.meanDecisionSeconds,
        decisionSamples: rl.decisionSamples,
        // JSON has no Infinity: an event the mediator never answered has latency null.
        perEvent: rl.events.map((e) => ({ t: e.t, latency: Number.isFinite(e.latency) ? e.latency : null })),
        ...quality,
        ...reasonOf(rl.meanLatency, rl.reason),
      },
    },
  ];
  if (T > 0) {
    const me = mediatorEffectiveness(
      trajectory.topicConsensus,
      trajectory.mediatorTargets.map((m) => ({ turn: m.turn, targetTopics: m.topics })),
      T,
      { span: params.meSpan },
    );
    rows.push({
      ...base,
      metric: "ME",
      value: me.me,
      params: { meSpan: params.meSpan },
      detail: {
        interventions: me.interventions,
        interventionsUsed: me.interventionsUsed,
        interventionsSkipped: me.interventionsSkipped,
        topicPairs: me.topicPairs,
        topicPairsSkipped: me.topicPairsSkipped,
        perIntervention: me.perIntervention.map((p) => ({ turn: p.turn, me: p.me, topics: p.topics })),
        ...quality,
        ...reasonOf(me.me, me.reason),
      },
    });
  }
  return rows;
}

export function miRows(data: RunData): MetricRow[] {
  const byBackbone = new Map<string, RunData["judgments"]>();
  for (const j of data.judgments) byBackbone.set(j.backbone, [...(byBackbone.get(j.backbone) ?? []), j]);
  return [...byBackbone].map(([backbone, judgments]): MetricRow => {
    const mi = mediatorIntelligence(judgments.map((j) => [j.perceptionAlignment, j.emotionalDynamics, j.cognitiveChallenges, j.communicationBreakdowns]));
    return {
      subjectKind: "run",
      subjectId: data.runId,
      evaluationId: miEvaluationId(data.runId, backbone),
      metric: "MI",
      value: mi.mi,
      params: {},
      detail: {
        backbone,
        interventions: mi.interventions,
        mediatorTurns: data.mediatorTurns.length,
        unjudged: data.mediatorTurns.filter((m) => !judgments.some((j) => j.turnId === m)).length,
        applicableScores: mi.applicableScores,
        notApplicableScores: mi.notApplicableScores,
        interventionsWithoutScores: mi.interventionsWithoutScores,
        perDimension: mi.perDimension,
        ...reasonOf(mi.mi, mi.reason),
      },
    };
  });
}

export interface PairData {
  id: string;
  mediated: RunData;
  unmediated: RunData;
}

export function consensusGainRows(pair: PairData, params: MetricParams): MetricRow[] {
  const rows: MetricRow[] = [];
  const topicOnly = (data: RunData) => data.evaluations.filter((e) => e.method === "topic-localized");
  for (const mediatedEval of topicOnly(pair.mediated)) {
    const unmediatedEval = topicOnly(pair.unmediated).find((e) => e.backbone === mediatedEval.backbone);
    if (!unmediatedEval) continue;
    const m = topicConsensus(pair.mediated, mediatedEval, params.s0);
    const u = topicConsensus(pair.unmediated, unmediatedEval, params.s0);
    const cg = consensusGain(u.consensus[u.consensus.length - 1], m.consensus[m.consensus.length - 1]);
    rows.push({
      subjectKind: "pair",
      subjectId: pair.id,
      evaluationId: mediatedEval.id,
      metric: "CG",
      value: cg.cg,
      params: { s0: params.s0 },
      detail: {
        backbone: mediatedEval.backbone,
        mediated: cg.mediated,
        unmediated: cg.unmediated,
        normalized: cg.normalized,
        mediatedRunId: pair.mediated.runId,
        unmediatedRunId: pair.unmediated.runId,
        mediatedEvaluationId: mediatedEval.id,
        unmediatedEvaluationId: unmediatedEval.id,
        evaluationErrors: mediatedEval.errors.length + unmediatedEval.errors.length,
      },
    });
  }
  return rows;
}

/** Every row for one run (not its pair). */
export function runMetricRows(data: RunData, params: MetricParams): MetricRow[] {
  const rows = runOnlyRows(data);
  for (const evaluation of data.evaluations) {
    if (evaluation.method === "topic-localized") rows.push(...topicLocalizedRows(data, evaluation, params));
    else if (evaluation.method === "per-turn") rows.push(...perTurnRows(data, evaluation, params));
  }
  rows.push(...miRows(data));
  return rows;
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
    rows.push(...consensusGainRows({ id: pair.id, mediated: dataOf(pair.mediatedRunId), unmediated: dataOf(pair.unmediatedRunId) }, params));
  }
  upsert(db, rows, computedAt);
  return { runs: runIds.length, pairs: pairs.length, rows, params, computedAt };
}

/** The page-side reader, re-exported so CLI and tests find the writer and reader together. */
export { getRunMetrics } from "../catalog.server.ts";
