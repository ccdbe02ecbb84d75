// The scenario page's condition list, read from a real database: the 15 in Table 5 order (the
// missing ones with their would-be ids), the fidelity conditions after them, run counts, diffs.
import { afterEach, describe, expect, it } from "vitest";
import { PROBE_CONDITIONS } from "../../../app/domain/probing/conditions.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { getScenario, listRuns } from "../../../app/server/catalog.server.ts";
import { fidelityPairsBundle, PROBE_FX, probingBundle } from "../../fixtures/probing-fixture.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function prepared() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await importBundleFiles(t.db, [
    { file: "probe.json", text: JSON.stringify(probingBundle()) },
    { file: "ab.json", text: JSON.stringify(fidelityPairsBundle(["sim-a"], 2)) },
  ]);
  return t.db;
}

describe("getScenario: conditions", () => {
  it("lists the 15 in Table 5 order, stored or not, then the fidelity conditions", async () => {
    const { conditions, conditionCount } = (await getScenario(await prepared(), PROBE_FX))!;
    expect(conditionCount).toBe(9);
    expect(conditions.benchmark.map((c) => [c.axis, c.variant])).toEqual(
      PROBE_CONDITIONS.map((c) => [c.axis, c.variant]),
    );
    expect(conditions.benchmark.filter((c) => c.stored).map((c) => c.id)).toEqual([
      "probe-fx:general",
      "probe-fx:strategy:competing",
      "probe-fx:parties:three-party",
      "probe-fx:history:extended",
      "probe-fx:emotion:CR",
      "probe-fx:culture:US-CN",
    ]);
    expect(conditions.missing).toBe(9);
    expect(conditions.benchmark.find((c) => c.variant === "RR")).toEqual({
      id: "probe-fx:emotion:RR",
      axis: "emotion",
      variant: "RR",
      stored: false,
      provenance: null,
      runs: 0,
      diff: null,
    });
    expect(conditions.probeCommand).toBe("npx socrates probe --scenario probe-fx");
    expect(conditions.fidelity.map((c) => [c.variant, c.runs])).toEqual([
      ["BUY-0of3-ref1of3", 2],
      ["BUY-2of3-ref1of3", 1],
      ["BUY-3of3-ref1of3", 1],
    ]);
  });

  it("carries each condition's run count, provenance and diff", async () => {
    const { benchmark } = (await getScenario(await prepared(), PROBE_FX))!.conditions;
    const byVariant = new Map(benchmark.map((c) => [c.variant, c]));
    expect(byVariant.get("CR")!.runs).toBe(1);
    expect(byVariant.get("default")!.diff).toBeNull();
    expect(byVariant.get("extended")!.provenance).toEqual({
      method: "writer",
      prompt_version: "hist0001",
      writer_model: "writer-model-x",
      seed_id: null,
      length_ratio: 4.96,
    });
    expect(byVariant.get("extended")!.diff!.background.change).toBe("prepended");
    expect(byVariant.get("three-party")!.diff!.parties.map((p) => p.status)).toEqual([
      "unchanged",
      "unchanged",
      "added",
    ]);
  });

  it("lists the runs of one condition for the run viewer's filter", async () => {
    const db = await prepared();
    expect((await listRuns(db, { conditionId: "probe-fx:emotion:CR" })).map((r) => r.id)).toEqual([
      "probe-fx:emotion:CR:r0",
    ]);
    expect(await listRuns(db, { conditionId: "probe-fx:fidelity:BUY-0of3-ref1of3" })).toHaveLength(2);
  });
});
