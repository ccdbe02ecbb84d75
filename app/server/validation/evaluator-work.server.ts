/**
 * What `validate-evaluator` must judge before it can report: the trajectories of the expert
 * study (and, with a benchmark plan, the stored runs of the plan's main grid), which of them a
 * backbone has not judged yet, and what judging them is expected to cost. Reads only.
 */
import type { BenchmarkPlan } from "../../domain/benchmark/plan.ts";
import { expectedCallUsd } from "../../domain/benchmark/cost.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { Db } from "../db.server.ts";
import type { LlmConfig } from "../llm/config.server.ts";
import { findStudy, itemsOfStudy, type StudyRow } from "../models/study.server.ts";
import { storedRunIds } from "../models/run.server.ts";
import { loadEvaluationContext } from "../pipeline/evaluation-context.server.ts";
import { TOPIC_METHOD, topicJudgeMessages } from "../pipeline/evaluate-topic.server.ts";
import { resolveEvaluationIds } from "../pipeline/evaluation-identity.server.ts";
import { planGrid } from "../benchmark/plan-file.server.ts";

/** A study or plan that cannot be validated against, with the reason in words. */
export class ValidationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ValidationInputError";
  }
}

/** The expert consensus study a backbone is validated on. */
export async function expertStudy(db: Db, studyId: number): Promise<StudyRow> {
  const study = await findStudy(db, studyId);
  if (!study)
    throw new ValidationInputError(`study ${studyId} does not exist (see the Studies page or \`socrates data\`)`);
  if (study.type !== CONSENSUS_SNIPPET || study.pool !== "expert") {
    throw new ValidationInputError(
      `study ${studyId} ("${study.name}") is a ${study.pool} ${study.type} study; validation needs an expert snippet-consensus study`,
    );
  }
  return study;
}

/** The study's trajectories (runs of its snippets), in id order. */
export async function studyRunIds(db: Db, studyId: number): Promise<string[]> {
  return [...new Set((await itemsOfStudy(db, studyId)).flatMap((i) => (i.runId ? [i.runId] : [])))].sort();
}

/**
 * Stored runs of the plan's main grid under its main simulator: each mediated run and the unmediated run it is paired
 * with.
 */
export async function benchmarkRunIds(
  db: Db,
  plan: BenchmarkPlan,
): Promise<{ runIds: string[]; mediatedRunIds: string[] }> {
  const units = (await planGrid(db, plan)).units.filter((u) => u.part === "main");
  const all = units.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)]);
  const stored = await storedRunIds(db, all);
  const mediated = units.flatMap((u) => u.mediated.map((m) => m.runId)).filter((id) => stored.has(id));
  return { runIds: all.filter((id) => stored.has(id)), mediatedRunIds: mediated };
}

export interface PendingJudging {
  backbone: string;
  runIds: string[];
  /** Runs the backbone has not judged yet. */
  pending: string[];
  /** One judge call per topic of each pending run, before repair retries. */
  calls: number;
  /** Dollars at the configured price (cached calls cost nothing); 0 without a price. */
  usd: number;
  priced: boolean;
}

/** Which of `runIds` the backbone has not judged (topic-localized), and the calls and dollars judging them takes. */
export async function pendingJudging(
  db: Db,
  config: LlmConfig,
  backbone: string,
  runIds: readonly string[],
): Promise<PendingJudging> {
  const judged = await resolveEvaluationIds(db, runIds, TOPIC_METHOD, backbone);
  const pending = runIds.filter((r) => !judged.has(r));
  const price = config.prices[backbone];
  let calls = 0;
  let usd = 0;
  for (const runId of pending) {
    const ctx = await loadEvaluationContext(db, runId);
    calls += ctx.topics.length;
    // Rendering every prompt is only worth it when there is a price to apply to its length.
    if (price === undefined) continue;
    for (const topic of ctx.topics) {
      const chars = topicJudgeMessages(ctx, topic).reduce((n, m) => n + m.content.length, 0);
      usd += expectedCallUsd(price, chars, "judge");
    }
  }
  return { backbone, runIds: [...runIds], pending, calls, usd, priced: price !== undefined };
}
