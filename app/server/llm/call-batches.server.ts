/**
 * Writes llm_calls rows in batches: every row recorded during one turn of the event loop is
 * stored in a single IMMEDIATE transaction at the end of that turn (setImmediate), instead of one
 * commit per call. `record` resolves only once its row is committed, so a paid reply is still
 * stored before the caller can use it (docs/pipeline.md: nothing paid twice). When the batch's
 * commit fails, each row is retried in a transaction of its own, so one bad row or a passing lock
 * fails only the calls whose own write fails, exactly as the one-row write did.
 */
import type { Db } from "../db.server.ts";
import { transact } from "../db-transaction.server.ts";
import { recordCall, type NewLlmCallRow } from "../models/llm-call.server.ts";

export interface CallBatches {
  /** Stores the row with the others of this turn; resolves once it is committed. */
  record(row: NewLlmCallRow): Promise<void>;
}

interface Pending {
  row: NewLlmCallRow;
  stored: () => void;
  failed: (error: unknown) => void;
}

export function callBatches(db: Db): CallBatches {
  let batch: Pending[] = [];
  // One batch at a time, in the order they were filled: a later outcome under a key must land last.
  let tail = Promise.resolve();
  const flush = async () => {
    const rows = batch;
    batch = [];
    try {
      // In the order recorded: a later outcome under the same key replaces an earlier one.
      await transact(db, async (db) => {
        for (const p of rows) await recordCall(db, p.row);
      });
    } catch {
      for (const p of rows) await storeAlone(db, p);
      return;
    }
    for (const p of rows) p.stored();
  };
  return {
    record: (row) =>
      new Promise<void>((stored, failed) => {
        if (batch.length === 0) {
          setImmediate(() => {
            tail = tail.then(flush);
          });
        }
        batch.push({ row, stored, failed });
      }),
  };
}

async function storeAlone(db: Db, p: Pending): Promise<void> {
  try {
    await transact(db, (db) => recordCall(db, p.row));
  } catch (error) {
    p.failed(error);
    return;
  }
  p.stored();
}
