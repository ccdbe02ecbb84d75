/**
 * RL's decision seconds come from the mediator's "when" call's recorded latency (llm_calls.latency_ms),
 * so a run replayed from the LLM cache (a resumed batch) records the same seconds as the first
 * run, not the ~0 s the cache lookup takes. Over real HTTP against the stand-in with latency.
 */
import { eq, like } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import type { Run } from "../../../app/domain/bundle.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { MEDIATOR_MODEL, PARTY_MODEL, servedBodies, slotOf, testLlm } from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The slot of the batch's mediated run (its id adds the settings hash). */
const MEDIATED = `demo-transactional-1:general:${MEDIATOR_MODEL}:${PARTY_MODEL}:r0`;
type Db = Awaited<ReturnType<typeof openDatabase>>;

const mediatedRun = async (db: Db): Promise<Run> =>
  (await exportBundle(db)).runs.find((r) => slotOf(r.id) === MEDIATED)!;

/** The recorded latency of each "when" call of the run, in the order they were made. */
function whenLatencies(db: Db): number[] {
  return db.$client
    .prepare("SELECT latency_ms AS ms, parsed FROM llm_calls WHERE subject LIKE ? AND role = 'mediator' ORDER BY rowid")
    .all(`${MEDIATED}:%`)
    .flatMap((r) => {
      const row = r as { ms: number; parsed: string };
      return "should_engage" in JSON.parse(row.parsed) ? [row.ms] : [];
    });
}

describe("the mediator's decision seconds", () => {
  it("are the recorded latency of the original call, also when a replay answers from the cache", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }), latencyMs: 50 });
    cleanups.push(() => mock.close());
    const options = {
      scenarioId: "demo-transactional-1",
      mediator: MEDIATOR_MODEL,
      runs: 1,
      budget: 6,
      concurrency: 1,
    };

    const first = await simulateBatch({ db: t.db, llm: testLlm(t.db, mock), ...options });
    expect(first.failed).toEqual([]);
    const decisions = (await mediatedRun(t.db)).mediator_decisions!;
    expect(decisions.length).toBeGreaterThan(0);
    const latencies = whenLatencies(t.db);
    expect(decisions.map((d) => d.seconds)).toEqual(latencies.map((ms) => ms / 1000));
    // The stand-in waits 50 ms before every reply: none of them is ~0.
    for (const d of decisions) expect(d.seconds).toBeGreaterThanOrEqual(0.04);

    // A resumed batch: the runs are gone, the LLM cache is not; a fresh client on the same file replays every call.
    await t.db.delete(schema.matchedPairs).where(like(schema.matchedPairs.id, `%${PARTY_MODEL}%`));
    await t.db.delete(schema.runs).where(eq(schema.runs.simulatorBackbone, PARTY_MODEL));
    const served = servedBodies(mock).length;
    const reopened = await openDatabase(t.path);
    cleanups.push(() => reopened.$client.close());
    const replay = await simulateBatch({ db: reopened, llm: testLlm(reopened, mock), ...options });
    expect(replay.failed).toEqual([]);
    expect(replay.calls.made).toBe(0);
    expect(servedBodies(mock).length).toBe(served);

    const replayed = (await mediatedRun(reopened)).mediator_decisions!;
    expect(replayed.map((d) => [d.after_turn, d.engage])).toEqual(decisions.map((d) => [d.after_turn, d.engage]));
    expect(replayed.map((d) => d.seconds)).toEqual(decisions.map((d) => d.seconds));
    expect(whenLatencies(reopened)).toEqual(latencies);
  });
});
