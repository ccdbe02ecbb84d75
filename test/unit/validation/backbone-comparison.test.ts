// Comparing two evaluator backbones of an alignment table on their shared units.
import { describe, expect, it } from "vitest";
import { pearson, williamsT, zouOverlappingCi, pairedDifferenceBootstrap } from "../../../app/domain/stats/index.ts";
import { bestBackbone, compareBackbones } from "../../../app/domain/validation/backbone-comparison.ts";
import { alignmentTable, type AlignmentItem, type ConsensusLabelRow } from "../../../app/domain/validation/index.ts";

// Six trajectories of four snippets, one topic; the last snippet of each is the outcome.
const RUNS = ["r1", "r2", "r3", "r4", "r5", "r6"];
const items: AlignmentItem[] = RUNS.flatMap((runId, r) =>
  [1, 2, 3, 4].map((position) => ({
    itemId: r * 10 + position,
    runId,
    snippetPosition: position,
    isLastSnippet: position === 4,
    endTurn: position * 2,
    topicIds: ["T"],
    isGold: false,
  })),
);
// The expert score rises along the run, with a run-specific offset.
const expert = (r: number, position: number) => Math.min(5, 1 + Math.floor((position * (r + 2)) / 5));
const labels: ConsensusLabelRow[] = items.map((i) => {
  const r = RUNS.indexOf(i.runId);
  return {
    itemId: i.itemId,
    annotatorId: "e1",
    pool: "expert",
    payload: {
      kind: "consensus-snippet",
      topics: { T: { score: expert(r, i.snippetPosition), carriedForward: false, positions: {} } },
    },
    secondsOnTask: 30,
  };
});
// "close" tracks the experts; "noisy" is hash-like noise around them; "gappy" has no value on r6.
const noise = [2, -1, 0, 1, -2, 1, 0, -1, 2, 1, -2, 0, 1, -1, 2, 0, -2, 1, 0, 2, -1, 1, -2, 0];
const valueByBackbone: Record<string, (r: number, position: number) => number | null> = {
  close: (r, p) => expert(r, p) + (p === 2 ? 1 : 0),
  noisy: (r, p) => Math.max(1, Math.min(5, expert(r, p) + noise[r * 4 + p - 1])),
  gappy: (r, p) => (r === 5 ? null : expert(r, p) - (p === 3 ? 0.5 : 0)),
};
const table = alignmentTable(items, labels, {
  evaluators: Object.entries(valueByBackbone).map(([backbone, f]) => ({
    backbone,
    valueAt: (runId, _topic, tEnd) => f(RUNS.indexOf(runId), tEnd / 2),
  })),
});

describe("compareBackbones", () => {
  it("tests the candidate against the reference on the units both scored, as the stats functions do on those units", () => {
    const c = compareBackbones(table, "noisy", "gappy", { draws: 200, seed: 3 });
    const shared = table.units
      .map((u, i) => ({ u, a: table.rows[1].values[i], b: table.rows[2].values[i] }))
      .filter((x) => x.a !== null && x.b !== null);
    expect(c.trajectory.n).toBe(20); // r6 has no "gappy" value
    expect(c.trajectory.trajectories).toBe(5);
    const ref = shared.map((x) => x.u.reference);
    const a = shared.map((x) => x.a as number);
    const b = shared.map((x) => x.b as number);
    const rjk = pearson(a, ref).r!;
    const rjh = pearson(b, ref).r!;
    const rkh = pearson(a, b).r!;
    expect(c.trajectory.rCandidate).toBeCloseTo(rjk, 12);
    expect(c.trajectory.rReference).toBeCloseTo(rjh, 12);
    expect(c.trajectory.rBetween).toBeCloseTo(rkh, 12);
    expect(c.trajectory.difference).toBeCloseTo(rjk - rjh, 12);
    expect(c.trajectory.williams).toEqual(williamsT({ rjk, rjh, rkh, n: 20 }));
    expect(c.trajectory.zou).toEqual(zouOverlappingCi({ rjk, rjh, rkh, n: 20 }));
    expect(c.trajectory.bootstrap).toEqual(
      pairedDifferenceBootstrap(
        shared.map((x) => ({ cluster: x.u.runId, reference: x.u.reference, a: x.a as number, b: x.b as number })),
        { draws: 200, seed: 3 },
      ),
    );
    expect(c.trajectory.verdict).toBe(c.trajectory.williams.p! < 0.05 ? "worse" : "no difference");
    expect(c.trajectory.difference!).toBeLessThan(0);
  });

  it("uses only the final snippets at outcome level, and says when a correlation there is undefined", () => {
    const c = compareBackbones(table, "noisy", "close");
    expect(c.outcome.n).toBe(6);
    const finals = table.units.flatMap((u, i) => (u.isLastSnippet ? [i] : []));
    expect(c.outcome.rReference).toBe(
      pearson(
        finals.map((i) => table.rows[0].values[i]!),
        finals.map((i) => table.units[i].reference),
      ).r,
    );
    // All six trajectories end at 5 for the experts: the reference correlation is undefined there.
    const flat = compareBackbones(
      { ...table, units: table.units.map((u) => (u.isLastSnippet ? { ...u, reference: 5 } : u)) },
      "noisy",
      "close",
    );
    expect(flat.outcome).toMatchObject({ rCandidate: null, difference: null, zou: null, verdict: "undefined" });
    expect(flat.outcome.reason).toMatch(/constant/);
    expect(flat.outcome.williams.t).toBeNull();
  });

  it("refuses a backbone the table does not hold, or the same backbone twice", () => {
    expect(() => compareBackbones(table, "missing", "close")).toThrow(
      /no stored evaluation by backbone "missing" on these units \(stored: close, noisy, gappy\)/,
    );
    expect(() => compareBackbones(table, "close", "close")).toThrow(/the same backbone/);
  });
});

describe("bestBackbone", () => {
  it("is the best aligned of the backbones that scored the most units, leaving one out when asked", () => {
    const row = (b: string) => table.rows.find((r) => r.backbone === b)!.trajectory;
    // "gappy" is the best aligned but scored 20 units; "close" and "noisy" scored all 24.
    expect(row("gappy").r!).toBeGreaterThan(row("close").r!);
    expect(row("close").r!).toBeGreaterThan(row("noisy").r!);
    expect(bestBackbone(table)).toBe("close");
    expect(bestBackbone(table, "close")).toBe("noisy");
    expect(bestBackbone(table, "noisy")).toBe("close");
    const onlyGappy = { ...table, rows: table.rows.filter((r) => r.backbone === "gappy") };
    expect(bestBackbone(onlyGappy)).toBe("gappy");
    expect(bestBackbone(onlyGappy, "gappy")).toBeNull();
    expect(bestBackbone({ ...table, rows: [] })).toBeNull();
  });
});
