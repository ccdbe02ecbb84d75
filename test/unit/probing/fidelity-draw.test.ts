import { describe, expect, it } from "vitest";
import { conditionSchema, type ScenarioBody } from "../../../app/domain/bundle.ts";
import { checkConditionPersonas } from "../../../app/domain/bundle-checks.ts";
import { drawFidelityPairs } from "../../../app/domain/probing/fidelity-draw.ts";
import { fidelityCondition } from "../../../app/domain/probing/fidelity.ts";
import { REACTIVENESS_GRID, reactivenessStatement } from "../../../app/domain/probing/personas.ts";

const POOL = [
  { id: "s-two", partyIds: ["ANN", "BOB"] },
  { id: "s-three", partyIds: ["X", "Y", "Z"] },
];

describe("the persona-fidelity draw", () => {
  const draws = drawFidelityPairs(POOL, 40, 7);

  it("gives the target two different grid levels and the others a third, on a party of the drawn scenario", () => {
    for (const d of draws) {
      expect(new Set([d.levelA, d.levelB, d.reference]).size, `pair ${d.index}`).toBe(3);
      for (const k of [d.levelA, d.levelB, d.reference]) expect(REACTIVENESS_GRID[k]).toBeDefined();
      expect(POOL.find((s) => s.id === d.scenarioId)!.partyIds).toContain(d.target);
    }
    expect(new Set(draws.map((d) => d.scenarioId))).toEqual(new Set(["s-two", "s-three"]));
  });

  it("balances which side shows the higher level in every prefix", () => {
    for (let n = 1; n <= draws.length; n++) {
      const aHigher = draws.slice(0, n).filter((d) => d.levelA > d.levelB).length;
      expect(Math.abs(aHigher - (n - aHigher)), `first ${n} pairs`).toBeLessThanOrEqual(1);
    }
  });

  it("is determined by the seed, keeps earlier pairs when more are drawn, and changes with another seed", () => {
    expect(drawFidelityPairs(POOL, 40, 7)).toEqual(draws);
    expect(drawFidelityPairs([...POOL].reverse(), 10, 7)).toEqual(draws.slice(0, 10));
    expect(drawFidelityPairs(POOL, 40, 8)).not.toEqual(draws);
  });

  it("refuses an empty pool", () => {
    expect(() => drawFidelityPairs([], 1, 1)).toThrow(/at least one scenario/);
  });
});

describe("a fidelity condition", () => {
  const body: ScenarioBody = {
    background: "Two neighbours argue over a fence.",
    topics: [
      {
        id: "FENCE",
        name: "Fence",
        description: "Its height.",
        options: [
          { label: "A", description: "Low" },
          { label: "B", description: "High" },
        ],
      },
    ],
    parties: [
      {
        id: "ANN",
        name: "Ann",
        role: "Wants light.",
        relation: "Neighbour",
        preferences: { FENCE: "Low." },
        weights: { FENCE: 10 },
      },
      {
        id: "BOB",
        name: "Bob",
        role: "Wants privacy.",
        relation: "Neighbour",
        preferences: { FENCE: "High." },
        weights: { FENCE: 10 },
        persona: "Speaks slowly.",
      },
    ],
  };
  const condition = fidelityCondition(
    { scenarioId: "s-two", body, target: "BOB", levelIndex: 3, referenceIndex: 1 },
    "abc123",
  );

  it("sets the target's level and every other party's reference level, structured and as the statement, and passes the import check", () => {
    expect(condition.id).toBe("s-two:fidelity:BOB-3of3-ref1of3");
    expect(conditionSchema.safeParse(condition).success).toBe(true);
    expect(checkConditionPersonas(condition, 0)).toEqual([]);
    const [ann, bob] = condition.expanded!.parties;
    expect([ann.reactiveness, bob.reactiveness]).toEqual([1 / 3, 1]);
    expect(bob.persona).toBe(`Speaks slowly.\n\n${reactivenessStatement(1)}`);
    expect(condition.expanded!.background).toBe(body.background);
    expect(condition.expanded!.topics).toEqual(body.topics);
    expect(condition.provenance).toEqual({ method: "template", prompt_version: "abc123" });
  });

  it("refuses a target that is not a party", () => {
    expect(() =>
      fidelityCondition({ scenarioId: "s-two", body, target: "EVE", levelIndex: 0, referenceIndex: 1 }, "v"),
    ).toThrow(/not a party/);
  });
});
