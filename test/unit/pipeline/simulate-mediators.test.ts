/**
 * The three mediator modes simulated for real against the stand-in over HTTP: the socially intelligent one (tracker,
 * motivation against its frequency's threshold, four rated candidates, the best voiced, closing once settled), the
 * naive one, and the generic one; resume after an interrupted social run; run identity by mode and settings.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runSchema, type MediatorDecision, type Run } from "../../../app/domain/bundle.ts";
import { parseBenchmarkPlan } from "../../../app/domain/benchmark/plan.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import {
  estimateBatch,
  planBatch,
  simulateBatch,
  SimulationInputError,
} from "../../../app/server/pipeline/simulate.server.ts";
import type { Responder } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { chatRequests, demoSimulationSetup, duplicates, MEDIATOR_MODEL, PARTY_MODEL, servedBodies } from "./helpers.ts";

const SCENARIO = "demo-transactional-1";
const STRATEGIES = ["facilitative", "evaluative", "transformative", "problem-solving"];
const THRESHOLDS = { less: 4, normal: 3.5, more: 2.5 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const setup = (respond?: Responder) => demoSimulationSetup(cleanups, respond);

async function mediatedRuns(db: Parameters<typeof exportBundle>[0]): Promise<Run[]> {
  return (await exportBundle(db)).runs.filter((r) => r.simulator_backbone === PARTY_MODEL && r.mediated);
}

/** The templates the mediator's requests named, in order. */
function mediatorTemplates(mock: Awaited<ReturnType<typeof setup>>["mock"]): string[] {
  return chatRequests(mock)
    .filter((r) => r.body.model === MEDIATOR_MODEL)
    .map((r) => r.template ?? "");
}

/** The candidate a reader would pick by the documented rule, computed here from the ratings alone. */
function expectedChoice(d: MediatorDecision): number {
  const means = d.candidates!.map((c) => {
    const r = c.ratings;
    return (r.perception + r.emotion + r.cognition + r.communication) / 4;
  });
  const best = Math.max(...means);
  return means.findIndex((m) => Math.abs(m - best) < 1e-9);
}

function checkSocialRun(run: Run, frequency: keyof typeof THRESHOLDS): void {
  expect(runSchema.safeParse(run).success).toBe(true);
  expect(run.config).toMatchObject({ mediator_mode: "social", mediator_social: { frequency, memory: 8 } });
  const decisions = run.mediator_decisions ?? [];
  expect(decisions.length).toBeGreaterThan(0);
  let closedOnce = false;
  for (const d of decisions) {
    expect(run.turns[d.after_turn]?.role === "mediator").toBe(d.engage);
    expect(d.tracker).toHaveLength(3);
    const allSettled = d.tracker!.every((t) => t.settled);
    if (d.closing) {
      expect(allSettled).toBe(true);
      expect(d.engage).toBe(true);
      expect(run.turns[d.after_turn].utterance).toMatch(/^To sum up what you have agreed: .*option [A-Z].*confirm/);
      closedOnce = true;
      continue;
    }
    // Closing comes the first time every topic is settled.
    if (allSettled) expect(closedOnce).toBe(true);
    expect(d.threshold).toBe(THRESHOLDS[frequency]);
    expect(d.engage).toBe(d.motivation! >= d.threshold!);
    if (!d.engage) {
      expect(d.candidates).toBeUndefined();
      continue;
    }
    expect(d.candidates!.map((c) => c.strategy)).toEqual(STRATEGIES);
    for (const c of d.candidates!) {
      const r = c.ratings;
      expect(c.overall).toBeCloseTo((r.perception + r.emotion + r.cognition + r.communication) / 4, 9);
    }
    expect(d.chosen).toBe(expectedChoice(d));
    // The voiced turn says the chosen draft (the stand-in speaks it as drafted).
    const chosen = d.candidates![d.chosen!];
    expect(run.turns[d.after_turn].utterance).toBe(`Let me step in here (${chosen.strategy}). ${chosen.text}`);
  }
}

const engagements = (runs: Run[]) =>
  runs.flatMap((r) => r.mediator_decisions ?? []).filter((d) => d.engage && !d.closing).length;

/** The share of its decisions (closings aside) in which the mediator stepped in. */
function engagementRate(runs: Run[]): number {
  const decided = runs.flatMap((r) => r.mediator_decisions ?? []).filter((d) => !d.closing);
  return decided.filter((d) => d.engage).length / decided.length;
}

