/**
 * `probe` over real HTTP against the stand-in: the 15 conditions, no LLM for the templates, checks, repair and
 * rejection.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CONDITION_AXES, BUNDLE_FORMAT, BUNDLE_VERSION, type Bundle } from "../../../app/domain/bundle.ts";
import { PROBE_CONDITIONS } from "../../../app/domain/probing/conditions.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { insertCandidate } from "../../../app/server/models/curation-candidate.server.ts";
import { insertSeed } from "../../../app/server/models/seed.server.ts";
import { simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { seedReport } from "../curation/writer-helpers.ts";
import { chatCount, fixtureScenario, importScenario, probeLlm, runProbe, WRITER_MODEL } from "./probe-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(title = "Valley water [probe:none]", id = "valley") {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  const mock = await startMockLlm({ respond: standInResponder() });
  cleanups.push(() => mock.close());
  const scenario = fixtureScenario(id, title);
  await importScenario(t.db, scenario);
  return { ...t, mock, scenario, llm: probeLlm(t.db, mock) };
}

const TEMPLATE_AXES = ["strategy", "emotion", "culture"] as const;
const conditionsOf = (bundle: Bundle, scenarioId: string) =>
  bundle.conditions.filter((c) => c.scenario_id === scenarioId);

describe("socrates probe", () => {
  it("expands a scenario into exactly the 15 conditions, in Table 5 order", async () => {
    const t = await setup();
    const summary = await runProbe(t.db, t.llm, ["valley"], [...CONDITION_AXES]);
    expect(summary.rejected).toEqual([]);
    expect(summary.failed).toEqual([]);
    expect(summary.alreadyStored).toEqual(["valley:general"]);
    expect(summary.created).toHaveLength(14);
    const stored = conditionsOf(await exportBundle(t.db), "valley");
    expect(stored.map((c) => `${c.axis}/${c.variant}`).sort()).toEqual(
      PROBE_CONDITIONS.map((k) => `${k.axis}/${k.variant}`).sort(),
    );
    // The writer axes made their calls: new party + weights, history.
    expect(chatCount(t.mock)).toBe(3);
  });

  it("makes no LLM call for strategy, emotion and culture, and their bytes are the same on every run", async () => {
    const t = await setup();
    const summary = await runProbe(t.db, null, ["valley"], [...TEMPLATE_AXES]);
    expect(summary.created).toHaveLength(12);
    expect(chatCount(t.mock)).toBe(0);
    const first = await exportBundle(t.db);
    for (const c of conditionsOf(first, "valley").filter((c) => c.axis !== "general")) {
      expect(c.provenance).toEqual({ method: "template", prompt_version: expect.stringMatching(/^[0-9a-f]{12}$/) });
    }

    // A fresh database: the same export, byte for byte.
    const other = await tempDb();
    cleanups.push(other.cleanup);
    await importScenario(other.db, t.scenario);
    await runProbe(other.db, null, ["valley"], [...TEMPLATE_AXES]);
    expect(JSON.stringify(await exportBundle(other.db))).toBe(JSON.stringify(first));

    // The same database: re-importing the conditions is "unchanged", and a re-run stores nothing.
    const again = await importBundleFiles(t.db, [
      {
        file: "again.json",
        text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, conditions: first.conditions }),
      },
    ]);
    expect(again.inserted.conditions).toBe(0);
    expect(again.unchanged.conditions).toBe(13);
    const rerun = await runProbe(t.db, null, ["valley"], [...TEMPLATE_AXES]);
    expect(rerun.created).toEqual([]);
    expect(rerun.alreadyStored).toHaveLength(12);
  });

  it("emotion and culture give each party its level or identity as a field and a statement; strategy changes the background only", async () => {
    const t = await setup();
    await runProbe(t.db, null, ["valley"], [...TEMPLATE_AXES]);
    const byId = new Map((await exportBundle(t.db)).conditions.map((c) => [c.id, c]));
    const cr = byId.get("valley:emotion:CR")!.expanded!;
    expect(cr.parties.map((p) => p.reactiveness)).toEqual([0, 1]);
    expect(cr.parties[1].persona).toContain("Emotional reactiveness: 1 on a scale");
    const uscn = byId.get("valley:culture:US-CN")!.expanded!;
    expect(uscn.parties.map((p) => p.culture)).toEqual(["US", "CN"]);
    expect(uscn.background).toBe(t.scenario.background);
    const competing = byId.get("valley:strategy:competing")!.expanded!;
    expect(competing.background.startsWith(`${t.scenario.background}\n\n`)).toBe(true);
    expect(competing.parties).toEqual(t.scenario.parties);
    expect(competing.topics).toEqual(t.scenario.topics);
  });

  it("the three-party condition keeps the original parties and topics verbatim; the new party's weights sum to 10", async () => {
    const t = await setup();
    const summary = await runProbe(t.db, t.llm, ["valley"], ["parties"]);
    expect(summary.created).toEqual(["valley:parties:three-party"]);
    const c = (await exportBundle(t.db)).conditions.find((x) => x.axis === "parties")!;
    const body = c.expanded!;
    expect(body.parties).toHaveLength(3);
    expect(body.parties.slice(0, 2)).toEqual(t.scenario.parties);
    expect(body.topics).toEqual(t.scenario.topics);
    const added = body.parties[2];
    expect(Object.values(added.weights).reduce((a, b) => a + b, 0)).toBe(10);
    expect(Object.keys(added.preferences).sort()).toEqual(["ROAD", "WATER"]);
    expect(c.provenance).toMatchObject({ method: "writer", writer_model: WRITER_MODEL, seed_id: null });
    expect(c.provenance?.repaired).toBeUndefined();
  });

  it("records the history condition's length ratio, with the original background unchanged at the end", async () => {
    const t = await setup();
    await runProbe(t.db, t.llm, ["valley"], ["history"]);
    const c = (await exportBundle(t.db)).conditions.find((x) => x.axis === "history")!;
    const background = c.expanded!.background;
    expect(background.endsWith(`\n\n${t.scenario.background}`)).toBe(true);
    expect(
      background
        .split("\n\n")
        .slice(0, 4)
        .map((e) => e.slice(0, 7)),
    ).toEqual([expect.stringMatching(/^\d{4}-\d\d$/), expect.anything(), expect.anything(), expect.anything()]);
    const ratio = c.provenance!.length_ratio!;
    expect(ratio).toBe(Math.round((background.length / t.scenario.background.length) * 100) / 100);
    expect(ratio).toBeGreaterThanOrEqual(3);
    expect(ratio).toBeLessThanOrEqual(8);
  });

  it("repairs a history that is too short once, naming the measured ratio, and records the repair", async () => {
    const t = await setup("Valley water [probe:history-short]");
    const summary = await runProbe(t.db, t.llm, ["valley"], ["history"]);
    expect(summary.created).toEqual(["valley:history:extended"]);
    expect(chatCount(t.mock)).toBe(2);
    const repair = JSON.stringify(t.mock.requests[1].body);
    expect(repair).toMatch(
      /rule length-ratio: the expanded background is [0-2]\.\d+× the original \(241 characters\); it must be 3–8×/,
    );
    const c = (await exportBundle(t.db)).conditions.find((x) => x.axis === "history")!;
    expect(c.provenance?.repaired).toBe(true);
  });

  it("repairs a new party that takes a present party's id", async () => {
    const t = await setup("Valley water [probe:party-clash]");
    const summary = await runProbe(t.db, t.llm, ["valley"], ["parties"]);
    expect(summary.created).toEqual(["valley:parties:three-party"]);
    expect(JSON.stringify(t.mock.requests[1].body)).toContain(
      'rule distinct-party: the id \\"ORCH\\" is already taken',
    );
    expect(chatCount(t.mock)).toBe(3);
  });

  it("rejects a history still too short after its repair, names the rule, and stores nothing for it", async () => {
    const t = await setup("Valley water [probe:history-stubborn]");
    const summary = await runProbe(t.db, t.llm, ["valley"], ["history"]);
    expect(summary.created).toEqual([]);
    expect(summary.rejected).toHaveLength(1);
    expect(summary.rejected[0].reason).toContain("history after one repair: rule length-ratio");
    expect((await exportBundle(t.db)).conditions.map((c) => c.id)).toEqual(["valley:general"]);
  });

  it("works from the scenario's seed report when it was curated, records the seed and keeps its real names out", async () => {
    const t = await setup();
    const stored = await insertSeed(t.db, {
      domain: "environmental",
      report: seedReport("Valley water"),
      sourceKind: "files",
      provenance: { attempt: 1, file: "x.json" },
    });
    if (!("stored" in stored)) throw new Error("seed not stored");
    await insertCandidate(t.db, {
      seedId: stored.stored.id,
      domain: "environmental",
      status: "accepted",
      replays: [],
      scenarioId: "valley",
    });
    await runProbe(t.db, t.llm, ["valley"], ["history", "parties"]);
    const conditions = (await exportBundle(t.db)).conditions.filter((c) => c.provenance?.method === "writer");
    expect(conditions).toHaveLength(2);
    for (const c of conditions) expect(c.provenance?.seed_id).toBe(stored.stored.id);
    const history = conditions.find((c) => c.axis === "history")!.expanded!.background;
    expect(history).toContain("Closure announced.");
    expect(history).not.toContain("Northwind Regional Health");
  });

  it("creates the general condition of a scenario that has none, and says the writer axes need an LLM", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await importScenario(t.db, fixtureScenario("bare", "Bare valley"), false);
    await runProbe(t.db, null, ["bare"], ["emotion"]);
    expect((await exportBundle(t.db)).conditions.map((c) => c.id)).toEqual([
      "bare:emotion:CC",
      "bare:emotion:CR",
      "bare:emotion:RR",
      "bare:general",
    ]);
    await expect(runProbe(t.db, null, ["bare"], ["history"])).rejects.toThrow(/need the writer role/);
  });

  it("simulate plays an expanded condition", async () => {
    const t = await setup();
    await runProbe(t.db, null, ["valley"], ["emotion"]);
    const summary = await simulateBatch({
      db: t.db,
      llm: t.llm,
      scenarioId: "valley",
      conditionId: "valley:emotion:CR",
      mediator: "none",
      runs: 1,
      budget: 6,
      seed: 3,
    });
    expect(summary.failed).toEqual([]);
    const runs = (await exportBundle(t.db)).runs;
    expect(runs).toHaveLength(1);
    expect(runs[0].condition_id).toBe("valley:emotion:CR");
  });
});
