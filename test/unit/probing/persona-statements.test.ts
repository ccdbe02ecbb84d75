import { describe, expect, it } from "vitest";
import { conditionSchema, type Condition, type Party, type ScenarioBody } from "../../../app/domain/bundle.ts";
import { checkConditionPersonas } from "../../../app/domain/bundle-checks.ts";
import {
  conditionId,
  parseFidelityVariant,
  personaAssignment,
  PROBE_CONDITIONS,
} from "../../../app/domain/probing/conditions.ts";
import {
  cultureStatement,
  formatLevel,
  HOFSTEDE,
  reactivenessStatement,
  withPersona,
} from "../../../app/domain/probing/personas.ts";

const party = (id: string, persona?: string): Party => ({
  id,
  name: `Party ${id}`,
  role: "Wants the deal on its terms.",
  relation: "Long-time counterpart.",
  preferences: { PRICE: "Prefers A." },
  weights: { PRICE: 10 },
  ...(persona ? { persona } : {}),
});

const body = (parties: Party[]): ScenarioBody => ({
  background: "Two firms disagree about a price.",
  topics: [
    {
      id: "PRICE",
      name: "Price",
      description: "The unit price.",
      options: [
        { label: "A", description: "Low." },
        { label: "B", description: "High." },
      ],
    },
  ],
  parties,
});

describe("the condition catalogue", () => {
  it("lists the 15 conditions of Table 5, in order, with distinct ids", () => {
    expect(PROBE_CONDITIONS.map((c) => `${c.axis}:${c.variant}`)).toEqual([
      "general:default",
      "strategy:competing",
      "strategy:avoiding",
      "strategy:accommodating",
      "parties:three-party",
      "history:extended",
      "emotion:CC",
      "emotion:CR",
      "emotion:RR",
      "culture:US-US",
      "culture:CN-CN",
      "culture:KR-KR",
      "culture:US-CN",
      "culture:US-KR",
      "culture:CN-KR",
    ]);
    const ids = PROBE_CONDITIONS.map((c) => conditionId("s1", c.axis, c.variant));
    expect(new Set(ids).size).toBe(15);
    expect(ids[0]).toBe("s1:general");
    expect(ids[7]).toBe("s1:emotion:CR");
  });

  it("gives the first party the first letter or code and every other party the second", () => {
    const ids = ["A1", "B2", "C3"];
    expect([...personaAssignment("emotion", "CR", ids)!]).toEqual([
      ["A1", { reactiveness: 0 }],
      ["B2", { reactiveness: 1 }],
      ["C3", { reactiveness: 1 }],
    ]);
    expect([...personaAssignment("culture", "US-CN", ids)!].map(([id, s]) => `${id}=${s.culture}`)).toEqual([
      "A1=US",
      "B2=CN",
      "C3=CN",
    ]);
    expect(personaAssignment("strategy", "competing", ids)).toBeNull();
    expect(personaAssignment("emotion", "XX", ids)).toBeNull();
  });

  it("reads a fidelity variant: the target at k/3, the rest at j/3", () => {
    expect(parseFidelityVariant("B2-1of3-ref3of3")).toEqual({ target: "B2", level: 1 / 3, reference: 1 });
    expect(parseFidelityVariant("B2-2of3-ref2of3")).toBeNull();
    const levels = personaAssignment("fidelity", "B2-0of3-ref2of3", ["A1", "B2"])!;
    expect(levels.get("B2")).toEqual({ reactiveness: 0 });
    expect(levels.get("A1")).toEqual({ reactiveness: 2 / 3 });
    expect(personaAssignment("fidelity", "ZZ-0of3-ref2of3", ["A1", "B2"])).toBeNull();
  });
});

