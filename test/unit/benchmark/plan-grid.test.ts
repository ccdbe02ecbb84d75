import { describe, expect, it } from "vitest";
import { expandGrid, inShard, parseShard, planEvaluators } from "../../../app/domain/benchmark/grid.ts";
import {
  BenchmarkPlanError,
  CONDITION_KEYS,
  parseBenchmarkPlan,
  parseBenchmarkPlanText,
} from "../../../app/domain/benchmark/plan.ts";
import {
  identifiedRunId,
  runConfigOf,
  recordedRunSettings,
  settingsHash,
} from "../../../app/domain/simulation/run-identity.ts";
import { runSeed } from "../../../app/domain/simulation/schedule.ts";

const sampling = { temperature: 0.7, max_tokens: 600 };
const identity = {
  promptVersion: (mode: string) => `prompts-${mode}`,
  sampling: { party: sampling, mediator: { temperature: 0, max_tokens: null } },
};
const scenarios = [
  { id: "s1", domain: "legal" },
  { id: "s2", domain: "healthcare" },
];
const conditions = scenarios.flatMap((s) => [
  { id: `${s.id}:general`, scenarioId: s.id, axis: "general", variant: "default" },
  { id: `${s.id}:emotion:CR`, scenarioId: s.id, axis: "emotion", variant: "CR" },
  { id: `${s.id}:fidelity:A-0of3-ref1of3`, scenarioId: s.id, axis: "fidelity", variant: "A-0of3-ref1of3" },
]);

const base = {
  name: "small",
  scenarios: "all",
  conditions: { keys: ["general", "emotion:CR"] },
  mediators: [
    { name: "M1", model: "m-one" },
    { name: "M1 social", model: "m-one", mode: "social" },
  ],
  simulator: { model: "sim" },
  evaluator: { model: "judge" },
};

describe("benchmark plan", () => {
  it("fills defaults and names the 15 condition keys in Table 5 order", () => {
    const plan = parseBenchmarkPlan(base, "plan.json");
    expect(plan).toMatchObject({
      runs: 1,
      budget: 30,
      seed: 1,
      params: {},
      ablations: { evaluators: [], simulators: [] },
    });
    expect(CONDITION_KEYS).toHaveLength(15);
    expect(CONDITION_KEYS[0]).toBe("general");
  });

  it("names the file and the JSON path of every problem", () => {
    const bad = {
      ...base,
      mediators: [
        { name: "A", model: "x" },
        { name: "A", model: "x" },
      ],
      conditions: { keys: ["emotion:XX"] },
    };
    expect(() => parseBenchmarkPlan(bad, "b.json")).toThrow(BenchmarkPlanError);
    try {
      parseBenchmarkPlan(bad, "b.json");
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain("b.json: $.mediators[1].name");
      expect(message).toContain("b.json: $.mediators[1]: same model, mode and settings");
      expect(message).toContain("b.json: $.conditions.keys[0]");
    }
    expect(() => parseBenchmarkPlanText("{", "c.json")).toThrow(/c\.json: \$: invalid JSON/);
  });
});

