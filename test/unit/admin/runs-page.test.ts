// The runs page's query on a real SQLite file of 270 synthetic runs: the total, paging in the database, the
// filters (scenario, condition, mediator, backbone, outcome) and search, and the pure paging helpers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conditionKey,
  pageCount,
  pageNumbers,
  pageSearch,
  parseConditionKey,
  parsePage,
  runTitle,
} from "../../../app/domain/run-list.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { countRuns, listRuns, runFacets, runsPage } from "../../../app/server/catalog.server.ts";
import { syntheticBundle } from "../../../bench/synthetic-bundle.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("runs page helpers (pure)", () => {
  it("reads ?page, falling back to 1 for anything but a positive whole number", () => {
    expect(["3", "1"].map(parsePage)).toEqual([3, 1]);
    expect([null, "", "0", "-2", "1.5", "abc", "1e400"].map(parsePage)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect([0, 1, 50, 51, 5400].map((n) => pageCount(n, 50))).toEqual([1, 1, 1, 2, 108]);
  });

  it("shows the first, last and nearby pages with gaps, and links keep the filters", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageNumbers(1, 108)).toEqual([1, 2, 3, null, 108]);
    expect(pageNumbers(50, 108)).toEqual([1, null, 48, 49, 50, 51, 52, null, 108]);
    expect(pageNumbers(108, 108)).toEqual([1, null, 106, 107, 108]);
    const params = new URLSearchParams("q=bench&mediator=m3&page=4&sort=turns&dir=desc");
    expect(pageSearch(params, 5)).toBe("?q=bench&mediator=m3&page=5&sort=turns&dir=desc");
    expect(pageSearch(params, 1)).toBe("?q=bench&mediator=m3&sort=turns&dir=desc");
    expect(pageSearch(new URLSearchParams("page=2"), 1)).toBe("?");
  });

  it("titles a run scenario · condition · mediator, and reads the condition filter back", () => {
    const run = { scenarioTitle: "Water rights", axis: "emotion", variant: "CC", mediatorBackbone: "gpt-4o" };
    expect(runTitle({ ...run, mediated: true })).toBe("Water rights · emotion CC · gpt-4o");
    expect(runTitle({ ...run, axis: "general", variant: "default", mediated: false, mediatorBackbone: null })).toBe(
      "Water rights · general · no mediator",
    );
    expect(parseConditionKey(conditionKey("fidelity", "BUY-0of3-ref1of3"))).toEqual({
      axis: "fidelity",
      variant: "BUY-0of3-ref1of3",
    });
    expect(["", "emotion", ":CC", "emotion:"].map(parseConditionKey)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("runsPage: paged, filtered and searched in SQL", async () => {
  const t = await tempDb();
  const ALL = 2 * 15 * 9;
  beforeAll(async () => {
    const bundle = syntheticBundle(2);
    // Vary what the synthetic bundle keeps constant, so the backbone and outcome filters have something to tell apart.
    bundle.runs!.forEach((r, i) => {
      if (i % 7 === 0) r.simulator_backbone = "sim-b";
      if (i % 5 === 0) {
        // An impasse needs a party to walk away (the import checks it).
        r.outcome = "impasse";
        r.turns.filter((turn) => turn.role === "party").at(-1)!.signal = "walk-away";
      }
    });
    await importBundleFiles(t.db, [{ file: "synthetic.json", text: JSON.stringify(bundle) }]);
  });
  afterAll(() => t.cleanup());

  it("counts every run and pages through them all once, in order, with no cap", async () => {
    const everything = (await listRuns(t.db, { limit: 10_000 })).map((r) => r.id);
    expect(everything).toHaveLength(ALL);
    const first = await runsPage(t.db, {}, 1, 50);
    expect(first).toMatchObject({ total: ALL, page: 1, pages: 6, size: 50 });
    const pages = await Promise.all(await Promise.all([1, 2, 3, 4, 5, 6].map((p) => runsPage(t.db, {}, p, 50))));
    const paged = pages.flatMap((page) => page.runs.map((r) => r.id));
    expect(paged).toEqual(everything);
    expect((await runsPage(t.db, {}, 6, 50)).runs).toHaveLength(ALL - 250);
    // A page past the last shows the last (a stale link after a filter narrowed the list).
    expect(await runsPage(t.db, {}, 99, 50)).toMatchObject({ page: 6, runs: (await runsPage(t.db, {}, 6, 50)).runs });
    const sorted = (await runsPage(t.db, { sort: { key: "id", dir: "desc" } }, 2, 50)).runs.map((r) => r.id);
    expect(sorted).toEqual([...everything].sort().reverse().slice(50, 100));
  });

  it("filters by scenario, condition, mediator, backbone and outcome, the total counting the filtered runs", async () => {
    const ids = (filter: Parameters<typeof listRuns>[1]) => listRuns(t.db, { ...filter, limit: 10_000 });
    const scenario = await ids({ scenarioId: "bench-1" });
    expect(scenario).toHaveLength(135);
    expect(new Set(scenario.map((r) => r.scenarioId))).toEqual(new Set(["bench-1"]));
    const cc = await ids({ condition: { axis: "emotion", variant: "CC" } });
    expect(cc.map((r) => `${r.axis}:${r.variant}`)).toEqual(Array(18).fill("emotion:CC"));
    expect((await ids({ mediator: "m3" })).map((r) => r.mediatorBackbone)).toEqual(Array(30).fill("m3"));
    expect((await ids({ mediator: "none" })).every((r) => !r.mediated)).toBe(true);
    expect(await ids({ mediator: "none" })).toHaveLength(30);
    const b = await ids({ backbone: "sim-b" });
    expect(b.length).toBe(Math.ceil(ALL / 7));
    expect(b.every((r) => r.simulatorBackbone === "sim-b")).toBe(true);
    const both = { backbone: "sim-b", outcome: "impasse", scenarioId: "bench-0" };
    const combined = await ids(both);
    expect(combined.length).toBeGreaterThan(0);
    expect(combined.every((r) => r.simulatorBackbone === "sim-b" && r.outcome === "impasse")).toBe(true);
    expect(await countRuns(t.db, both)).toBe(combined.length);
    expect(await runsPage(t.db, { mediator: "m3" }, 1, 50)).toMatchObject({ total: 30, pages: 1 });
    expect(await runsPage(t.db, { backbone: "no-such-model" }, 3, 50)).toMatchObject({ total: 0, page: 1, runs: [] });
  });

  it("searches run ids and scenario titles, every word, as text (never a pattern)", async () => {
    // Every word anywhere: "1" is in bench-1's title and in bench-0's "m1" run ids.
    const found = await listRuns(t.db, { text: "Bench scenario 1", limit: 10_000 });
    expect(found.filter((r) => r.scenarioId === "bench-1")).toHaveLength(135);
    expect(found.filter((r) => r.scenarioId === "bench-0").map((r) => r.mediatorBackbone)).toEqual(
      Array(15).fill("m1"),
    );
    expect((await listRuns(t.db, { text: "bench-0:emotion:cc:m2" })).map((r) => r.id)).toEqual([
      "bench-0:emotion:CC:m2",
    ]);
    expect(await countRuns(t.db, { text: "%" })).toBe(0);
  });

  it("offers as filter choices only the values stored runs have", async () => {
    const facets = await runFacets(t.db);
    expect(facets.scenarios).toEqual([
      { id: "bench-0", title: "Bench scenario 0" },
      { id: "bench-1", title: "Bench scenario 1" },
    ]);
    expect(facets.conditions).toHaveLength(15);
    expect(facets.mediators).toEqual(["m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8"]);
    expect(facets.backbones).toEqual(["sim", "sim-b"]);
    expect(facets.outcomes).toEqual(["budget", "impasse"]);
  });
});