describe("the socially intelligent mediator", () => {
  it("tracks consensus, rates its motivation, drafts and rates four candidates, voices the best and closes", async () => {
    const { db, mock, llm } = await setup();
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      mediatorMode: "social",
      runs: 3,
      budget: 16,
      seed: 4,
      concurrency: 2,
    });
    expect(summary.failed).toEqual([]);
    const runs = await mediatedRuns(db);
    expect(runs).toHaveLength(3);
    for (const run of runs) checkSocialRun(run, "normal");
    const decisions = runs.flatMap((r) => r.mediator_decisions ?? []);
    expect(decisions.some((d) => d.engage && d.candidates)).toBe(true);
    expect(decisions.some((d) => d.closing)).toBe(true);
    // Ties on the mean happen with the stand-in's whole-number ratings (checkSocialRun: the earlier strategy wins).
    const tied = decisions.filter((d) => {
      const overall = d.candidates?.map((c) => c.overall) ?? [];
      return overall.filter((o) => o === Math.max(...overall)).length > 1;
    });
    expect(tied.length).toBeGreaterThan(0);
    expect(new Set(mediatorTemplates(mock))).toEqual(
      new Set([
        "mediator-tracker",
        "mediator-when-social",
        "mediator-how-social",
        "mediator-rate",
        "mediator-voice",
        "mediator-close",
      ]),
    );
    // The memory is bounded: a late decision's prompt says how many earlier events it no longer holds.
    const prompts = chatRequests(mock).filter((r) => r.template === "mediator-when-social");
    expect(prompts.some((r) => /earlier events are no longer in your memory/.test(r.body.messages[1].content))).toBe(
      true,
    );
    // One tracker call after every party turn but the last.
    const trackerCalls = mediatorTemplates(mock).filter((t) => t === "mediator-tracker").length;
    expect(trackerCalls).toBe(decisions.length);
  });

  it("steps in more readily the more frequent it is set", async () => {
    const counts: Record<string, number> = {};
    const ids = new Set<string>();
    for (const frequency of ["less", "normal", "more"] as const) {
      const { db, llm } = await setup();
      const base = { db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 4, budget: 12, seed: 2 };
      const summary = await simulateBatch({ ...base, mediatorMode: "social", social: { frequency }, concurrency: 2 });
      expect(summary.failed).toEqual([]);
      const runs = await mediatedRuns(db);
      for (const run of runs) checkSocialRun(run, frequency);
      for (const run of runs) ids.add(run.id);
      counts[frequency] = engagementRate(runs);
    }
    expect(ids.size).toBe(12);
    expect(counts.less).toBeLessThan(counts.more);
    expect(counts.less).toBeLessThanOrEqual(counts.normal);
    expect(counts.normal).toBeLessThanOrEqual(counts.more);
  });

  it("resumes an interrupted run from the cache without paying for any call twice", async () => {
    const controller = new AbortController();
    let answered = 0;
    const { db, mock, llm } = await setup((request) => {
      if (++answered === 30) controller.abort();
      return standInResponder({ roles: SIMULATION_ROLES })(request);
    });
    const options = {
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      mediatorMode: "social",
      runs: 1,
      budget: 12,
      concurrency: 1,
      withUnmediated: false,
    };
    const first = await simulateBatch({ ...options, signal: controller.signal });
    expect(first.aborted).toHaveLength(1);
    expect(await mediatedRuns(db)).toEqual([]);
    const second = await simulateBatch(options);
    expect(second.stored).toEqual(first.aborted);
    expect(second.calls.cached).toBeGreaterThanOrEqual(29);
    expect(duplicates(servedBodies(mock))).toEqual([]);
    checkSocialRun((await mediatedRuns(db))[0], "normal");
  });
});

describe("the naive mediator", () => {
  it("decides with a bare yes or no and speaks without strategies, tracker or ratings", async () => {
    const { db, mock, llm } = await setup();
    const summary = await simulateBatch({
      db,
      llm,
      scenarioId: SCENARIO,
      mediator: MEDIATOR_MODEL,
      mediatorMode: "naive",
      runs: 2,
      budget: 12,
      withUnmediated: false,
    });
    expect(summary.failed).toEqual([]);
    expect(new Set(mediatorTemplates(mock))).toEqual(new Set(["mediator-when-naive", "mediator-how-naive"]));
    const runs = await mediatedRuns(db);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(runSchema.safeParse(run).success).toBe(true);
      expect(run.config.mediator_mode).toBe("naive");
      expect(run.config.mediator_social).toBeUndefined();
      for (const d of run.mediator_decisions ?? []) {
        expect(run.turns[d.after_turn]?.role === "mediator").toBe(d.engage);
        expect(Object.keys(d).sort()).toEqual(["after_turn", "engage", "seconds", "thought"]);
      }
    }
    expect(engagements(runs)).toBeGreaterThan(0);
  });
});