describe("persona statements", () => {
  it("carry the spec's Hofstede scores", () => {
    expect(HOFSTEDE.US).toEqual({ PDI: 40, IDV: 91, MAS: 62, UAI: 46, LTO: 26, IVR: 68 });
    expect(HOFSTEDE.CN).toEqual({ PDI: 80, IDV: 20, MAS: 66, UAI: 30, LTO: 87, IVR: 24 });
    expect(HOFSTEDE.KR).toEqual({ PDI: 60, IDV: 18, MAS: 39, UAI: 85, LTO: 100, IVR: 29 });
    const kr = cultureStatement("KR");
    for (const score of ["60/100", "18/100", "39/100", "85/100", "100/100", "29/100"]) expect(kr).toContain(score);
    expect(kr).toMatch(/English/);
  });

  it("write the level into one template, and refuse a level outside [0, 1]", () => {
    expect([0, 1 / 3, 2 / 3, 1].map(formatLevel)).toEqual(["0", "1/3", "2/3", "1"]);
    expect(reactivenessStatement(2 / 3)).toContain("2/3 on a scale from 0");
    expect(reactivenessStatement(0)).not.toEqual(reactivenessStatement(1));
    expect(reactivenessStatement(0.5)).toBe(reactivenessStatement(0.5));
    expect(() => reactivenessStatement(1.2)).toThrow(RangeError);
  });

  it("set the structured fields and append after a persona the party already had", () => {
    const p = withPersona(party("A1", "Speaks slowly."), { reactiveness: 1, culture: "CN" });
    expect(p.reactiveness).toBe(1);
    expect(p.culture).toBe("CN");
    expect(p.persona).toBe(["Speaks slowly.", cultureStatement("CN"), reactivenessStatement(1)].join("\n\n"));
    expect(withPersona(party("A1"), {})).toEqual(party("A1"));
  });
});

describe("the import's persona check", () => {
  const condition = (variant: string, parties: Party[]): Condition => ({
    id: `s1:emotion:${variant}`,
    scenario_id: "s1",
    axis: "emotion",
    variant,
    expanded: body(parties),
  });

  it("accepts a condition built with withPersona", () => {
    const c = condition("CR", [
      withPersona(party("A1"), { reactiveness: 0 }),
      withPersona(party("B2"), { reactiveness: 1 }),
    ]);
    expect(checkConditionPersonas(c, 0)).toEqual([]);
  });

  it("names the party and field when a level or a statement is wrong", () => {
    const wrongLevel = condition("CR", [
      withPersona(party("A1"), { reactiveness: 1 }),
      withPersona(party("B2"), { reactiveness: 1 }),
    ]);
    expect(checkConditionPersonas(wrongLevel, 3)).toEqual([
      {
        path: ["conditions", 3, "expanded", "parties", 0, "reactiveness"],
        message: `"CR" sets A1's reactiveness to 0, got 1`,
      },
    ]);
    const noStatement = condition("RR", [
      { ...party("A1"), reactiveness: 1 },
      withPersona(party("B2"), { reactiveness: 1 }),
    ]);
    expect(checkConditionPersonas(noStatement, 0)[0].path).toEqual([
      "conditions",
      0,
      "expanded",
      "parties",
      0,
      "persona",
    ]);
    const culture: Condition = {
      id: "s1:culture:US-KR",
      scenario_id: "s1",
      axis: "culture",
      variant: "US-KR",
      expanded: body([withPersona(party("A1"), { culture: "US" }), withPersona(party("B2"), { culture: "CN" })]),
    };
    expect(checkConditionPersonas(culture, 0)).toEqual([
      {
        path: ["conditions", 0, "expanded", "parties", 1, "culture"],
        message: `"US-KR" sets B2's culture to KR, got CN`,
      },
    ]);
  });

  it("refuses a fidelity variant with equal levels or a bad shape", () => {
    const parsed = (variant: string) =>
      conditionSchema.safeParse({
        id: "s1:f",
        scenario_id: "s1",
        axis: "fidelity",
        variant,
        expanded: body([party("A1"), party("B2")]),
      });
    expect(parsed("A1-1of3-ref1of3").success).toBe(false);
    expect(parsed("A1-4of3-ref1of3").success).toBe(false);
    expect(parsed("A1-1of3-ref2of3").success).toBe(true);
  });
});
