/**
 * The benches' longest dependent chain: traced calls joined to the stand-in's records over real HTTP, and the path
 * through them.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { serviceRecordOf, serviceMs } from "../../../bench/chain-key.ts";
import { longestChain, serviceTimes, tracedLlm } from "../../../bench/dependent-chain.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ echo: z.string() });
const ask = (role: "party" | "mediator" | "evaluator", subject: string, text: string) => ({
  role,
  subject,
  schema,
  messages: [{ role: "user" as const, content: text }],
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;
beforeEach(async () => {
  mock = await startMockLlm({ latencyMs: { min: 5, max: 40 }, seed: 3 }); // echoes the last message
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

/** The service time of the one request whose last message is `text`, and of its repair round if any. */
const served = (text: string) =>
  mock.requests
    .filter((r) => JSON.stringify((r.body as { messages?: unknown[] })?.messages?.[0] ?? "").includes(text))
    .reduce((sum, r) => sum + serviceMs(r), 0);

describe("longest dependent chain", () => {
  it("a run's turns in sequence, then its widest judge round; identical requests and repair rounds are joined to their calls", async () => {
    const config = mockConfig(mock.url);
    const { llm, calls } = tracedLlm(createLlm({ db: store.db, config }), config);
    // Run A: three turns, the second repaired once, then two judges side by side.
    mock.setFaults([{ fault: { kind: "malformed" }, match: /turn 2/ }]);
    for (const [i, role] of (["party", "mediator", "party"] as const).entries())
      await llm.call(ask(role, "A", `turn ${i + 1}`));
    await Promise.all([llm.call(ask("evaluator", "A", "judge x")), llm.call(ask("evaluator", "A", "judge y"))]);
    // Run B shares its first turn with A (answered from the cache) and adds one of its own.
    await llm.call(ask("party", "B", "turn 1"));
    await llm.call(ask("party", "B", "turn b"));

    const records = mock.requests.flatMap((r) => serviceRecordOf(r) ?? []);
    expect(records).toHaveLength(7); // A: 3 turns + 2 judges + 1 repair round; B: its own turn
    const { byKey, unmatched } = serviceTimes(records, calls);
    expect(unmatched).toBe(0);

    const runA =
      served("turn 1") + served("turn 2") + served("turn 3") + Math.max(served("judge x"), served("judge y"));
    const runB = served("turn 1") + served("turn b");
    const chain = longestChain(calls, byKey);
    expect(chain.ms).toBeCloseTo(Math.max(runA, runB), 9);
    if (runA > runB)
      expect(chain).toMatchObject({ subject: "A", calls: 4, byRole: { party: 2, mediator: 1, evaluator: 1 } });
  });

  it("a call no request answered in the job (a cache hit from before) weighs nothing", () => {
    const calls = [
      { subject: "A", role: "party" as const, key: "k1", issued: 0, returned: 1 },
      { subject: "A", role: "party" as const, key: "k2", issued: 2, returned: 3 },
    ];
    expect(longestChain(calls, new Map([["k2", 7]]))).toMatchObject({ ms: 7, calls: 2 });
  });
});
