/**
 * Data access for evaluations, their derived per-topic, per-turn scores, and the MI judge's
 * intervention judgments.
 */
import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { RunShape } from "../../domain/baseline.ts";
import type { Evaluation } from "../../domain/bundle.ts";
import { deriveEvaluationScores } from "../../domain/evaluation-scores.ts";
import type { Db } from "../db.server.ts";
import { insertRows, jsonOrNull, preparedOnce, rawPlaceholder } from "./prepared.server.ts";
import { changedRows } from "../db.server.ts";

const { evaluations, evaluationScores, interventionJudgments } = schema;

export type EvaluationRow = typeof evaluations.$inferSelect;
export type JudgmentRow = typeof interventionJudgments.$inferSelect;
export type NewJudgment = Omit<typeof interventionJudgments.$inferInsert, "createdAt">;

// Read once per run by the metrics runner: prepared once per connection.
const p = sql.placeholder;
const byId = preparedOnce((db) =>
  db
    .select()
    .from(evaluations)
    .where(eq(evaluations.id, p("id")))
    .prepare(),
);
const ofRun = preparedOnce((db) =>
  db
    .select()
    .from(evaluations)
    .where(eq(evaluations.runId, p("runId")))
    .orderBy(asc(evaluations.id))
    .prepare(),
);
const ofRunByMethod = preparedOnce((db) =>
  db
    .select()
    .from(evaluations)
    .where(and(eq(evaluations.runId, p("runId")), eq(evaluations.method, p("method"))))
    .orderBy(asc(evaluations.id))
    .prepare(),
);
const judgmentsOf = preparedOnce((db) =>
  db
    .select()
    .from(interventionJudgments)
    .where(eq(interventionJudgments.runId, p("runId")))
    .orderBy(asc(interventionJudgments.backbone), asc(interventionJudgments.turnId))
    .prepare(),
);

export async function findEvaluation(db: Db, id: string): Promise<EvaluationRow | undefined> {
  return (await byId(db).execute({ id }))[0];
}

/** The backbone of each stored evaluation among `ids` (id → backbone), without reading their outputs. */
export async function evaluationBackbones(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: evaluations.id, backbone: evaluations.backbone })
    .from(evaluations)
    .where(inArray(evaluations.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.backbone]));
}

/** One stored evaluation's identity: which run, judge and prompt version it belongs to. */
export interface EvaluationIdentityRow {
  id: string;
  runId: string;
  backbone: string;
  promptVersion: string | null;
}

/** The columns of an evaluation's identity. */
const identityColumns = {
  id: evaluations.id,
  runId: evaluations.runId,
  backbone: evaluations.backbone,
  promptVersion: evaluations.promptVersion,
};

const identitiesOfRun = preparedOnce((db) =>
  db
    .select(identityColumns)
    .from(evaluations)
    .where(
      and(
        eq(evaluations.runId, p("runId")),
        eq(evaluations.method, p("method")),
        eq(evaluations.backbone, p("backbone")),
      ),
    )
    .orderBy(asc(evaluations.id))
    .prepare(),
);

/** The identities of every evaluation of `method` by `backbone` on the given runs (outputs not read). */
export async function evaluationIdentities(
  db: Db,
  runIds: readonly string[],
  method: string,
  backbone: string,
): Promise<EvaluationIdentityRow[]> {
  // One run (the benchmark runner asks per run): a statement prepared once.
  if (runIds.length === 1) return await identitiesOfRun(db).execute({ runId: runIds[0], method, backbone });
  const out: EvaluationIdentityRow[] = [];
  // In chunks: a report's grid can name more runs than one statement may bind.
  for (let i = 0; i < runIds.length; i += 500) {
    const chunk = runIds.slice(i, i + 500);
    out.push(
      ...(await db
        .select(identityColumns)
        .from(evaluations)
        .where(
          and(inArray(evaluations.runId, chunk), eq(evaluations.method, method), eq(evaluations.backbone, backbone)),
        )
        .orderBy(asc(evaluations.id))),
    );
  }
  return out;
}

/** A run's evaluations, in id order. */
export async function evaluationsOfRun(db: Db, runId: string): Promise<EvaluationRow[]> {
  return await ofRun(db).execute({ runId });
}

/** A run's evaluations of one method (e.g. its emotion judges), without reading the others' output. */
export async function evaluationsOfRunByMethod(db: Db, runId: string, method: string): Promise<EvaluationRow[]> {
  return await ofRunByMethod(db).execute({ runId, method });
}

