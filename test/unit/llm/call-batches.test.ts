/**
 * The llm_calls rows of one event-loop turn are written in one transaction: each row is committed
 * (visible to another connection on the file) by the time its `record` resolves, a later outcome
 * under the same key still replaces an earlier one, and when a batch's commit fails each row is
 * retried alone: only the row that cannot be written fails, the others of its turn are stored.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { callBatches } from "../../../app/server/llm/call-batches.server.ts";
import { findOkCall, type NewLlmCallRow } from "../../../app/server/models/llm-call.server.ts";
import { llmCallRow } from "../../helpers/llm-call-row.ts";
import { databasePerTest } from "../pipeline/test-db.ts";

const emptyDb = databasePerTest();

const call = (cacheKey: string, over: Partial<NewLlmCallRow> = {}): NewLlmCallRow =>
  llmCallRow({
    cacheKey,
    role: "party",
    request: { messages: [{ role: "user", content: cacheKey }] },
    response: '{"say":"hi"}',
    parsed: { say: "hi" },
    ...over,
  });

describe("callBatches", () => {
  it("commits each row before its record resolves, many rows of one turn together", async () => {
    const db = await emptyDb();
    const other = await openDatabase(db.$client.name);
    try {
      const store = callBatches(db);
      const keys = ["a", "b", "c"];
      const recorded = keys.map((k) => store.record(call(k)));
      // Nothing is written before the turn ends: the rows go in one transaction.
      expect(await findOkCall(other, "a")).toBeUndefined();
      await Promise.all(recorded);
      for (const k of keys) expect(await findOkCall(other, k)).toMatchObject({ cacheKey: k, parsed: { say: "hi" } });
      await store.record(call("d"));
      expect(await findOkCall(other, "d")).toMatchObject({ cacheKey: "d" });
    } finally {
      other.$client.close();
    }
  });

  it("keeps the order within a batch: a failed try then its success under one key adds up", async () => {
    const db = await emptyDb();
    const store = callBatches(db);
    await Promise.all([
      store.record(call("k", { status: "failed", response: null, parsed: null, error: "timeout", attempts: 2 })),
      store.record(call("k")),
    ]);
    expect(await findOkCall(db, "k")).toMatchObject({ status: "ok", error: null, attempts: 3, costUsd: 0.5 });
  });

  it("stores the good rows of a batch whose commit fails and rejects only the bad one", async () => {
    const db = await emptyDb();
    const store = callBatches(db);
    const good = store.record(call("good"));
    const bad = store.record(call("bad", { status: null as unknown as "ok" }));
    const after = store.record(call("after"));
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow(/NOT NULL/);
    await expect(after).resolves.toBeUndefined();
    expect(await findOkCall(db, "good")).toMatchObject({ cacheKey: "good" });
    expect(await findOkCall(db, "after")).toMatchObject({ cacheKey: "after" });
    expect(await findOkCall(db, "bad")).toBeUndefined();
  });
});
