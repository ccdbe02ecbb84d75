/**
 * `socrates evaluate` as a library: picks the runs, skips work already stored, runs one
 * evaluator per run (a few runs at a time), and stores each result as soon as it is done, so an
 * interrupted job keeps what it finished. Topic-localized, per-turn and emotion-judge evaluations
 * are stored as the records our judges made (own-records.server.ts: the same rows the importer
 * would write, without its checks for foreign input); MI judgments go to intervention_judgments.
 * The emotion judge skips runs whose parties reported their own emotion.
 */
import { MEDIATOR_ID, type Evaluation } from "../../domain/bundle.ts";
import type { Db } from "../db.server.ts";
import { evaluationBackbones } from "../models/evaluation.server.ts";
import { findRun, hasSelfReportedEmotion, runIds } from "../models/run.server.ts";
import { Semaphore } from "../../domain/llm/semaphore.ts";
import type { Llm, LlmRole } from "../../domain/llm/types.ts";
import {
  evaluateTopicLocalized,
  plannedTopicCalls,
  TOPIC_METHOD,
  type EvaluatorOptions,
} from "./evaluate-topic.server.ts";
import { evaluatePerTurn, PER_TURN_METHOD, plannedPerTurnCalls } from "./evaluate-per-turn.server.ts";
import { judgeInterventions, storeJudgments, unjudgedMediatorTurns } from "./evaluate-mi.server.ts";
import { newEvaluationId, resolveEvaluationId, type JudgedMethod } from "./evaluation-identity.server.ts";
import type { EvaluationContext } from "../../domain/prompts/transcript.ts";
import { evaluateEmotion, plannedEmotionCalls } from "./evaluate-emotion.server.ts";
import { EMOTION_METHOD } from "../../domain/emotion/trajectory.ts";
import {
  loadEvaluationContext,
  loadPartyThoughts,
  RunNotFoundError,
  type HeldRun,
} from "./evaluation-context.server.ts";
import { storeOwnEvaluation } from "./own-records.server.ts";

export const EVALUATE_METHODS = ["topic", "per-turn", "mi", "emotion"] as const;
export type EvaluateMethod = (typeof EVALUATE_METHODS)[number];

export interface RunSelection {
  runId?: string;
  all?: boolean;
}

/** The run ids a selection names, in id order; an unknown run id is an error. */
export async function selectRunIds(db: Db, selection: RunSelection): Promise<string[]> {
  if (selection.runId !== undefined) {
    const found = await findRun(db, selection.runId);
    if (!found) throw new RunNotFoundError(selection.runId);
    return [found.id];
  }
  if (!selection.all) throw new Error("name a run or ask for all runs");
  return await runIds(db);
}

export type RunStatus =
  | { runId: string; status: "stored"; evaluationId?: string; calls: number; errors: number }
  | { runId: string; status: "planned"; calls: number }
  | { runId: string; status: "skipped"; reason: string }
  | { runId: string; status: "failed"; message: string; calls: number }
  /** Stopped by the job's signal: never started, or dropped in flight (nothing stored; answered calls are cached). */
  | { runId: string; status: "interrupted"; inFlight: boolean };

export interface EvaluateJob {
  llm: Llm;
  method: EvaluateMethod;
  runIds: string[];
  /** Judge model override; defaults to the role's configured model. */
  backbone?: string;
  /** Runs evaluated at once (each run's own calls run in parallel, within the endpoint's limit). */
  concurrency?: number;
  /** Count the calls that would be made; call nothing and store nothing. */
  dryRun?: boolean;
  onRun?: (status: RunStatus) => void;
  /** Ctrl-C: no run starts after it, and a run in flight stores nothing. */
  signal?: AbortSignal;
  /** Runs the caller holds in memory (the benchmark runner's just-simulated runs), by id: not read back. */
  held?: ReadonlyMap<string, HeldRun>;
}

export interface EvaluateSummary {
  method: EvaluateMethod;
  backbone: string;
  dryRun: boolean;
  runs: RunStatus[];
  /** Calls planned (dry run) or made for the runs that were not skipped. */
  calls: number;
}

const ROLE_OF = {
  topic: "evaluator",
  "per-turn": "baseline-judge",
  mi: "mi-judge",
  emotion: "emotion-judge",
} as const satisfies Record<EvaluateMethod, LlmRole>;

/**
 * The methods stored as one evaluation record per run and backbone: what it is called, its planned calls, how it is
 * made.
 */
interface RecordEvaluator {
  method: JudgedMethod;
  planned(ctx: EvaluationContext): number;
  run(db: Db, ctx: EvaluationContext, options: EvaluatorOptions, held: HeldRun | undefined): Promise<Evaluation>;
}