/** A run's intervention judgments, by backbone and turn. */
export async function judgmentsOfRun(db: Db, runId: string): Promise<JudgmentRow[]> {
  return await judgmentsOf(db).execute({ runId });
}

/** The turns of a run this backbone has judged. */
export async function judgedTurnIds(db: Db, runId: string, backbone: string): Promise<Set<number>> {
  const rows = await db
    .select({ turnId: interventionJudgments.turnId })
    .from(interventionJudgments)
    .where(and(eq(interventionJudgments.runId, runId), eq(interventionJudgments.backbone, backbone)));
  return new Set(rows.map((r) => r.turnId));
}

/** Stores a judgment unless one is stored for its (run, turn, backbone); true when it was stored. */
export async function insertJudgment(db: Db, judgment: NewJudgment): Promise<boolean> {
  return changedRows(await db.insert(interventionJudgments).values(judgment).onConflictDoNothing()) > 0;
}

/** Score rows of every evaluation of `method` on the given runs, by evaluation, topic and turn. */
export async function scoreRows(db: Db, runIds: readonly string[], method: string) {
  if (runIds.length === 0) return [];
  return await db
    .select({
      evaluationId: evaluations.id,
      backbone: evaluations.backbone,
      runId: evaluations.runId,
      method: evaluations.method,
      promptVersion: evaluations.promptVersion,
      topicId: evaluationScores.topicId,
      turnId: evaluationScores.turnId,
      score: evaluationScores.score,
      located: evaluationScores.located,
    })
    .from(evaluations)
    .innerJoin(evaluationScores, eq(evaluationScores.evaluationId, evaluations.id))
    .where(and(eq(evaluations.method, method), inArray(evaluations.runId, [...runIds])))
    .orderBy(asc(evaluations.id), asc(evaluationScores.topicId), asc(evaluationScores.turnId));
}

/** One topic's stored score rows of an evaluation up to turn `tEnd`, in turn order. */
export async function topicScoresUpTo(db: Db, evaluationId: string, topicId: string, tEnd: number) {
  return await db
    .select()
    .from(evaluationScores)
    .where(
      and(
        eq(evaluationScores.evaluationId, evaluationId),
        eq(evaluationScores.topicId, topicId),
        lte(evaluationScores.turnId, tEnd),
      ),
    )
    .orderBy(asc(evaluationScores.turnId));
}

// ---------- writing: the bundle import's evaluations and the ones the pipeline's judges make ----------

const raw = rawPlaceholder;
const insertEvaluationRow = preparedOnce((db) =>
  db
    .insert(evaluations)
    .values({
      id: raw("id"),
      runId: raw("runId"),
      method: raw("method"),
      backbone: raw("backbone"),
      output: raw("output"),
      errors: raw("errors"),
      promptVersion: raw("promptVersion"),
      recordedAt: raw("recordedAt"),
    })
    .prepare(),
);
const insertScore = preparedOnce((db) =>
  db
    .insert(evaluationScores)
    .values({
      evaluationId: raw("evaluationId"),
      topicId: raw("topicId"),
      turnId: raw("turnId"),
      score: raw("score"),
      located: raw("located"),
      stances: raw("stances"),
    })
    .prepare(),
);

/**
 * Inserts an evaluation with the per-topic, per-turn score rows derived from it (`run`: the
 * scenario its run played and who spoke each turn); call inside the caller's transaction. The
 * scores are only inserted here: the evaluation row's trigger moves the dashboard's data mark.
 */
export async function insertEvaluationRecord(db: Db, evaluation: Evaluation, run: RunShape): Promise<void> {
  await insertEvaluationRow(db).execute({
    id: evaluation.id,
    runId: evaluation.run_id,
    method: evaluation.method,
    backbone: evaluation.backbone,
    output: JSON.stringify(evaluation.output),
    errors: jsonOrNull(evaluation.errors),
    promptVersion: evaluation.prompt_version ?? null,
    recordedAt: evaluation.created_at ?? null,
  });
  await insertRows(
    db,
    evaluationScores,
    insertScore,
    deriveEvaluationScores(evaluation, run).map((r) => ({
      evaluationId: evaluation.id,
      topicId: r.topicId,
      turnId: r.turnId,
      score: r.score,
      located: r.located ? 1 : 0,
      stances: r.stances ? JSON.stringify(r.stances) : null,
    })),
  );
}
