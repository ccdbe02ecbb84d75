/** Data access for evaluations and their derived per-topic, per-turn scores. */
import { and, asc, eq, inArray } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { evaluations, evaluationScores } = schema;

/** Score rows of every evaluation of `method` on the given runs, by evaluation, topic and turn. */
export function scoreRows(db: Db, runIds: readonly string[], method: string) {
  if (runIds.length === 0) return [];
  return db
    .select({
      evaluationId: evaluations.id,
      backbone: evaluations.backbone,
      runId: evaluations.runId,
      topicId: evaluationScores.topicId,
      turnId: evaluationScores.turnId,
      score: evaluationScores.score,
    })
    .from(evaluations)
    .innerJoin(evaluationScores, eq(evaluationScores.evaluationId, evaluations.id))
    .where(and(eq(evaluations.method, method), inArray(evaluations.runId, [...runIds])))
    .orderBy(asc(evaluations.id), asc(evaluationScores.topicId), asc(evaluationScores.turnId))
    .all();
}