const RECORD_EVALUATORS: Record<Exclude<EvaluateMethod, "mi">, RecordEvaluator> = {
  topic: {
    method: TOPIC_METHOD,
    planned: plannedTopicCalls,
    run: (_db, ctx, options) => evaluateTopicLocalized(ctx, options),
  },
  "per-turn": {
    method: PER_TURN_METHOD,
    planned: plannedPerTurnCalls,
    run: (_db, ctx, options) => evaluatePerTurn(ctx, options),
  },
  emotion: {
    method: EMOTION_METHOD,
    planned: plannedEmotionCalls,
    run: async (db, ctx, options, held) =>
      evaluateEmotion({ ...ctx, thoughts: held?.thoughts ?? (await loadPartyThoughts(db, ctx.runId)) }, options),
  },
};

/** Stores the evaluation with its scores, derived from what its run played and who spoke (the context has both). */
async function storeEvaluation(db: Db, evaluation: Evaluation, ctx: EvaluationContext): Promise<void> {
  const topicIds = ctx.topics.map((t) => t.id);
  const partyIds = ctx.parties.map((p) => p.id);
  const speakers = ctx.turns.map((t) => t.speaker);
  await storeOwnEvaluation(db, `<evaluate ${evaluation.id}>`, evaluation, { topicIds, partyIds, speakers });
}

async function storedBackbone(db: Db, id: string): Promise<string | undefined> {
  return (await evaluationBackbones(db, [id])).get(id);
}

async function evaluateOne(db: Db, job: EvaluateJob, backbone: string, runId: string): Promise<RunStatus> {
  const held = job.held?.get(runId);
  const ctx = held?.context ?? (await loadEvaluationContext(db, runId));
  if (job.method === "mi") {
    const pending = await unjudgedMediatorTurns(db, ctx, backbone);
    if (pending.length === 0) {
      const reason = ctx.turns.some((t) => t.speaker === MEDIATOR_ID)
        ? `every intervention already judged by ${backbone}`
        : "no mediator turns";
      return { runId, status: "skipped", reason };
    }
    if (job.dryRun) return { runId, status: "planned", calls: pending.length };
    const outcome = await judgeInterventions(ctx, pending, { llm: job.llm, backbone: job.backbone });
    if (job.signal?.aborted) return { runId, status: "interrupted", inFlight: true };
    await storeJudgments(db, runId, outcome);
    if (outcome.judgments.length === 0) {
      return {
        runId,
        status: "failed",
        calls: pending.length,
        message: outcome.failures.map((f) => `turn ${f.turnId}: ${f.message}`).join("; "),
      };
    }
    return { runId, status: "stored", calls: pending.length, errors: outcome.failures.length };
  }

  if (job.method === "emotion" && (await hasSelfReportedEmotion(db, runId)))
    return { runId, status: "skipped", reason: "has self-reported emotion" };
  const evaluator = RECORD_EVALUATORS[job.method];
  const found = await resolveEvaluationId(db, runId, evaluator.method, backbone);
  if (found !== undefined) return { runId, status: "skipped", reason: `evaluation ${found} already stored` };
  const id = newEvaluationId(runId, evaluator.method, backbone);
  const existing = await storedBackbone(db, id);
  // Two model names that differ only in characters an id cannot hold ("a/b", "a_b") share an id.
  if (existing !== undefined)
    return {
      runId,
      status: "failed",
      calls: 0,
      message: `evaluation ${id} is already stored for backbone "${existing}"`,
    };
  const calls = evaluator.planned(ctx);
  if (job.dryRun) return { runId, status: "planned", calls };
  try {
    const evaluation = await evaluator.run(db, ctx, { llm: job.llm, backbone: job.backbone }, held);
    // A stop mid-run may have left some of its calls unanswered: store nothing rather than a record with gaps.
    if (job.signal?.aborted) return { runId, status: "interrupted", inFlight: true };
    await storeEvaluation(db, evaluation, ctx);
    return { runId, status: "stored", evaluationId: id, calls, errors: evaluation.errors?.length ?? 0 };
  } catch (err) {
    if (job.signal?.aborted) return { runId, status: "interrupted", inFlight: true };
    return { runId, status: "failed", calls, message: (err as Error).message };
  }
}

export async function evaluateRuns(db: Db, job: EvaluateJob): Promise<EvaluateSummary> {
  const backbone = job.llm.modelFor(ROLE_OF[job.method], job.backbone);
  const limit = new Semaphore(job.concurrency ?? 4);
  const runs = await Promise.all(
    job.runIds.map((runId) =>
      limit.run(async () => {
        const status: RunStatus = job.signal?.aborted
          ? { runId, status: "interrupted", inFlight: false }
          : await evaluateOne(db, job, backbone, runId);
        job.onRun?.(status);
        return status;
      }),
    ),
  );
  const calls = runs.reduce((n, r) => n + (r.status === "skipped" || r.status === "interrupted" ? 0 : r.calls), 0);
  return { method: job.method, backbone, dryRun: Boolean(job.dryRun), runs, calls };
}
