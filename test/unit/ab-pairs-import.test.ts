import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BundleImportError, exportBundle, importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { fixtureAbBundle } from "../fixtures/bundle-fixture.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";
import { rawRows } from "../../app/server/db.server.ts";
import { sql } from "drizzle-orm";

const asFile = (value: unknown, file = "ab.json") => [{ file, text: JSON.stringify(value) }];

/**
 * The fixture plus two short unmediated fidelity runs at BUY levels 0 and 1 (SELL at 1/3) and the pair comparing them.
 */
const abBundle = () => fixtureAbBundle();

async function problemsOf(run: () => unknown): Promise<{ file: string; path: string; message: string }[]> {
  try {
    await run();
  } catch (err) {
    if (err instanceof BundleImportError) return err.problems;
    throw err;
  }
  throw new Error("expected the import to be refused");
}

describe("A/B reactiveness pairs in bundles", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(() => t.cleanup());

  it("imports a pair, stores its columns, and a second import changes nothing", async () => {
    const first = await importBundleFiles(t.db, asFile(abBundle()));
    expect(first.inserted).toEqual({
      scenarios: 1,
      conditions: 3,
      runs: 4,
      matched_pairs: 1,
      ab_pairs: 1,
      evaluations: 2,
    });
    const [row] = await rawRows(t.db, sql`SELECT * FROM ab_pairs`);
    expect(row).toEqual({
      id: "fx-1:ab",
      scenario_id: "fx-1",
      run_a_id: "fx-1:ab:a",
      run_b_id: "fx-1:ab:b",
      target_party: "BUY",
      level_a: 0,
      level_b: 1,
      opponent_level: 1 / 3,
    });

    const counts = await tableCounts(t.db);
    const second = await importBundleFiles(t.db, asFile(abBundle()));
    expect(second.inserted.ab_pairs).toBe(0);
    expect(second.unchanged.ab_pairs).toBe(1);
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("accepts a pair whose runs were imported earlier, and a pair without opponent_level", async () => {
    const bundle = abBundle();
    await importBundleFiles(t.db, asFile({ ...bundle, ab_pairs: [] }));
    const { opponent_level: _dropped, ...noOpponent } = bundle.ab_pairs[0];
    const later = { format: "socrates-bundle", version: 1, ab_pairs: [{ ...noOpponent, id: "fx-1:ab:2" }] };
    expect((await importBundleFiles(t.db, asFile(later, "later.json"))).inserted.ab_pairs).toBe(1);
    expect((await exportBundle(t.db)).ab_pairs.find((p) => p.id === "fx-1:ab:2")).toEqual({
      ...noOpponent,
      id: "fx-1:ab:2",
    });
  });

  it("refuses a pair stored with different content, changing nothing", async () => {
    await importBundleFiles(t.db, asFile(abBundle()));
    const before = await tableCounts(t.db);
    const changed = abBundle();
    delete changed.ab_pairs[0].opponent_level; // still true to the runs, but not what is stored
    expect(await problemsOf(() => importBundleFiles(t.db, asFile(changed, "edited.json")))).toEqual([
      {
        file: "edited.json",
        path: "$.ab_pairs[0]",
        message: '"fx-1:ab" is already stored with different content; nothing was changed (use a new id to keep both)',
      },
    ]);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  // Each bad pair: what to change, and the path and message the import must report.
  const bad: { name: string; edit: (b: ReturnType<typeof abBundle>) => void; path: string; message: RegExp }[] = [
    {
      name: "an unknown run",
      edit: (b) => void (b.ab_pairs[0].run_b_id = "nope"),
      path: "$.ab_pairs[0].run_b_id",
      message: /unknown run "nope"/,
    },
    {
      name: "the same run twice",
      edit: (b) => void (b.ab_pairs[0].run_b_id = "fx-1:ab:a"),
      path: "$.ab_pairs[0].run_b_id",
      message: /run_b_id must differ from run_a_id/,
    },
    {
      name: "an unknown scenario",
      edit: (b) => void (b.ab_pairs[0].scenario_id = "fx-9"),
      path: "$.ab_pairs[0].scenario_id",
      message: /unknown scenario "fx-9"/,
    },
    {
      name: "a target that is not a party",
      edit: (b) => void (b.ab_pairs[0].target_party = "MEDIATOR"),
      path: "$.ab_pairs[0].target_party",
      message: /"MEDIATOR" is not a party of scenario "fx-1" \(BUY, SELL\)/,
    },
    {
      name: "equal levels",
      edit: (b) => void (b.ab_pairs[0].level_b = 0),
      path: "$.ab_pairs[0].level_b",
      message: /level_b must differ from level_a/,
    },
    {
      name: "two simulator backbones",
      edit: (b) => void (b.runs[3].simulator_backbone = "other-sim"),
      path: "$.ab_pairs[0].run_b_id",
      message: /same simulator backbone: run "fx-1:ab:a" uses "mock-sim", run "fx-1:ab:b" uses "other-sim"/,
    },
    {
      name: "a duplicate pair id",
      edit: (b) => void b.ab_pairs.push({ ...b.ab_pairs[0], level_a: 1 / 3 }),
      path: "$.ab_pairs[1].id",
      message: /duplicate id "fx-1:ab" in this bundle/,
    },
    {
      name: "a level_b its run does not play",
      edit: (b) => void (b.ab_pairs[0].level_b = 2 / 3),
      path: "$.ab_pairs[0].level_b",
      message:
        /^run "fx-1:ab:b" plays BUY at reactiveness 1 \(condition "fx-1:fidelity:BUY-3of3-ref1of3"\), not the declared level_b 2\/3$/,
    },
    {
      name: "an opponent_level the runs do not play",
      edit: (b) => void (b.ab_pairs[0].opponent_level = 2 / 3),
      path: "$.ab_pairs[0].opponent_level",
      message: /^run "fx-1:ab:a" plays SELL at reactiveness 1\/3, not the declared opponent_level 2\/3$/,
    },
    {
      name: "runs whose conditions differ in another party's stance",
      edit: (b) => void (b.conditions[2].expanded!.parties[1].preferences.PRICE = "A fair price."),
      path: "$.ab_pairs[0].run_b_id",
      message: /^runs "fx-1:ab:a" and "fx-1:ab:b" differ in more than BUY's level: party SELL's preferences$/,
    },
    {
      name: "runs with different seeds",
      edit: (b) => void (b.runs[3].seed = 12),
      path: "$.ab_pairs[0].run_b_id",
      message: /differ in more than BUY's level: the seed \(11 vs 12\)$/,
    },
    {
      name: "runs with different configs",
      edit: (b) => void (b.runs[3].config = { ...b.runs[3].config, turn_budget: 3 }),
      path: "$.ab_pairs[0].run_b_id",
      message: /differ in more than BUY's level: the config$/,
    },
    {
      name: "runs without personas (the general condition)",
      edit: (b) => void (b.runs[2].condition_id = b.runs[3].condition_id = "fx-1:general"),
      path: "$.ab_pairs[0].level_a",
      message:
        /^run "fx-1:ab:a" plays BUY at reactiveness none \(condition "fx-1:general"\), not the declared level_a 0$/,
    },
    {
      name: "a level above 1",
      edit: (b) => void (b.ab_pairs[0].level_a = 1.5),
      path: "$.ab_pairs[0].level_a",
      message: /a reactiveness level is in \[0, 1\]/,
    },
    {
      name: "a negative opponent level",
      edit: (b) => void (b.ab_pairs[0].opponent_level = -0.1),
      path: "$.ab_pairs[0].opponent_level",
      message: /a reactiveness level is in \[0, 1\]/,
    },
    {
      name: "an unknown field",
      edit: (b) => void ((b.ab_pairs[0] as Record<string, unknown>).winner = "A"),
      path: "$.ab_pairs[0]",
      message: /Unrecognized key\(s\) in object: 'winner'/,
    },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}, naming the JSON path, and stores nothing`, async () => {
      const b = abBundle();
      c.edit(b);
      const problems = await problemsOf(() => importBundleFiles(t.db, asFile(b, "bad.json")));
      expect(problems).toContainEqual({ file: "bad.json", path: c.path, message: expect.stringMatching(c.message) });
      expect((await tableCounts(t.db)).ab_pairs).toBe(0);
      expect((await tableCounts(t.db)).runs).toBe(0);
    });
  }

  it("refuses a run of another scenario", async () => {
    const b = abBundle();
    const other = { ...b.scenarios[0], id: "fx-2", title: "Another sale" };
    b.scenarios.push(other);
    b.conditions.push({ id: "fx-2:general", scenario_id: "fx-2", axis: "general", variant: "default" });
    b.runs[2].condition_id = "fx-2:general";
    expect(await problemsOf(() => importBundleFiles(t.db, asFile(b, "bad.json")))).toEqual([
      {
        file: "bad.json",
        path: "$.ab_pairs[0].run_a_id",
        message: 'run "fx-1:ab:a" plays scenario "fx-2", not "fx-1"',
      },
    ]);
    expect((await tableCounts(t.db)).scenarios).toBe(0);
  });

  it("export → import into an empty database → export gives identical JSON, pairs ordered by id", async () => {
    const b = abBundle();
    const thirds = fixtureAbBundle({
      pairId: "fx-1:ab:z",
      runIds: ["fx-1:ab:z:a", "fx-1:ab:z:b"],
      levels: [2, 1],
      opponent: 0,
    });
    b.conditions.push(...thirds.conditions.slice(1));
    b.runs.push(...thirds.runs.slice(2));
    b.ab_pairs.unshift(thirds.ab_pairs[0]);
    await importBundleFiles(t.db, asFile(b));
    const first = await exportBundle(t.db);
    expect(first.ab_pairs.map((p) => p.id)).toEqual(["fx-1:ab", "fx-1:ab:z"]);
    expect(first.ab_pairs[1]).toEqual(b.ab_pairs[0]); // thirds survive the REAL column exactly
    const text = JSON.stringify(first, null, 2);
    const other = await tempDb();
    try {
      await importBundleFiles(other.db, [{ file: "export.json", text }]);
      expect(JSON.stringify(await exportBundle(other.db), null, 2)).toBe(text);
    } finally {
      await other.cleanup();
    }
  });
});

describe("the demo A/B reactiveness bundle", () => {
  const GRID = [0, 1 / 3, 2 / 3, 1];

  it("holds 16 generated pairs: 8 per simulator backbone, balanced sides, three 0-vs-1 items each, levels tied to the runs' personas", async () => {
    const { seedDemo } = await import("../../demo/seed.ts");
    const t = await tempDb();
    try {
      expect((await seedDemo(t.db)).inserted.ab_pairs).toBe(16);
      const bundle = await exportBundle(t.db);
      const runs = new Map(bundle.runs.map((r) => [r.id, r]));
      const conditions = new Map(bundle.conditions.map((c) => [c.id, c]));
      const byBackbone = new Map<string, typeof bundle.ab_pairs>();
      for (const pair of bundle.ab_pairs) {
        const [a, b] = [runs.get(pair.run_a_id)!, runs.get(pair.run_b_id)!];
        const backbone = a.simulator_backbone;
        expect(b.simulator_backbone, pair.id).toBe(backbone);
        byBackbone.set(backbone, [...(byBackbone.get(backbone) ?? []), pair]);
        for (const level of [pair.level_a, pair.level_b, pair.opponent_level]) expect(GRID, pair.id).toContain(level);
        expect([pair.level_a, pair.level_b], pair.id).not.toContain(pair.opponent_level);
        for (const [run, level] of [
          [a, pair.level_a],
          [b, pair.level_b],
        ] as const) {
          expect(run.mediated, run.id).toBe(false);
          expect(run.turns.length, run.id).toBeLessThanOrEqual(6);
          const condition = conditions.get(run.condition_id)!;
          expect(condition.axis, run.id).toBe("fidelity");
          for (const party of condition.expanded!.parties)
            expect(party.reactiveness, `${run.id} ${party.id}`).toBe(
              party.id === pair.target_party ? level : pair.opponent_level,
            );
        }
        // Same seed and settings; the target's first words show its level.
        expect([a.seed, a.config], pair.id).toEqual([b.seed, b.config]);
        const opening = (run: typeof a) => run.turns.find((turn) => turn.speaker === pair.target_party)!.utterance;
        expect(opening(a), pair.id).not.toBe(opening(b));
      }
      expect([...byBackbone.keys()].sort()).toEqual(["demo-sim-alpha", "demo-sim-beta"]);
      for (const [backbone, pairs] of byBackbone) {
        expect(pairs, backbone).toHaveLength(8);
        const extremes = pairs.filter(
          (p) => Math.min(p.level_a, p.level_b) === 0 && Math.max(p.level_a, p.level_b) === 1,
        );
        expect(extremes.length, backbone).toBe(3);
        // The more reactive side is A in half the pairs, so position is no cue.
        expect(pairs.filter((p) => p.level_a > p.level_b).length, backbone).toBe(4);
        expect(new Set(pairs.map((p) => p.scenario_id)).size, backbone).toBe(4);
      }
    } finally {
      await t.cleanup();
    }
  });

  it("is demo data recorded from the stand-in, reuses the demo scenarios, and is exactly what its recording script writes", async () => {
    const text = readFileSync("demo/demo-ab-reactiveness.json", "utf8");
    const file = JSON.parse(text);
    expect(file.description).toMatch(/fictional/);
    expect(file.description).toMatch(/offline stand-in endpoint \(canned, deterministic replies, not a model\)/);
    expect(file.scenarios ?? []).toEqual([]);
    const { demoAbText, recordFidelityPairs } = await import("../../demo/authoring/record-fidelity-pairs.ts");
    expect(demoAbText(await recordFidelityPairs())).toBe(text);
  });
});