describe("benchmark grid", () => {
  it("shares one unmediated run per scenario-condition-run and gives each mediator its own run and pair", () => {
    const grid = expandGrid(parseBenchmarkPlan({ ...base, runs: 2 }, "p"), { scenarios, conditions }, identity);
    expect(grid.units).toHaveLength(2 * 2 * 2);
    const unit = grid.units[0];
    expect(unit).toMatchObject({
      scenarioId: "s1",
      domain: "legal",
      conditionKey: "general",
      runIndex: 0,
      part: "main",
    });
    expect(unit.unmediatedSettings).toEqual({
      condition_id: "s1:general",
      simulator: "sim",
      mediator: null,
      mediator_mode: null,
      turn_budget: 30,
      base_seed: 1,
      run_index: 0,
      seed: runSeed(1, 0),
      prompt_version: "prompts-generic",
      emotion: false,
      sampling: { party: sampling },
    });
    expect(
      unit.mediated.map((m) => [m.settings.mediator, m.settings.mediator_mode, m.settings.prompt_version]),
    ).toEqual([
      ["m-one", "generic", "prompts-generic"],
      ["m-one", "social", "prompts-social"],
    ]);
    expect(unit.mediated[1].settings.sampling).toEqual({
      party: sampling,
      mediator: { temperature: 0, max_tokens: null },
    });
    expect(unit.unmediatedRunId).toBe(identifiedRunId(unit.unmediatedSettings, settingsHash(unit.unmediatedSettings)));
    expect(unit.mediated[1].runId).toMatch(/^s1:general:m-one:social:sim:r0:[0-9a-f]{10}$/);
    expect(unit.mediated[1].pairId).toBe(`${unit.mediated[1].runId}:pair`);
    expect(new Set(grid.units.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)])).size).toBe(8 * 3);
    // What a run records as its config gives its settings back (the stored run is found by them).
    for (const m of unit.mediated) {
      const recorded = recordedRunSettings({
        condition_id: "s1:general",
        simulator_backbone: "sim",
        mediator_backbone: "m-one",
        config: runConfigOf(m.settings),
        seed: m.settings.seed,
      });
      expect(settingsHash(recorded)).toBe(settingsHash(m.settings));
    }
  });

  it("gives every changed setting of a run (budget, seed, emotion, sampling, prompts) other run ids", () => {
    const ids = (plan: object, id = identity) =>
      expandGrid(parseBenchmarkPlan({ ...base, ...plan }, "p"), { scenarios, conditions }, id).units.flatMap((u) => [
        u.unmediatedRunId,
        ...u.mediated.map((m) => m.runId),
      ]);
    const at12 = ids({ budget: 12 });
    expect(ids({ budget: 12 })).toEqual(at12);
    const changed = [
      ids({ budget: 20 }),
      ids({ budget: 12, seed: 99 }),
      ids({ budget: 12, emotion: { selfReport: true } }),
      ids(
        { budget: 12 },
        { ...identity, sampling: { ...identity.sampling, party: { temperature: 1, max_tokens: 600 } } },
      ),
      ids({ budget: 12 }, { ...identity, promptVersion: (mode: string) => `edited-${mode}` }),
    ];
    for (const other of changed) for (const [i, id] of other.entries()) expect(id).not.toBe(at12[i]);
    // The mediator's sampling changes the mediated runs only: the unmediated run is shared.
    const mediatorHot = expandGrid(
      parseBenchmarkPlan({ ...base, budget: 12 }, "p"),
      { scenarios, conditions },
      { ...identity, sampling: { ...identity.sampling, mediator: sampling } },
    ).units[0];
    const before = expandGrid(parseBenchmarkPlan({ ...base, budget: 12 }, "p"), { scenarios, conditions }, identity)
      .units[0];
    expect(mediatorHot.unmediatedRunId).toBe(before.unmediatedRunId);
    expect(mediatorHot.mediated[0].runId).not.toBe(before.mediated[0].runId);
  });

  it("reports conditions the database lacks and unknown scenarios", () => {
    const grid = expandGrid(
      parseBenchmarkPlan(
        { ...base, scenarios: { ids: ["s2", "nope"] }, conditions: { axes: ["strategy", "general"] } },
        "p",
      ),
      { scenarios, conditions },
      identity,
    );
    expect(grid.unknownScenarios).toEqual(["nope"]);
    expect(grid.units.map((u) => u.conditionId)).toEqual(["s2:general"]);
    expect(grid.missing).toEqual(
      ["strategy:competing", "strategy:avoiding", "strategy:accommodating"].map((conditionKey) => ({
        scenarioId: "s2",
        conditionKey,
      })),
    );
  });

  it("adds repeated runs and another simulator's units for the ablations", () => {
    const plan = parseBenchmarkPlan(
      {
        ...base,
        ablations: {
          repeats: { runs: 3 },
          simulators: [{ model: "sim2", mediators: ["M1"] }],
          evaluators: [{ model: "judge2" }, { model: "judge" }],
        },
      },
      "p",
    );
    const grid = expandGrid(plan, { scenarios, conditions }, identity);
    const parts = grid.units.map(
      (u) => `${u.part}:${u.conditionKey}:${u.simulator.model}:r${u.runIndex}:${u.mediated.length}`,
    );
    expect(parts.filter((p) => p.startsWith("repeat"))).toEqual([
      "repeat:general:sim:r1:2",
      "repeat:general:sim:r2:2",
      "repeat:general:sim:r1:2",
      "repeat:general:sim:r2:2",
    ]);
    expect(parts.filter((p) => p.startsWith("simulator"))).toHaveLength(4);
    expect(parts.filter((p) => p.startsWith("simulator")).every((p) => p.endsWith(":sim2:r0:1"))).toBe(true);
    expect(planEvaluators(plan).map((e) => e.model)).toEqual(["judge", "judge2"]);
  });

  it("splits the units into disjoint shards that cover the grid", () => {
    const grid = expandGrid(parseBenchmarkPlan({ ...base, runs: 5 }, "p"), { scenarios, conditions }, identity);
    const shards = [1, 2, 3].map((index) =>
      grid.units.filter((u) => inShard(u, { index, count: 3 })).map((u) => u.key),
    );
    expect(shards.flat().sort()).toEqual(grid.units.map((u) => u.key).sort());
    expect(new Set(shards.flat()).size).toBe(grid.units.length);
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard("5/4")).toMatch(/1 ≤ i ≤ n/);
    expect(parseShard("x")).toMatch(/i\/n/);
  });
});
