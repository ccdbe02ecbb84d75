/**
 * The stored side of the import's unique-key checks (app/domain/bundle-constraints.ts): which
 * stored record, if any, already holds a key a bundle record brings.
 */
import { checkUniqueKeys, type ConstraintProblem } from "../domain/bundle-constraints.ts";
import type { Bundle } from "../domain/bundle.ts";
import type { Db } from "./db.server.ts";
import { conditionIdWithKey } from "./models/condition.server.ts";
import { matchedPairIdOfMediatedRun } from "./models/matched-pair.server.ts";

/**
 * Unique keys the files would break, among themselves or against the database (call inside the import's transaction).
 */
export function uniqueKeyProblems(db: Db, files: { file: string; bundle: Bundle }[]): ConstraintProblem[] {
  return checkUniqueKeys(files, {
    conditionWithKey: async (scenarioId, axis, variant) => await conditionIdWithKey(db, scenarioId, axis, variant),
    matchedPairOfMediatedRun: async (runId) => await matchedPairIdOfMediatedRun(db, runId),
  });
}
