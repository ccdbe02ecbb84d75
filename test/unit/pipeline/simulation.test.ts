import { describe, expect, it } from "vitest";
import type { Turn } from "../../../app/domain/bundle.ts";
import {
  callSeed,
  estimateCalls,
  matchedPairId,
  outcomeAfter,
  partyForTurn,
  runSeed,
  sanitiseId,
} from "../../../app/domain/simulation/schedule.ts";
import { identifiedRunId } from "../../../app/domain/simulation/run-identity.ts";
import { renderMessages } from "../../../app/server/pipeline/prompt-templates.server.ts";

const party = (speaker: string, signal: Turn["signal"]): Pick<Turn, "role" | "speaker" | "signal"> => ({
  role: "party",
  speaker,
  signal,
});
const mediator: Pick<Turn, "role" | "speaker" | "signal"> = { role: "mediator", speaker: "MEDIATOR" };

describe("cyclic order", () => {
  it("cycles through the parties in their fixed order", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => partyForTurn(["A", "B", "C"], i))).toEqual([
      "A",
      "B",
      "C",
      "A",
      "B",
      "C",
      "A",
    ]);
  });
  it("refuses an empty order", () => {
    expect(() => partyForTurn([], 0)).toThrow(/empty/);
  });
});

describe("termination", () => {
  const order = ["A", "B"];
  it("goes on while not every party agrees", () => {
    expect(outcomeAfter(order, [party("A", "consensus")], 30)).toBeNull();
    expect(outcomeAfter(order, [party("A", "continue"), party("B", "consensus")], 30)).toBeNull();
  });
  it("resolves when every party's latest signal is consensus, mediator turns in between or not", () => {
    expect(
      outcomeAfter(order, [party("A", "continue"), party("B", "consensus"), mediator, party("A", "consensus")], 30),
    ).toBe("resolved");
  });
  it("does not count a consensus the party later took back", () => {
    const turns = [party("A", "consensus"), party("B", "continue"), party("A", "continue"), party("B", "consensus")];
    expect(outcomeAfter(order, turns, 30)).toBeNull();
    expect(outcomeAfter(order, [...turns, party("A", "consensus")], 30)).toBe("resolved");
  });
  it("ends in impasse on a walk-away, even on the budget's last turn", () => {
    expect(outcomeAfter(order, [party("A", "continue"), party("B", "walk-away")], 30)).toBe("impasse");
    expect(outcomeAfter(order, [party("A", "continue"), party("B", "walk-away")], 2)).toBe("impasse");
  });
  it("counts only party turns against the budget", () => {
    const turns = [party("A", "continue"), mediator, party("B", "continue"), mediator, party("A", "continue")];
    expect(outcomeAfter(order, turns, 4)).toBeNull();
    expect(outcomeAfter(order, [...turns, party("B", "continue")], 4)).toBe("budget");
  });
  it("prefers resolved over budget on the last turn", () => {
    expect(outcomeAfter(order, [party("A", "consensus"), party("B", "consensus")], 2)).toBe("resolved");
  });
});

describe("ids and seeds", () => {
  it("makes run ids from condition, mediator, simulator, index and settings hash, in the bundle id charset", () => {
    const settings = {
      condition_id: "sc-1:general",
      simulator: "deepseek/v3.2",
      mediator: "gpt-4o-mini",
      mediator_mode: "generic",
      turn_budget: 30,
      base_seed: 1,
      run_index: 3,
      seed: 5,
      prompt_version: "p",
      emotion: false,
    };
    const hash = "0123456789abcdef";
    expect(identifiedRunId(settings, hash)).toBe("sc-1:general:gpt-4o-mini:deepseek-v3.2:r3:0123456789");
    expect(identifiedRunId({ ...settings, mediator_mode: "social" }, hash)).toBe(
      "sc-1:general:gpt-4o-mini:social:deepseek-v3.2:r3:0123456789",
    );
    expect(
      identifiedRunId({ ...settings, mediator: null, mediator_mode: null, simulator: "sim", run_index: 0 }, hash),
    ).toBe("sc-1:general:none:sim:r0:0123456789");
    expect(matchedPairId("sc-1:general:m:sim:r0")).toBe("sc-1:general:m:sim:r0:pair");
  });
  it("keeps long ids within 120 characters and distinct", () => {
    const a = sanitiseId(`${"x".repeat(150)}:r1`);
    const b = sanitiseId(`${"x".repeat(150)}:r2`);
    expect(a.length).toBeLessThanOrEqual(120);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/);
    expect(sanitiseId("@org/model")).toMatch(/^[A-Za-z0-9]/);
  });
  it("derives stable, distinct seeds", () => {
    expect(runSeed(1, 0)).toBe(runSeed(1, 0));
    const seeds = new Set([0, 1, 2, 3].flatMap((i) => [runSeed(1, i), runSeed(2, i)]));
    expect(seeds.size).toBe(8);
    expect(callSeed(5, "party", 0)).not.toBe(callSeed(5, "party", 1));
    expect(callSeed(5, "party", 1)).not.toBe(callSeed(5, "mediator-when", 1));
    for (const s of seeds) expect(Number.isInteger(s) && s >= 0 && s <= 0x7fffffff).toBe(true);
  });
});

describe("call estimate", () => {
  it("counts party turns, and for mediated runs a decision and a possible turn per gap", () => {
    expect(estimateCalls({ mediatedRuns: 2, unmediatedRuns: 2, budget: 30 })).toEqual({
      runs: 4,
      partyCalls: 120,
      mediatorWhenCalls: 58,
      mediatorHowCalls: 58,
      total: 236,
    });
    expect(estimateCalls({ mediatedRuns: 0, unmediatedRuns: 3, budget: 10 }).total).toBe(30);
  });
});

describe("prompt templates", () => {
  it("loads the shipped templates from disk and names the template when a value is missing", () => {
    const values = { background: "B", participants: "P", topics: "T", dialogue: "D", last_speaker: "X" };
    const messages = renderMessages("mediator-when", values);
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1].content).toContain("X has just spoken");
    expect(() => renderMessages("party", values)).toThrow(
      /party\.md: no value for \{\{party_name\}\}, \{\{profile\}\}/,
    );
    expect(() => renderMessages("no-such-template", {})).toThrow(/no-such-template\.md: cannot read \(ENOENT\)/);
  });
});
