import { describe, expect, it } from "vitest";
import { checkTopicJudgeOutput, topicLocalizedTrajectory } from "../../app/domain/consensus.ts";

const entry = (turn_id: number, score: number) => ({
  turn_id,
  reason: "r",
  score,
  party_stances: { A: "(A)", B: "(B)" },
});

describe("topic-localized consensus C[t]", () => {
  it("carries each topic's score forward from its latest located turn, starting at s0 = 1", () => {
    // T = 6. Topic X located at 2 (score 3) and 5 (score 5); topic Y located at 4 (score 2).
    const trajectory = topicLocalizedTrajectory(
      {
        X: { relevant_turns: [2, 5], agreement_score: [entry(5, 5), entry(2, 3)] },
        Y: { relevant_turns: [4], agreement_score: [entry(4, 2)] },
      },
      ["X", "Y"],
      6,
    );
    expect(trajectory.topics[0].scores).toEqual([1, 1, 3, 3, 3, 5, 5]);
    expect(trajectory.topics[1].scores).toEqual([1, 1, 1, 1, 2, 2, 2]);
    expect(trajectory.topics[0].located).toEqual([false, false, true, false, false, true, false]);
    // c = (s − 1) / 4; C = mean over the two topics:
    // t0: (0 + 0)/2 = 0; t2: (0.5 + 0)/2 = 0.25; t4: (0.5 + 0.25)/2 = 0.375; t5: (1 + 0.25)/2 = 0.625
    expect(trajectory.consensus).toEqual([0, 0, 0.25, 0.25, 0.375, 0.625, 0.625]);
  });

  it("uses a configured s0 before the first located turn and for topics the judge did not return", () => {
    const trajectory = topicLocalizedTrajectory(
      { X: { relevant_turns: [3], agreement_score: [entry(3, 5)] } },
      ["X", "Y"],
      3,
      2,
    );
    expect(trajectory.topics[0].scores).toEqual([2, 2, 2, 5]);
    expect(trajectory.topics[1].scores).toEqual([2, 2, 2, 2]);
    expect(trajectory.consensus[0]).toBeCloseTo(0.25, 12);
    expect(trajectory.consensus[3]).toBeCloseTo((1 + 0.25) / 2, 12);
  });

  it("reports, never clips, invalid judge output", () => {
    const problems = checkTopicJudgeOutput(
      {
        X: {
          relevant_turns: [0, 2],
          agreement_score: [entry(2, 7), entry(2, 3), { turn_id: 9, reason: "", score: 2, party_stances: { Z: "?" } }],
        },
        NOPE: { relevant_turns: [], agreement_score: [] },
      },
      { topicIds: ["X"], partyIds: ["A", "B"], totalTurns: 4 },
    );
    const messages = problems.map((p) => `${p.path.join(".")}: ${p.message}`);
    expect(messages).toEqual([
      "X.relevant_turns.0: turn 0 is outside the run (1..4)",
      "X.agreement_score.0.score: score 7 is not an integer from 1 to 5",
      "X.agreement_score.1.turn_id: turn 2 is scored twice",
      "X.agreement_score.2.turn_id: turn 9 is outside the run (1..4)",
      'X.agreement_score.2.party_stances.Z: unknown party id "Z"',
      'NOPE: unknown topic id "NOPE" (the scenario has X)',
    ]);
  });
});
