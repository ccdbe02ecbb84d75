/** The social mediator's pure rules: merging a tracker reply, choosing the candidate, its bounded memory. */
import { describe, expect, it } from "vitest";
import { chooseCandidate, mergeTracker } from "../../../app/domain/simulation/social-mediator.ts";
import { initialTracker, memoryText } from "../../../app/domain/prompts/social-mediator-values.ts";
import type { MediatorView } from "../../../app/domain/visibility.ts";

const topic = (id: string, letters: string[]) => ({
  id,
  name: `Topic ${id}`,
  description: "",
  options: letters.map((label) => ({ label, description: label })),
});
const TOPICS = [topic("T1", ["A", "B", "C"]), topic("T2", ["A", "B"]), topic("T3", ["A", "B"])];

describe("mergeTracker", () => {
  it("takes each topic by id, keeps only its letters, settles only on one option, keeps a topic the reply omits", () => {
    const previous = initialTracker(TOPICS);
    const merged = mergeTracker(TOPICS, previous, [
      { topic_id: " t1 ", settled: true, options: ["b", "Z"], note: " agreed " },
      { topic_id: "T2", settled: true, options: ["A", "B"] },
      { topic_id: "T9", settled: true, options: ["A"] },
    ]);
    expect(merged).toEqual([
      { topic_id: "T1", settled: true, options: ["B"], note: "agreed" },
      // Two options left: not settled, whatever the reply says.
      { topic_id: "T2", settled: false, options: ["A", "B"] },
      previous[2],
    ]);
    // No valid letter at all: every option is in play again.
    expect(mergeTracker(TOPICS, merged, [{ topic_id: "T1", settled: false, options: ["Q"] }])[0].options).toEqual([
      "A",
      "B",
      "C",
    ]);
  });
});

describe("chooseCandidate", () => {
  it("takes the highest mean, and of equal means the first in strategy order", () => {
    expect(chooseCandidate([{ overall: 3 }, { overall: 4.25 }, { overall: 4 }, { overall: 1 }])).toBe(1);
    expect(chooseCandidate([{ overall: 3 }, { overall: 4 }, { overall: 4 }, { overall: 4 }])).toBe(1);
    expect(chooseCandidate([{ overall: 5 }, { overall: 5 }, { overall: 5 }, { overall: 5 }])).toBe(0);
  });
});

describe("memoryText", () => {
  it("keeps the last N events, its own decisions among the turns, and says how many it dropped", () => {
    const line = (turnId: number, speakerName: string) => ({
      turnId,
      speakerId: speakerName.toUpperCase(),
      speakerName,
      utterance: `line ${turnId}`,
    });
    const view = {
      background: "",
      topics: TOPICS,
      parties: [],
      dialogue: [line(1, "Ann"), line(2, "Bo"), line(3, "Mediator"), line(4, "Ann")],
    } as unknown as MediatorView;
    const decisions = [
      { after_turn: 1, engage: false, thought: "wait", motivation: 1.4 },
      {
        after_turn: 2,
        engage: true,
        thought: "go",
        motivation: 4,
        candidates: [
          {
            strategy: "facilitative" as const,
            text: "ask them",
            ratings: { perception: 3, emotion: 3, cognition: 3, communication: 3 },
            overall: 3,
          },
        ],
        chosen: 0,
      },
    ];
    expect(memoryText(view, decisions, 10).split("\n")).toEqual([
      "[1] Ann: line 1",
      "(after turn 1 you held back, motivation 1.4: wait)",
      "[2] Bo: line 2",
      "(after turn 2 you stepped in, facilitative: ask them)",
      "[3] Mediator: line 3",
      "[4] Ann: line 4",
    ]);
    expect(memoryText(view, decisions, 3).split("\n")).toEqual([
      "(3 earlier events are no longer in your memory.)",
      "(after turn 2 you stepped in, facilitative: ask them)",
      "[3] Mediator: line 3",
      "[4] Ann: line 4",
    ]);
  });
});
