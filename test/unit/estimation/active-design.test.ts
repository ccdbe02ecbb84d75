/** Active labelling's design: per-stratum draw order, the next-run rule, the prefix and its inclusion probabilities. */
import { describe, expect, it } from "vitest";
import {
  activeStratumEstimate,
  judgeUncertainty,
  nextToDraw,
  planDraws,
  stratumDesigns,
  type DrawRow,
  type PopulationRun,
} from "../../../app/domain/estimation/active-design.ts";
import { inclusionProbabilities } from "../../../app/domain/estimation/order-sampling.ts";
import { createRng } from "../../../app/domain/stats/index.ts";

function population(sizes: Record<string, number>, seed = 5): PopulationRun[] {
  const rng = createRng(seed);
  return Object.entries(sizes).flatMap(([mediator, n]) =>
    Array.from({ length: n }, (_, i) => ({ runId: `${mediator}-r${i}`, mediator, uncertainty: rng() })),
  );
}

/** Draws until the rule stops, recording positions as the study would. */
function drawAll(rows: DrawRow[], budget: number): DrawRow[] {
  const draws = rows.map((r) => ({ ...r }));
  for (let position = 1; ; position++) {
    const next = nextToDraw(draws, budget);
    if (!next) return draws;
    draws.find((d) => d.runId === next.runId)!.position = position;
  }
}

describe("judgeUncertainty", () => {
  it("two backbones: how far apart their outcome readings are; one: the spread of its topic readings", () => {
    expect(
      judgeUncertainty([
        [5, 3],
        [3, 3],
      ]),
    ).toBeCloseTo(0.25, 12);
    // Topics at (5−1)/4 = 1 and (1−1)/4 = 0: population sd 0.5; all topics alike: 0.
    expect(judgeUncertainty([[5, 1]])).toBeCloseTo(0.5, 12);
    expect(judgeUncertainty([[4, 4, 4]])).toBe(0);
  });

  it("refuses a score off the 1–5 scale, naming the backbone and topic", () => {
    expect(() => judgeUncertainty([[3, 6]])).toThrow(/backbone 1, topic 2: score 6/);
    expect(() => judgeUncertainty([[]])).toThrow(/backbone 1 has no topic scores/);
  });
});

describe("planDraws", () => {
  const runs = population({ alpha: 7, beta: 5, none: 4 });

  it("is deterministic for a seed and independent of the input order", () => {
    const a = planDraws(runs, 11);
    const b = planDraws([...runs].reverse(), 11);
    expect(b).toEqual(a);
    const other = planDraws(runs, 12);
    expect(other.map((d) => d.key)).not.toEqual(a.map((d) => d.key));
  });

  it("gives each stratum sizes summing to 1, larger for more uncertain runs, and keys U/p", () => {
    const rows = planDraws(runs, 11);
    for (const mediator of ["alpha", "beta", "none"]) {
      const stratum = rows.filter((r) => r.mediator === mediator);
      expect(stratum.reduce((s, r) => s + r.size, 0)).toBeCloseTo(1, 12);
      const byUncertainty = [...stratum].sort((x, y) => x.uncertainty - y.uncertainty);
      for (let i = 1; i < byUncertainty.length; i++)
        expect(byUncertainty[i].size).toBeGreaterThanOrEqual(byUncertainty[i - 1].size);
      for (const r of stratum) {
        expect(r.position).toBeNull();
        // key · size is the run's uniform draw, in [0, 1).
        expect(r.key * r.size).toBeGreaterThanOrEqual(0);
        expect(r.key * r.size).toBeLessThan(1);
      }
    }
  });
});

describe("nextToDraw", () => {
  const rows = planDraws(population({ alpha: 7, beta: 5, none: 2 }), 3);

  it("keeps the strata balanced while each has runs left, and draws each stratum in key order", () => {
    const draws = drawAll(rows, Number.POSITIVE_INFINITY);
    expect(draws.every((d) => d.position !== null)).toBe(true);
    const order = [...draws].sort((a, b) => (a.position as number) - (b.position as number));
    const counts = new Map<string, number>();
    const remaining = new Map([
      ["alpha", 7],
      ["beta", 5],
      ["none", 2],
    ]);
    for (const d of order) {
      // The stratum drawn had no more drawn runs than any other stratum with runs left.
      for (const [m, left] of remaining)
        if (left > 0) expect(counts.get(d.mediator) ?? 0).toBeLessThanOrEqual(counts.get(m) ?? 0);
      counts.set(d.mediator, (counts.get(d.mediator) ?? 0) + 1);
      remaining.set(d.mediator, remaining.get(d.mediator)! - 1);
    }
    for (const mediator of ["alpha", "beta", "none"]) {
      const stratum = order.filter((d) => d.mediator === mediator);
      const keys = stratum.map((d) => d.key);
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
    }
    // The first round takes one run from every stratum.
    expect(new Set(order.slice(0, 3).map((d) => d.mediator)).size).toBe(3);
  });

  it("stops at the budget", () => {
    const draws = drawAll(rows, 4);
    expect(draws.filter((d) => d.position !== null)).toHaveLength(4);
    expect(nextToDraw(draws, 4)).toBeNull();
    expect(nextToDraw(draws, 5)).not.toBeNull();
  });
});

