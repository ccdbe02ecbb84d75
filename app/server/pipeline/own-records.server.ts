/**
 * Storing the records this process made: a run it simulated, the matched pairs of its runs, an
 * evaluation its judges returned. They go straight into their tables through the repositories,
 * each in one transaction (a run with its turns and snippets, an evaluation with its scores), so
 * an interrupted command leaves none half stored. The importer's checks are for foreign input:
 * these records were built by our own code from replies the LLM layer already checked (a test
 * keeps them in the exact form the importer would store, test/unit/benchmark/own-records.test.ts),
 * and the importer would only parse them again and read their run back.
 * An id that is already stored goes through the importer after all (as a bundle named `label`),
 * inside the same transaction: it keeps an equal record and refuses a different one, as before.
 * A process stores them one at a time: on PostgreSQL every run and evaluation row bumps one
 * data_versions row, so two stores at once wait for each other and the second then fails with a
 * serialization error and is run again whole.
 */
import type { RunShape } from "../../domain/baseline.ts";
import type { Evaluation, MatchedPair, Run } from "../../domain/bundle.ts";
import { importBundleRecords } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { transact } from "../db-transaction.server.ts";
import { findEvaluation, insertEvaluationRecord } from "../models/evaluation.server.ts";
import { insertMatchedPair, storedMatchedPairIds } from "../models/matched-pair.server.ts";
import { findRun, insertRunRecord } from "../models/run.server.ts";

const queues = new WeakMap<Db, Promise<unknown>>();

/** Runs the write transaction after the process's earlier own-record stores on the database. */
function ownWrite(db: Db, work: (tx: Db) => Promise<void>): Promise<void> {
  const run = (queues.get(db) ?? Promise.resolve()).then(() => transact(db, work));
  queues.set(
    db,
    run.catch(() => {}),
  );
  return run;
}

/** Stores a run this process simulated, whole: its row, turns and snippets. */
export async function storeOwnRun(db: Db, label: string, run: Run, scenarioId: string): Promise<void> {
  await ownWrite(db, async (db) => {
    if (await findRun(db, run.id)) await importBundleRecords(db, label, { runs: [run] });
    else await insertRunRecord(db, run, scenarioId);
  });
}

/** Stores matched pairs of runs this process holds stored, all or none. */
export async function storeOwnPairs(db: Db, label: string, pairs: MatchedPair[]): Promise<void> {
  await ownWrite(db, async (db) => {
    const stored = await storedMatchedPairIds(
      db,
      pairs.map((p) => p.id),
    );
    if (stored.size > 0) await importBundleRecords(db, label, { matched_pairs: pairs });
    else for (const pair of pairs) await insertMatchedPair(db, pair);
  });
}

/** Stores an evaluation its judges returned, with its scores; `run` is what its run played and who spoke. */
export async function storeOwnEvaluation(db: Db, label: string, evaluation: Evaluation, run: RunShape): Promise<void> {
  await ownWrite(db, async (db) => {
    if (await findEvaluation(db, evaluation.id)) await importBundleRecords(db, label, { evaluations: [evaluation] });
    else await insertEvaluationRecord(db, evaluation, run);
  });
}
