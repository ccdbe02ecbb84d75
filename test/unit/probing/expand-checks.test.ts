/** The writer replies' checks and the template expansions, as pure functions. */
import { describe, expect, it } from "vitest";
import { conditionSchema } from "../../../app/domain/bundle.ts";
import { checkConditionPersonas } from "../../../app/domain/bundle-checks.ts";
import { templateBody, templateTexts } from "../../../app/domain/probing/expand.ts";
import {
  assembleHistory,
  checkHistoryBody,
  checkHistoryReply,
  type HistoryReply,
} from "../../../app/domain/probing/history.ts";
import {
  checkNewPartyReply,
  checkNewPartyWeights,
  checkThreePartyBody,
  assembleThreeParty,
  type NewPartyReply,
} from "../../../app/domain/probing/three-party.ts";
import { STRATEGY_INSTRUCTIONS } from "../../../app/domain/probing/strategy.ts";
import { expandTemplate } from "../../../app/server/probing/probe.server.ts";
import { seedReport } from "../curation/writer-helpers.ts";
import { fixtureScenario } from "./probe-helpers.ts";

const base = fixtureScenario("valley", "Valley water");
const rules = (problems: { rule: string }[]) => [...new Set(problems.map((p) => p.rule))].sort();

const newParty = (over: Partial<NewPartyReply["party"]> = {}): NewPartyReply => ({
  party: {
    id: "TOWN",
    name: "Valley town council",
    role: "Keeps the valley's roads open.",
    relation: "Neighbour of both.",
    preferences: { WATER: "Option C: a rota.", ROAD: "Option B: split it." },
    ...over,
  },
  introduction: "The town council joins the talks.",
});

const history = (dates: string[], length = 300): HistoryReply => ({
  entries: dates.map((date) => ({ date, event: "x".repeat(length) })),
});

describe("three-party checks", () => {
  it("accepts a distinct party with a stance on every topic", () => {
    expect(checkNewPartyReply(newParty(), base, null)).toEqual([]);
  });

  it("names a taken or malformed id, a repeated name, a missing or off-option stance, and a real name from the seed", () => {
    expect(rules(checkNewPartyReply(newParty({ id: "ORCH" }), base, null))).toEqual(["distinct-party"]);
    expect(rules(checkNewPartyReply(newParty({ id: "MEDIATOR" }), base, null))).toEqual(["new-party-id"]);
    expect(rules(checkNewPartyReply(newParty({ name: "Party orch" }), base, null))).toEqual(["distinct-party"]);
    expect(rules(checkNewPartyReply(newParty({ preferences: { WATER: "Option D: none." } }), base, null))).toEqual([
      "stance-among-options",
      "stance-on-every-topic",
    ]);
    expect(rules(checkNewPartyReply(newParty({ name: "Northwind Regional Health" }), base, seedReport("x")))).toEqual([
      "fictional-names",
    ]);
  });

  it("wants weights for the new party only, summing to 10", () => {
    const party = newParty().party;
    expect(checkNewPartyWeights({ weights: { TOWN: { WATER: 6, ROAD: 4 } } }, base, party)).toEqual([]);
    expect(
      rules(
        checkNewPartyWeights({ weights: { TOWN: { WATER: 6, ROAD: 3 }, ORCH: { WATER: 5, ROAD: 5 } } }, base, party),
      ),
    ).toEqual(["weights-for-new-party-only", "weights-sum-to-10"]);
  });

  it("finds an original party changed after assembly", () => {
    const body = assembleThreeParty(base, newParty(), { weights: { TOWN: { WATER: 6, ROAD: 4 } } });
    expect(checkThreePartyBody(base, body)).toEqual([]);
    body.parties[0] = { ...body.parties[0], role: "Something else." };
    expect(rules(checkThreePartyBody(base, body))).toEqual(["parties-verbatim"]);
  });
});

describe("history checks", () => {
  const long = Math.round(base.background.length); // four entries of the background's length: about 5×

  it("accepts four chronological entries at about five times the length", () => {
    const reply = history(["2019", "2020-03", "2020-03-15", "2021-11"], long);
    expect(checkHistoryReply(reply, base, null)).toEqual([]);
    expect(checkHistoryBody(base, assembleHistory(base, reply))).toEqual([]);
  });

  it("names the count, the order, the date form and the ratio", () => {
    expect(rules(checkHistoryReply(history(["2019", "2020", "2021"], long + 100), base, null))).toEqual([
      "four-entries",
    ]);
    expect(rules(checkHistoryReply(history(["2021", "2020", "2022", "2023"], long), base, null))).toEqual([
      "chronological",
    ]);
    expect(rules(checkHistoryReply(history(["March 2020", "2020", "2022", "2023"], long), base, null))).toEqual([
      "dated-entries",
    ]);
    const short = checkHistoryReply(history(["2019", "2020", "2021", "2022"], 20), base, null);
    expect(short[0].message).toMatch(
      /^the expanded background is 1\.\d+× the original \(241 characters\); it must be 3–8×/,
    );
    expect(rules(checkHistoryReply(history(["2019", "2020", "2021", "2022"], long * 3), base, null))).toEqual([
      "length-ratio",
    ]);
  });
});

describe("template expansion", () => {
  it("builds conditions the import accepts, and nothing but their texts changes", () => {
    for (const [axis, variant] of [
      ["strategy", "avoiding"],
      ["emotion", "RR"],
      ["culture", "CN-KR"],
    ] as const) {
      const condition = expandTemplate({ ...base, title: base.title }, axis, variant);
      expect(conditionSchema.safeParse(condition).success).toBe(true);
      expect(checkConditionPersonas(condition, 0)).toEqual([]);
    }
    expect(templateTexts(base, "strategy", "avoiding")).toEqual([STRATEGY_INSTRUCTIONS.avoiding]);
    expect(templateTexts(base, "emotion", "RR")).toHaveLength(1);
  });

  it("gives the first party the first letter and every other party the second, with three parties", () => {
    const three = fixtureScenario("trio", "Trio", ["ORCH", "MILL", "TOWN"]);
    expect(templateBody(three, "emotion", "CR").parties.map((p) => p.reactiveness)).toEqual([0, 1, 1]);
    expect(templateBody(three, "culture", "US-KR").parties.map((p) => p.culture)).toEqual(["US", "KR", "KR"]);
    expect(three.parties[0].persona).toBeUndefined(); // the base is never changed
  });
});
