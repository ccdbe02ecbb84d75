import { afterEach, describe, expect, it } from "vitest";
import { runSchema, type Run } from "../../../app/domain/bundle.ts";
import { outcomeAfter, runSeed } from "../../../app/domain/simulation/schedule.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import {
  estimateBatch,
  planBatch,
  simulateBatch,
  SimulationInputError,
} from "../../../app/server/pipeline/simulate.server.ts";
import type { Responder } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import {
  chatRequests,
  demoSimulationSetup,
  duplicates,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  servedBodies,
  slotOf,
} from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const SCENARIO = "demo-transactional-1";
const CONDITION = "demo-transactional-1:general";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setup = (respond?: Responder) => demoSimulationSetup(cleanups, respond);

async function simulatedRuns(db: Parameters<typeof exportBundle>[0]): Promise<Run[]> {
  return (await exportBundle(db)).runs.filter((r) => r.simulator_backbone === PARTY_MODEL);
}

/** Checks a stored run against the spec's trajectory rules, independently of the engine. */
function checkTrajectory(run: Run, budget: number): void {
  expect(runSchema.safeParse(run).success).toBe(true);
  const partyTurns = run.turns.filter((t) => t.role === "party");
  partyTurns.forEach((t, i) => expect(t.speaker).toBe(run.party_order[i % run.party_order.length]));
  // The run ended exactly when the rules say: never earlier, never later.
  run.turns.forEach((_, i) => {
    const upTo = run.turns.slice(0, i + 1);
    const expected = outcomeAfter(run.party_order, upTo, budget);
    expect(expected).toBe(i === run.turns.length - 1 ? run.outcome : null);
  });
  expect(partyTurns.length).toBeLessThanOrEqual(budget);
  if (!run.mediated) {
    expect(run.mediator_decisions).toBeUndefined();
    return;
  }
  // One decision after every party turn but the last; a mediator turn exactly after each "engage".
  const decisions = run.mediator_decisions ?? [];
  expect(decisions.map((d) => d.after_turn)).toEqual(
    run.turns.filter((t, i) => t.role === "party" && i < run.turns.length - 1).map((t) => t.turn_id),
  );
  for (const d of decisions) {
    expect(run.turns[d.after_turn]?.role === "mediator").toBe(d.engage);
    expect(d.seconds).toBeGreaterThanOrEqual(0);
    expect(d.thought).toBeTruthy();
  }
}

