import { describe, expect, it } from "vitest";
import type { Party, Topic } from "../../../app/domain/bundle.ts";
import {
  describeParties,
  describeTopic,
  describeTopics,
  mediatorTurnIds,
  transcript,
  turnLine,
  type ContextTurn,
} from "../../../app/domain/prompts/transcript.ts";

const topic = (id: string): Topic => ({
  id,
  name: `Topic ${id}`,
  description: "What is at stake.",
  options: [
    { label: "A", description: "one way" },
    { label: "B", description: "another" },
  ],
});

const turns: ContextTurn[] = [
  { turnId: 1, speaker: "ANN", role: "party", utterance: "Mornings, please." },
  { turnId: 2, speaker: "MEDIATOR", role: "mediator", utterance: "Let us list the options." },
  { turnId: 3, speaker: "BOB", role: "party", utterance: "Fine." },
];

describe("judge-prompt renderings", () => {
  it("describes topics with their options, blank line between topics", () => {
    expect(describeTopic(topic("W"))).toBe("W: Topic W\n  What is at stake.\n  (A) one way\n  (B) another");
    expect(describeTopics([topic("W"), topic("R")])).toBe(
      `${describeTopic(topic("W"))}\n\n${describeTopic(topic("R"))}`,
    );
  });
  it("describes parties by public facts only", () => {
    const party: Party = {
      id: "ANN",
      name: "Ann",
      role: "secret aims",
      relation: "neighbour",
      preferences: { W: "secret stance" },
      weights: { W: 10 },
      persona: "secret persona",
    };
    const text = describeParties([party]);
    expect(text).toBe("- ANN: Ann (neighbour)");
    expect(text).not.toMatch(/secret/);
  });
  it("renders turns one per line, and says when nothing was said", () => {
    expect(turnLine(turns[0])).toBe("[1] ANN: Mornings, please.");
    expect(transcript(turns)).toBe(
      "[1] ANN: Mornings, please.\n[2] MEDIATOR: Let us list the options.\n[3] BOB: Fine.",
    );
    expect(transcript([])).toBe("(nothing has been said yet)");
  });
  it("lists the mediator's turns", () => {
    expect(mediatorTurnIds({ turns })).toEqual([2]);
  });
});
