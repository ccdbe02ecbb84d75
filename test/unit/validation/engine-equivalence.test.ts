// The dashboard's figures equal the statistics engine's output on the same labels: a generated
// study is run through the validation modules, and the same numbers are recomputed here from the
// raw scores with a matrix and vectors built independently, then fed to the engine directly.
import { describe, expect, it } from "vitest";
import { bootstrapAlpha, createRng, krippendorffAlpha, pearson, randomInt } from "../../../app/domain/stats/index.ts";
import {
  alignmentTable,
  consensusAgreement,
  seriesLookup,
  type ConsensusLabelRow,
  type Pool,
} from "../../../app/domain/validation/index.ts";
import { naiveAlpha } from "../stats/helpers.ts";
import { item, label } from "./fixtures.ts";

const TOL = 1e-12;
const TOPICS = ["PRICE", "TERMS", "DATE"];
const EXPERTS = ["e1", "e2", "e3", "e4"];
const CROWD = ["w1", "w2", "w3", "w4", "w5"];

/** A study: runs with 3–6 snippets; each snippet scored by a random subset of each pool. */
function generate(seed: number) {
  const rng = createRng(seed);
  const runs = Array.from({ length: 10 }, (_, r) => ({
    runId: `run-${String(r).padStart(2, "0")}`,
    snippets: 3 + randomInt(rng, 4),
  }));
  // truth[annotator][runId][position][topic] = score; the latent level makes raters agree somewhat.
  const truth: Record<string, Record<string, Record<number, Record<string, number>>>> = {};
  const latent = (runId: string, pos: number, t: number) => 1 + ((runId.charCodeAt(5) + pos * (t + 1)) % 5);
  const clamp = (v: number) => Math.max(1, Math.min(5, v));
  const items = [];
  const labels: ConsensusLabelRow[] = [];
  let nextId = 1;
  for (const { runId, snippets } of runs) {
    for (let pos = 1; pos <= snippets; pos++) {
      const last = pos === snippets;
      const itemId = nextId++;
      items.push(item(itemId, runId, pos, { last, topics: TOPICS, endTurn: pos * 3 }));
      for (const [pool, people] of [
        ["expert", EXPERTS],
        ["crowd", CROWD],
      ] as [Pool, string[]][]) {
        for (const who of people) {
          if (rng() < (pool === "expert" ? 0.45 : 0.35)) continue;
          const scores: Record<string, number> = {};
          TOPICS.forEach((t, k) => (scores[t] = clamp(latent(runId, pos, k) + randomInt(rng, 3) - 1)));
          ((truth[who] ??= {})[runId] ??= {})[pos] = scores;
          labels.push(label(itemId, who, pool, scores));
        }
      }
    }
    // A gold item per run, labelled by everyone with wild scores: must change nothing.
    const goldId = nextId++;
    items.push(item(goldId, runId, 99, { gold: true, topics: TOPICS, endTurn: 1 }));
    for (const who of [...EXPERTS, ...CROWD])
      labels.push(label(goldId, who, EXPERTS.includes(who) ? "expert" : "crowd", { PRICE: 5, TERMS: 1, DATE: 5 }));
  }
  // Evaluator series per (run, topic): turns 0..3·snippets.
  const series = runs.flatMap(({ runId, snippets }) =>
    TOPICS.map((topicId) => ({
      runId,
      topicId,
      values: Array.from({ length: 3 * snippets + 1 }, () => 1 + randomInt(rng, 5)),
    })),
  );
  return { runs, truth, items, labels, series };
}