describe("simulateBatch over HTTP against the mock endpoint", () => {
  it("stores mediated and unmediated runs of the demo scenario, with their matched pairs, re-importable", async () => {
    const { db, mock, llm } = await setup();
    const budget = 12;
    const progress: string[] = [];
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      runs: 3,
      budget,
      seed: 7,
      concurrency: 3,
      onProgress: (e) => progress.push(`${e.type}:${e.runId}`),
    });
    expect(summary.failed).toEqual([]);
    expect(summary.stored).toHaveLength(6);
    expect(summary.pairsStored).toHaveLength(3);
    expect(progress.filter((p) => p.startsWith("stored:"))).toHaveLength(6);

    const runs = await simulatedRuns(db);
    expect(runs.map((r) => slotOf(r.id)).sort()).toEqual(
      [0, 1, 2]
        .flatMap((i) => [
          `${CONDITION}:${MEDIATOR_MODEL}:${PARTY_MODEL}:r${i}`,
          `${CONDITION}:none:${PARTY_MODEL}:r${i}`,
        ])
        .sort(),
    );
    for (const run of runs) {
      checkTrajectory(run, budget);
      expect(run.condition_id).toBe(CONDITION);
      expect(run.seed).toBe(runSeed(7, run.config.run_index as number));
      expect(run.config).toMatchObject({ turn_budget: budget, base_seed: 7 });
      expect(run.mediator_backbone).toBe(run.mediated ? MEDIATOR_MODEL : null);
    }
    // The --mediator model overrides the configured one at the endpoint.
    const models = new Set(chatRequests(mock).map((r) => r.body.model));
    expect(models).toEqual(new Set([PARTY_MODEL, MEDIATOR_MODEL]));

    const pairs = (await exportBundle(db)).matched_pairs.filter((p) => p.id.includes(PARTY_MODEL));
    expect(pairs).toHaveLength(3);
    for (const pair of pairs) {
      const mediated = runs.find((r) => r.id === pair.mediated_run_id)!;
      const unmediated = runs.find((r) => r.id === pair.unmediated_run_id)!;
      expect(mediated.seed).toBe(unmediated.seed);
      // Same seed and identical prompts: the two runs match until the mediator first speaks.
      const firstMediation = mediated.turns.findIndex((t) => t.role === "mediator");
      const shared = firstMediation < 0 ? Math.min(mediated.turns.length, unmediated.turns.length) : firstMediation;
      expect(mediated.turns.slice(0, shared)).toEqual(unmediated.turns.slice(0, shared));
    }
    // Shared party turns were asked once: the client answered the twin from its cache.
    expect(summary.calls.cached).toBeGreaterThan(0);
    expect(duplicates(servedBodies(mock))).toEqual([]);
    expect(summary.calls.made).toBe(servedBodies(mock).length);

    // The stored runs are a valid bundle elsewhere too.
    const exported = await exportBundle(db);
    const fresh = await tempDb();
    cleanups.push(fresh.cleanup);
    const imported = await importBundleFiles(fresh.db, [{ file: "export.json", text: JSON.stringify(exported) }]);
    expect(imported.inserted.runs).toBe(exported.runs.length);
    expect(imported.inserted.matched_pairs).toBe(exported.matched_pairs.length);
  });

  it("skips stored runs on a second batch and makes no request", async () => {
    const { db, mock, llm } = await setup();
    const options = { db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2, budget: 8, concurrency: 2 };
    const first = await simulateBatch(options);
    expect(first.stored).toHaveLength(4);
    const requests = mock.requests.length;
    const second = await simulateBatch({ ...options, runs: 3 });
    expect(second.skipped.sort()).toEqual([...first.stored].sort());
    expect(second.stored).toHaveLength(2); // only index 2 is new
    expect(await simulatedRuns(db)).toHaveLength(6);
    expect(estimateBatch(await planBatch({ ...options, runs: 3 })).total).toBe(0);
    // Index 2's requests are new; nothing of indexes 0 and 1 was asked again.
    expect(mock.requests.length - requests).toBe(second.calls.made);
    expect(duplicates(servedBodies(mock))).toEqual([]);
  });

  it("reproduces the same runs from the same seed with a cold cache", async () => {
    const a = await setup();
    const b = await setup();
    const options = { scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2, budget: 10, seed: 3 };
    await simulateBatch({ ...options, db: a.db, llm: a.llm });
    await simulateBatch({ ...options, db: b.db, llm: b.llm, concurrency: 1 });
    const strip = (runs: Run[]) =>
      runs.map((r) => ({
        id: r.id,
        outcome: r.outcome,
        turns: r.turns,
        decisions: r.mediator_decisions?.map((d) => [d.after_turn, d.engage]),
      }));
    expect(strip(await simulatedRuns(b.db))).toEqual(strip(await simulatedRuns(a.db)));
    const differentSeed = await setup();
    await simulateBatch({ ...options, seed: 4, db: differentSeed.db, llm: differentSeed.llm });
    expect(strip(await simulatedRuns(differentSeed.db)).map((r) => r.turns)).not.toEqual(
      strip(await simulatedRuns(a.db)).map((r) => r.turns),
    );
  });

  it("abandons a run whose call fails, stores the rest, and completes it on the next batch", async () => {
    const { db, mock, llm } = await setup();
    // The mediator's first decision gets a non-retryable error: that run must not be stored.
    mock.setFaults([
      { fault: { kind: "status", status: 400, message: "mock: bad request" }, model: MEDIATOR_MODEL, times: 1 },
    ]);
    const options = { db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 1, budget: 8, concurrency: 1 };
    const first = await simulateBatch(options);
    expect(first.failed).toHaveLength(1);
    expect(slotOf(first.failed[0].runId)).toBe(`${CONDITION}:${MEDIATOR_MODEL}:${PARTY_MODEL}:r0`);
    expect(first.failed[0].reason).toMatch(/mediator decision after turn 1: HTTP 400/);
    expect(first.stored.map(slotOf)).toEqual([`${CONDITION}:none:${PARTY_MODEL}:r0`]);
    expect(first.pairsStored).toEqual([]);
    expect((await simulatedRuns(db)).map((r) => r.id)).toEqual(first.stored);

    const second = await simulateBatch(options);
    expect(second.failed).toEqual([]);
    expect(second.stored).toEqual([first.failed[0].runId]);
    expect(second.pairsStored).toHaveLength(1);
    expect(second.calls.cached).toBeGreaterThan(0); // the party's opening turn came from the cache
    // Only the failed request was sent twice.
    const served = servedBodies(mock);
    expect(duplicates(served)).toEqual([]);
  });

  it("stops on an abort signal without storing a half run, and the next batch completes from the cache", async () => {
    const controller = new AbortController();
    let answered = 0;
    const { db, mock, llm } = await setup((request) => {
      if (++answered === 12) controller.abort();
      return standInResponder({ roles: SIMULATION_ROLES })(request);
    });
    const options = { db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2, budget: 10, concurrency: 2 };
    const first = await simulateBatch({ ...options, signal: controller.signal });
    expect(first.aborted.length).toBeGreaterThan(0);
    expect(first.failed).toEqual([]);
    expect((await simulatedRuns(db)).map((r) => r.id).sort()).toEqual([...first.stored].sort());
    const second = await simulateBatch(options);
    expect(second.stored.sort()).toEqual([...first.aborted].sort());
    expect(second.calls.cached).toBeGreaterThan(0);
    expect(await simulatedRuns(db)).toHaveLength(4);
    expect(duplicates(servedBodies(mock))).toEqual([]);
  });

  it("runs unmediated batches alone with --mediator none", async () => {
    const { db, mock, llm } = await setup();
    const summary = await simulateBatch({ db, llm, scenarioId: SCENARIO, mediator: "none", runs: 2, budget: 6 });
    expect(summary.stored.map(slotOf).sort()).toEqual([
      `${CONDITION}:none:${PARTY_MODEL}:r0`,
      `${CONDITION}:none:${PARTY_MODEL}:r1`,
    ]);
    expect(summary.pairsStored).toEqual([]);
    expect(chatRequests(mock).every((r) => r.body.model === PARTY_MODEL)).toBe(true);
  });

  it("plays a condition's expanded scenario, with its added party in the cycle", async () => {
    const { db, mock, llm } = await setup();
    const base = (await exportBundle(db)).scenarios.find((sc) => sc.id === SCENARIO)!;
    // A copy of the demo scenario: the demo already stores a three-party condition of its own.
    const copy = "oven-landlord";
    const landlord = {
      id: "LANDLORD",
      name: "Eddington Market Properties",
      role: "Owns the bakery's building and must approve any electrical work on the panel.",
      relation: "The bakery's landlord; has no contract with the vendor.",
      preferences: Object.fromEntries(base.topics.map((t) => [t.id, "Prefers B, so the panel gets checked."])),
      weights: Object.fromEntries(base.topics.map((t, i) => [t.id, [5, 3, 2][i]])),
    };
    await importBundleFiles(db, [
      {
        file: "three-party.json",
        text: JSON.stringify({
          format: "socrates-bundle",
          version: 1,
          scenarios: [{ ...base, id: copy }],
          conditions: [
            {
              id: `${copy}:three-party`,
              scenario_id: copy,
              axis: "parties",
              variant: "three-party",
              expanded: { background: base.background, topics: base.topics, parties: [...base.parties, landlord] },
            },
          ],
        }),
      },
    ]);
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: copy,
      conditionId: `${copy}:three-party`,
      mediator: MEDIATOR_MODEL,
      runs: 1,
      budget: 9,
    });
    expect(summary.failed).toEqual([]);
    const runs = await simulatedRuns(db);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.condition_id).toBe(`${copy}:three-party`);
      expect(run.party_order).toEqual(["BAKERY", "VENDOR", "LANDLORD"]);
      checkTrajectory(run, 9);
    }
    const playingLandlord = chatRequests(mock).filter((r) =>
      r.body.messages[0].content.startsWith("You are playing Eddington Market Properties"),
    );
    expect(playingLandlord.length).toBeGreaterThan(0);
  });

  it("adds a general condition for a scenario that has none", async () => {
    const { db, llm } = await setup();
    const base = (await exportBundle(db)).scenarios.find((sc) => sc.id === SCENARIO)!;
    await importBundleFiles(db, [
      {
        file: "bare.json",
        text: JSON.stringify({ format: "socrates-bundle", version: 1, scenarios: [{ ...base, id: "bare-oven" }] }),
      },
    ]);
    const summary = await simulateBatch({ db, llm, scenarioId: "bare-oven", mediator: "none", runs: 1, budget: 4 });
    expect(summary.stored.map(slotOf)).toEqual([`bare-oven:general:none:${PARTY_MODEL}:r0`]);
    expect((await exportBundle(db)).conditions.find((c) => c.id === "bare-oven:general")).toEqual({
      id: "bare-oven:general",
      scenario_id: "bare-oven",
      axis: "general",
      variant: "default",
    });
    // The second batch finds the condition it made and reuses it.
    const again = await simulateBatch({ db, llm, scenarioId: "bare-oven", mediator: "none", runs: 2, budget: 4 });
    expect(again.plan.conditionIsNew).toBe(false);
    expect(again.stored.map(slotOf)).toEqual([`bare-oven:general:none:${PARTY_MODEL}:r1`]);
  });

  it("rejects unknown scenarios and conditions of another scenario, before any call", async () => {
    const { db, mock, llm } = await setup();
    const base = { db, llm, mediator: "none", runs: 1 };
    await expect(planBatch({ ...base, scenarioId: "nope" })).rejects.toThrow(SimulationInputError);
    await expect(planBatch({ ...base, scenarioId: "nope" })).rejects.toThrow('unknown scenario "nope"');
    await expect(
      planBatch({ ...base, scenarioId: SCENARIO, conditionId: "demo-healthcare-1:general" }),
    ).rejects.toThrow(/belongs to scenario "demo-healthcare-1"/);
    await expect(planBatch({ ...base, scenarioId: SCENARIO, runs: 0 })).rejects.toThrow(/number of runs/);
    await expect(simulateBatch({ ...base, scenarioId: SCENARIO, budget: 0 })).rejects.toThrow(/turn budget/);
    expect(mock.requests).toHaveLength(0);
    // Two mediator names that sanitise alike ("org/med", "org-med") are two identities: the stored run is not taken for
    // the other's.
    const stored = await simulateBatch({
      ...base,
      scenarioId: SCENARIO,
      mediator: "org/med",
      budget: 2,
      withUnmediated: false,
    });
    const other = await planBatch({
      ...base,
      scenarioId: SCENARIO,
      mediator: "org-med",
      budget: 2,
      withUnmediated: false,
    });
    expect(other.runs.map((r) => r.stored)).toEqual([false]);
    expect(slotOf(other.runs[0].runId)).toBe(slotOf(stored.stored[0]));
    expect(other.runs[0].runId).not.toBe(stored.stored[0]);
  });

  it("estimates the most calls without calling anything", async () => {
    const { db, mock, llm } = await setup();
    const plan = await planBatch({ db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2, budget: 30 });
    expect(plan.runs.map((r) => r.mediated)).toEqual([true, false, true, false]);
    expect(estimateBatch(plan)).toEqual({
      runs: 4,
      partyCalls: 120,
      mediatorWhenCalls: 58,
      mediatorHowCalls: 58,
      total: 236,
    });
    expect(mock.requests).toHaveLength(0);
  });
});
