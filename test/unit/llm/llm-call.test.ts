/** The llm_calls repository: a failed row is no cache hit, and spend adds up over tries of one request. */
import { describe, expect, it } from "vitest";
import { findOkCall, recordCall, usageByRole } from "../../../app/server/models/llm-call.server.ts";
import { llmCallRow } from "../../helpers/llm-call-row.ts";
import { databasePerTest } from "../pipeline/test-db.ts";

const emptyDb = databasePerTest();

const call = llmCallRow;

describe("llm calls", () => {
  it("finds a stored ok call by key, never a failed one", async () => {
    const db = await emptyDb();
    await recordCall(db, call({ status: "failed", response: null, parsed: null, error: "timeout" }));
    expect(await findOkCall(db, "k1")).toBeUndefined();
    expect(await findOkCall(db, "other")).toBeUndefined();
  });

  it("a later outcome replaces the earlier one, adding up tokens, cost and attempts", async () => {
    const db = await emptyDb();
    await recordCall(
      db,
      call({
        status: "failed",
        response: null,
        parsed: null,
        error: "timeout",
        attempts: 3,
        promptTokens: 7,
        completionTokens: 0,
        costUsd: 0.5,
      }),
    );
    await recordCall(db, call());
    expect(await findOkCall(db, "k1")).toMatchObject({
      status: "ok",
      error: null,
      parsed: { echo: "hi" },
      attempts: 4,
      promptTokens: 17,
      completionTokens: 5,
      costUsd: 0.75,
    });
  });

  it("sums usage per role, optionally of one subject", async () => {
    const db = await emptyDb();
    await recordCall(db, call());
    await recordCall(db, call({ cacheKey: "k2", status: "failed", response: null, parsed: null, subject: "run-2" }));
    await recordCall(db, call({ cacheKey: "k3", role: "party" }));
    expect(await usageByRole(db)).toEqual([
      {
        role: "mediator",
        calls: 2,
        ok: 1,
        failed: 1,
        attempts: 2,
        promptTokens: 20,
        completionTokens: 10,
        costUsd: 0.5,
      },
      { role: "party", calls: 1, ok: 1, failed: 0, attempts: 1, promptTokens: 10, completionTokens: 5, costUsd: 0.25 },
    ]);
    expect(await usageByRole(db, "run-2")).toEqual([
      {
        role: "mediator",
        calls: 1,
        ok: 0,
        failed: 1,
        attempts: 1,
        promptTokens: 10,
        completionTokens: 5,
        costUsd: 0.25,
      },
    ]);
  });
});