describe("dashboard figures vs the statistics engine", () => {
  for (const seed of [1, 2, 3]) {
    const study = generate(seed);
    // Independent enumeration of units: runs and positions in order, topics in the item's order.
    const units = study.runs.flatMap(({ runId, snippets }) =>
      Array.from({ length: snippets }, (_, i) => i + 1).flatMap((pos) =>
        TOPICS.map((topic) => ({ runId, pos, topic, last: pos === snippets })),
      ),
    );
    const score = (who: string, u: (typeof units)[number]) => study.truth[who]?.[u.runId]?.[u.pos]?.[u.topic] ?? null;

    it(`alpha (interval, ordinal) and its bootstrap, seed ${seed}`, () => {
      for (const [pool, people] of [
        ["expert", EXPERTS],
        ["crowd", CROWD],
      ] as [Pool, string[]][]) {
        const raters = people.filter((who) => units.some((u) => score(who, u) !== null));
        const matrix = raters.map((who) => units.map((u) => score(who, u)));
        const dash = consensusAgreement(study.items, study.labels, { pool, draws: 400, seed: 17 });
        expect(dash.raters).toEqual(raters);
        expect(dash.matrix).toEqual(matrix);
        for (const level of ["interval", "ordinal"] as const) {
          const engine = krippendorffAlpha(matrix, level);
          expect(engine.alpha).not.toBeNull();
          expect(Math.abs((dash[level].result.alpha as number) - (engine.alpha as number))).toBeLessThanOrEqual(TOL);
          expect(
            Math.abs((dash[level].result.alpha as number) - (naiveAlpha(matrix, level) as number)),
          ).toBeLessThanOrEqual(1e-9);
          expect(dash[level].result.units).toBe(engine.units);
          const boot = bootstrapAlpha(matrix, level, { draws: 400, seed: 17 });
          expect(dash[level].bootstrap.ci![0]).toBeCloseTo(boot.ci![0], 12);
          expect(dash[level].bootstrap.ci![1]).toBeCloseTo(boot.ci![1], 12);
        }
        // Leaving one rater out is the same as deleting their row.
        const without = consensusAgreement(study.items, study.labels, { pool, exclude: [raters[0]], draws: 50 });
        const engineWithout = krippendorffAlpha(matrix.slice(1), "interval");
        expect(without.raters).toEqual(raters.slice(1));
        expect(engineWithout.alpha).not.toBeNull();
        expect(
          Math.abs((without.interval.result.alpha as number) - (engineWithout.alpha as number)),
        ).toBeLessThanOrEqual(TOL);
      }
    });

    it(`alignment rows (evaluator and crowd), seed ${seed}`, () => {
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const scored = units
        .map((u) => {
          const experts = EXPERTS.map((who) => score(who, u)).filter((s): s is number => s !== null);
          const crowd = CROWD.map((who) => score(who, u)).filter((s): s is number => s !== null);
          const values = study.series.find((s) => s.runId === u.runId && s.topicId === u.topic)!.values;
          return { ...u, experts, crowd, evaluator: values[u.pos * 3] };
        })
        .filter((u) => u.experts.length >= 1);
      const table = alignmentTable(study.items, study.labels, {
        evaluators: [{ backbone: "m", valueAt: seriesLookup(study.series) }],
      });
      expect(table.units).toHaveLength(scored.length);

      const check = (actual: { r: number | null; n: number; p: number | null }, x: number[], y: number[]) => {
        const engine = pearson(x, y);
        expect(engine.r).not.toBeNull();
        expect(actual.n).toBe(engine.n);
        expect(Math.abs((actual.r as number) - (engine.r as number))).toBeLessThanOrEqual(TOL);
        expect(Math.abs((actual.p as number) - (engine.p as number))).toBeLessThanOrEqual(TOL);
      };
      const [evaluatorRow, crowdRow] = table.rows;
      const finals = scored.filter((u) => u.last);
      check(
        evaluatorRow.trajectory,
        scored.map((u) => u.evaluator),
        scored.map((u) => mean(u.experts)),
      );
      check(
        evaluatorRow.outcome,
        finals.map((u) => u.evaluator),
        finals.map((u) => mean(u.experts)),
      );
      const withCrowd = scored.filter((u) => u.crowd.length > 0);
      const finalsWithCrowd = withCrowd.filter((u) => u.last);
      expect(crowdRow.key).toBe("crowd");
      check(
        crowdRow.trajectory,
        withCrowd.map((u) => mean(u.crowd)),
        withCrowd.map((u) => mean(u.experts)),
      );
      check(
        crowdRow.outcome,
        finalsWithCrowd.map((u) => mean(u.crowd)),
        finalsWithCrowd.map((u) => mean(u.experts)),
      );
    });
  }
});