describe("run identity by mediator mode and settings", () => {
  it("gives each mode, frequency and memory its own runs; the unmediated twin stays shared", async () => {
    const { db, llm } = await setup();
    const plan = (mediatorMode: string, social?: { frequency?: string; memory?: number }) =>
      planBatch({ db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 1, mediatorMode, social });
    const plans = [
      await plan("generic"),
      await plan("naive"),
      await plan("social"),
      await plan("social", { frequency: "less" }),
      await plan("social", { frequency: "more" }),
      await plan("social", { memory: 4 }),
    ];
    const mediated = plans.map((p) => p.runs.find((r) => r.mediated)!.runId);
    expect(new Set(mediated).size).toBe(6);
    expect(mediated[0]).toMatch(new RegExp(`:${MEDIATOR_MODEL}:${PARTY_MODEL}:r0:`));
    expect(mediated[1]).toContain(`:${MEDIATOR_MODEL}:naive:`);
    expect(mediated[2]).toContain(`:${MEDIATOR_MODEL}:social:`);
    expect(mediated[3]).toContain(`:${MEDIATOR_MODEL}:social-less:`);
    expect(mediated[5]).toContain(`:${MEDIATOR_MODEL}:social-m4:`);
    expect(new Set(plans.map((p) => p.runs.find((r) => !r.mediated)!.runId)).size).toBe(1);
    // The dry run's bound counts the social mediator's two calls per gap and six per intervention.
    expect(estimateBatch(plans[2])).toMatchObject({ partyCalls: 60, mediatorWhenCalls: 58, mediatorHowCalls: 174 });
    expect(estimateBatch(plans[1])).toMatchObject({ partyCalls: 60, mediatorWhenCalls: 29, mediatorHowCalls: 29 });
    // Explicit defaults are the defaults.
    expect((await plan("social", { frequency: "normal", memory: 8 })).runs[0].runId).toBe(mediated[2]);
  });

  it("refuses an unknown mode, an unknown frequency, and social settings on another mode", async () => {
    const { db, llm } = await setup();
    const base = { db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 1 };
    await expect(planBatch({ ...base, mediatorMode: "wise" })).rejects.toThrow(
      new SimulationInputError('the mediator mode is one of generic, social, naive, got "wise"'),
    );
    await expect(planBatch({ ...base, mediatorMode: "social", social: { frequency: "often" } })).rejects.toThrow(
      /frequency is one of less, normal, more, got "often"/,
    );
    await expect(planBatch({ ...base, mediatorMode: "naive", social: { memory: 3 } })).rejects.toThrow(
      /go with mode "social", not "naive"/,
    );
  });

  it("takes mode, frequency and memory in a plan, and names the path of a setting on the wrong mode", async () => {
    const plan = (mediators: unknown[]) =>
      parseBenchmarkPlan(
        {
          name: "p",
          scenarios: "all",
          conditions: "all",
          mediators,
          simulator: { model: "s" },
          evaluator: { model: "e" },
        },
        "plan.json",
      );
    const ok = await plan([
      { name: "g", model: "m" },
      { name: "n", model: "m", mode: "naive" },
      { name: "s", model: "m", mode: "social", frequency: "more", memory: 5 },
      { name: "s2", model: "m", mode: "social" },
    ]);
    expect(ok.mediators.map((m) => [m.mode, m.frequency, m.memory])).toEqual([
      ["generic", undefined, undefined],
      ["naive", undefined, undefined],
      ["social", "more", 5],
      ["social", undefined, undefined],
    ]);
    expect(() => plan([{ name: "n", model: "m", mode: "naive", frequency: "more" }])).toThrow(
      'plan.json: $.mediators[0].frequency: only a mediator of mode "social" takes frequency (this one is "naive")',
    );
    expect(() =>
      plan([
        { name: "a", model: "m", mode: "social" },
        { name: "b", model: "m", mode: "social", frequency: "normal", memory: 8 },
      ]),
    ).toThrow(/mediators\[1\]: same model, mode and settings as mediators\[0\]/);
  });
});
