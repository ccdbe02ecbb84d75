// What each kind of condition changed against the general scenario, as the scenario page shows it.
import { describe, expect, it } from "vitest";
import { conditionDiff, personaChips, textDiff } from "../../../app/domain/probing/condition-diff.ts";
import { cultureStatement, reactivenessStatement } from "../../../app/domain/probing/personas.ts";
import {
  ADDED_PARTY,
  GENERAL_BODY,
  HISTORY_TEXT,
  probingConditions,
  STRATEGY_TEXT,
} from "../../fixtures/probing-fixture.ts";

const expandedOf = (id: string) => probingConditions().find((c) => c.id === id)!.expanded!;

describe("textDiff", () => {
  it("finds text appended, prepended, and a changed middle", () => {
    expect(textDiff("abc", "abc")).toEqual({ change: "unchanged", segments: [{ kind: "same", text: "abc" }] });
    expect(textDiff("abc", "abc\n\nxyz")).toEqual({
      change: "appended",
      segments: [
        { kind: "same", text: "abc" },
        { kind: "added", text: "\n\nxyz" },
      ],
    });
    // The added text starts like the old one: still prepended, not a middle edit.
    expect(textDiff("The end.", "The start.\n\nThe end.")).toEqual({
      change: "prepended",
      segments: [
        { kind: "added", text: "The start.\n\n" },
        { kind: "same", text: "The end." },
      ],
    });
    expect(textDiff("one two three", "one 2 three")).toEqual({
      change: "changed",
      segments: [
        { kind: "same", text: "one " },
        { kind: "removed", text: "two" },
        { kind: "added", text: "2" },
        { kind: "same", text: " three" },
      ],
    });
    expect(textDiff("", "new")).toEqual({ change: "appended", segments: [{ kind: "added", text: "new" }] });
    expect(textDiff("old", "")).toEqual({ change: "changed", segments: [{ kind: "removed", text: "old" }] });
  });

  it("never lets the shared start and end overlap", () => {
    // "aa" → "aaa": one "a" added, and the pieces put back together give both texts.
    for (const [before, after] of [
      ["aa", "aaa"],
      ["abab", "ab"],
      ["xyx", "xyyx"],
      ["abcabc", "abXabc"],
    ]) {
      const { segments } = textDiff(before, after);
      expect(
        segments
          .filter((s) => s.kind !== "added")
          .map((s) => s.text)
          .join(""),
      ).toBe(before);
      expect(
        segments
          .filter((s) => s.kind !== "removed")
          .map((s) => s.text)
          .join(""),
      ).toBe(after);
    }
  });
});

describe("conditionDiff", () => {
  it("strategy: the paragraph appended to the background, nothing else", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:strategy:competing"));
    expect(diff.background).toEqual({
      change: "appended",
      segments: [
        { kind: "same", text: GENERAL_BODY.background },
        { kind: "added", text: `\n\n${STRATEGY_TEXT}` },
      ],
    });
    expect(diff.topics).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.parties.map((p) => p.status)).toEqual(["unchanged", "unchanged"]);
    expect(diff.unchanged).toBe(false);
  });

  it("history: the dated entries before the unchanged background", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:history:extended"));
    expect(diff.background.change).toBe("prepended");
    expect(diff.background.segments).toEqual([
      { kind: "added", text: `${HISTORY_TEXT}\n\n` },
      { kind: "same", text: GENERAL_BODY.background },
    ]);
  });

  it("three-party: one party added, the others unchanged", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:parties:three-party"));
    expect(diff.parties.map((p) => [p.id, p.status])).toEqual([
      ["BUY", "unchanged"],
      ["SELL", "unchanged"],
      ["LEND", "added"],
    ]);
    expect(diff.parties[2].party).toEqual(ADDED_PARTY);
    expect(diff.background.change).toBe("unchanged");
  });

  it("emotion: each party's reactiveness and its statement added as persona", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:emotion:CR"));
    const [buy, sell] = diff.parties;
    expect(buy.status).toBe("changed");
    expect(buy.changes).toEqual([
      { field: "persona", before: null, after: reactivenessStatement(0) },
      { field: "reactiveness", before: null, after: 0 },
    ]);
    expect(buy.persona).toEqual({ change: "appended", segments: [{ kind: "added", text: reactivenessStatement(0) }] });
    expect(buy.chips).toEqual(["reactiveness 0"]);
    expect(sell.chips).toEqual(["reactiveness 1"]);
    expect(diff.background.change).toBe("unchanged");
  });

  it("culture: identities as chips and their statements", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:culture:US-CN"));
    expect(diff.parties.map((p) => p.chips)).toEqual([["culture US"], ["culture CN"]]);
    expect(diff.parties[1].changes.map((c) => c.field)).toEqual(["persona", "culture"]);
    expect(diff.parties[1].persona?.segments).toEqual([{ kind: "added", text: cultureStatement("CN") }]);
  });

  it("fidelity: the target at its level, the other party at the reference", () => {
    const diff = conditionDiff(GENERAL_BODY, expandedOf("probe-fx:fidelity:BUY-2of3-ref1of3"));
    expect(diff.parties.map((p) => p.chips)).toEqual([["reactiveness 2/3"], ["reactiveness 1/3"]]);
  });

  it("reports every field of a party that changed, topics changed, and a removed party", () => {
    const [buy, sell] = GENERAL_BODY.parties;
    const edited = {
      ...GENERAL_BODY,
      topics: [{ ...GENERAL_BODY.topics[0], name: "Price paid" }, GENERAL_BODY.topics[1]],
      parties: [
        {
          ...buy,
          role: "Owns a bakery.",
          relation: "Customer",
          preferences: { ...buy.preferences, PRICE: "Pay nothing." },
          weights: { PRICE: 6, WARRANTY: 4 },
          persona: "Tired.",
        },
      ],
    };
    const diff = conditionDiff({ ...GENERAL_BODY, parties: [{ ...buy, persona: "Calm." }, sell] }, edited);
    expect(diff.topics).toEqual({ added: [], removed: [], changed: ["PRICE"] });
    expect(diff.parties[0].changes).toEqual([
      { field: "role", before: buy.role, after: "Owns a bakery." },
      { field: "relation", before: buy.relation, after: "Customer" },
      { field: "stance", topic: "PRICE", before: buy.preferences.PRICE, after: "Pay nothing." },
      { field: "weight", topic: "PRICE", before: 7, after: 6 },
      { field: "weight", topic: "WARRANTY", before: 3, after: 4 },
      { field: "persona", before: "Calm.", after: "Tired." },
    ]);
    expect(diff.parties[0].persona?.change).toBe("changed");
    expect(diff.parties[1]).toMatchObject({ id: "SELL", status: "removed" });
    expect(conditionDiff(GENERAL_BODY, GENERAL_BODY).unchanged).toBe(true);
  });

  it("names persona settings as chips", () => {
    expect(personaChips({ ...GENERAL_BODY.parties[0], reactiveness: 1 / 3, culture: "KR" })).toEqual([
      "reactiveness 1/3",
      "culture KR",
    ]);
    expect(personaChips(GENERAL_BODY.parties[0])).toEqual([]);
  });
});
