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
export async function uniqueKeyProblems(
  db: Db,
  files: { file: string; bundle: Bundle }[],
): Promise<ConstraintProblem[]> {
  // The stored holders of the files' keys, loaded first: the check itself is synchronous (app/domain).
  const conditions = new Map<string, string | undefined>();
  const pairs = new Map<string, string | undefined>();
  const conditionKey = (scenarioId: string, axis: string, variant: string) =>
    JSON.stringify([scenarioId, axis, variant]);
  for (const { bundle } of files) {
    for (const c of bundle.conditions) {
      const key = conditionKey(c.scenario_id, c.axis, c.variant);
      if (!conditions.has(key)) conditions.set(key, await conditionIdWithKey(db, c.scenario_id, c.axis, c.variant));
    }
    for (const p of bundle.matched_pairs) {
      if (!pairs.has(p.mediated_run_id))
        pairs.set(p.mediated_run_id, await matchedPairIdOfMediatedRun(db, p.mediated_run_id));
    }
  }
  return checkUniqueKeys(files, {
    conditionWithKey: (scenarioId, axis, variant) => conditions.get(conditionKey(scenarioId, axis, variant)),
    matchedPairOfMediatedRun: (runId) => pairs.get(runId),
  });
}