describe("stratumDesigns", () => {
  const rows = drawAll(planDraws(population({ alpha: 6 }), 9), 4);
  const order = rows.filter((r) => r.mediator === "alpha").sort((a, b) => a.key - b.key);

  it("uses the longest drawn, complete prefix and counts drawn runs beyond it as left out", () => {
    // The first, second and fourth drawn runs are complete, the third is not.
    const complete = new Set([order[0].runId, order[1].runId, order[3].runId]);
    const [design] = stratumDesigns(rows, complete);
    expect(design.r).toBe(2);
    expect(design.leftOut).toBe(2);
    const expected = inclusionProbabilities(
      order.map((u) => ({ id: u.runId, size: u.size, key: u.key })),
      2,
    );
    expect(design.units.map((u) => u.pi)).toEqual(expected);
    expect(design.units.map((u) => u.inPrefix)).toEqual([true, true, false, false, false, false]);
  });

  it("every run certain once all are drawn and complete", () => {
    const all = drawAll(planDraws(population({ alpha: 6 }), 9), 6);
    const [design] = stratumDesigns(all, new Set(all.map((r) => r.runId)));
    expect(design.r).toBe(6);
    expect(design.units.every((u) => u.pi === 1)).toBe(true);
  });
});

describe("activeStratumEstimate", () => {
  it("with every run labelled it is the plain mean of the human values", () => {
    const all = drawAll(planDraws(population({ alpha: 5 }), 2), 5);
    const [design] = stratumDesigns(all, new Set(all.map((r) => r.runId)));
    const y = new Map(all.map((r, i) => [r.runId, i / 10]));
    const { estimate } = activeStratumEstimate(
      design,
      () => 0.5,
      (id) => y.get(id) ?? null,
    );
    expect(estimate?.estimate).toBeCloseTo((0 + 0.1 + 0.2 + 0.3 + 0.4) / 5, 12);
  });

  it("counts runs without a judge value instead of using them", () => {
    const all = drawAll(planDraws(population({ alpha: 5 }), 2), 5);
    const [design] = stratumDesigns(all, new Set(all.map((r) => r.runId)));
    const out = activeStratumEstimate(
      design,
      (id) => (id === "alpha-r0" ? null : 0.5),
      () => 0.3,
    );
    expect(out.missingJudge).toBe(1);
    expect(out.estimate?.units).toBe(4);
  });

  it("is unbiased over seeds when labelling stops after a prefix", () => {
    // A synthetic population where the judge is informative and its uncertainty tracks its error.
    const rng = createRng(77);
    const runs: PopulationRun[] = [];
    const f = new Map<string, number>();
    const y = new Map<string, number>();
    for (let i = 0; i < 120; i++) {
      const truth = rng();
      const noise = rng() * 0.3;
      const runId = `u${i}`;
      y.set(runId, truth);
      f.set(runId, Math.min(1, Math.max(0, truth + (rng() < 0.5 ? -noise : noise))));
      runs.push({ runId, mediator: "m", uncertainty: noise });
    }
    const truth = [...y.values()].reduce((s, v) => s + v, 0) / y.size;
    let sum = 0;
    const reps = 300;
    for (let seed = 1; seed <= reps; seed++) {
      const drawn = drawAll(planDraws(runs, seed), 30);
      const [design] = stratumDesigns(drawn, new Set(drawn.filter((d) => d.position !== null).map((d) => d.runId)));
      expect(design.r).toBe(30);
      const { estimate } = activeStratumEstimate(
        design,
        (id) => f.get(id) ?? null,
        (id) => y.get(id) ?? null,
      );
      sum += estimate!.estimate;
    }
    expect(Math.abs(sum / reps - truth)).toBeLessThan(0.01);
  });
});
