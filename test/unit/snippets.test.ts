import { describe, expect, it } from "vitest";
import { segmentSnippets, type SnippetTurn } from "../../app/domain/snippets.ts";

const turns = (speakers: string[]): SnippetTurn[] =>
  speakers.map((speaker, i) => ({ turnId: i + 1, speaker, role: speaker === "MEDIATOR" ? "mediator" : "party" }));

describe("segmentSnippets", () => {
  it("cuts a two-party run at each turn of the first speaker, mediator turns staying in the snippet they fall in", () => {
    // turns: 1 A, 2 B, 3 M, 4 A, 5 B, 6 M, 7 A, 8 B
    const spans = segmentSnippets(turns(["A", "B", "MEDIATOR", "A", "B", "MEDIATOR", "A", "B"]), ["A", "B"]);
    expect(spans).toEqual([
      { position: 1, startTurn: 1, endTurn: 3, isLast: false, isPartial: false },
      { position: 2, startTurn: 4, endTurn: 6, isLast: false, isPartial: false },
      { position: 3, startTurn: 7, endTurn: 8, isLast: true, isPartial: false },
    ]);
  });

  it("handles three parties and a partial last snippet", () => {
    // turns: 1 A, 2 B, 3 C, 4 M, 5 A, 6 B, 7 M, 8 C, 9 A, 10 B  (the run stops before C's third turn)
    const spans = segmentSnippets(turns(["A", "B", "C", "MEDIATOR", "A", "B", "MEDIATOR", "C", "A", "B"]), [
      "A",
      "B",
      "C",
    ]);
    expect(spans.map((s) => [s.startTurn, s.endTurn, s.isPartial, s.isLast])).toEqual([
      [1, 4, false, false],
      [5, 8, false, false],
      [9, 10, true, true],
    ]);
  });

  it("makes a one-turn last snippet when the run ends on the first speaker", () => {
    const spans = segmentSnippets(turns(["A", "B", "A"]), ["A", "B"]);
    expect(spans.map((s) => [s.startTurn, s.endTurn, s.isPartial])).toEqual([
      [1, 2, false],
      [3, 3, true],
    ]);
  });

  it("uses the cyclic order, not the first speaker seen, and keeps leading turns in snippet 1", () => {
    // Order starts with B; turn 1 (A) is before B's first turn, so it opens snippet 1.
    const spans = segmentSnippets(turns(["A", "B", "A", "B"]), ["B", "A"]);
    expect(spans.map((s) => [s.startTurn, s.endTurn])).toEqual([
      [1, 1],
      [2, 3],
      [4, 4],
    ]);
  });

  it("cuts a free-order run every n party turns (n parties), mediator runs staying where they fall", () => {
    // turns: 1 M, 2 M, 3 B, 4 B, 5 C, 6 M, 7 A, 8 C, 9 M, 10 M, 11 A, 12 B (three parties, any order);
    // party turns 4 and 7 (turns 7 and 12) open snippets
    const speakers = ["MEDIATOR", "MEDIATOR", "B", "B", "C", "MEDIATOR", "A", "C", "MEDIATOR", "MEDIATOR", "A", "B"];
    const spans = segmentSnippets(turns(speakers), ["A", "B", "C"], "free");
    expect(spans.map((s) => [s.startTurn, s.endTurn, s.isPartial, s.isLast])).toEqual([
      [1, 6, false, false],
      [7, 11, false, false],
      [12, 12, true, true],
    ]);
    // The same turns read as a cyclic run would cut at A's turns only.
    expect(segmentSnippets(turns(speakers), ["A", "B", "C"]).map((s) => s.startTurn)).toEqual([1, 7, 11]);
  });

  it("returns nothing for an empty run", () => {
    expect(segmentSnippets([], ["A", "B"])).toEqual([]);
  });
});
