/** The emotion judge's output checked against its run. */
import { describe, expect, it } from "vitest";
import { checkEmotionJudgeOutput, partyTurnIds } from "../../../app/domain/emotion/judge-output.ts";

const SPEAKERS = ["A", "B", "MEDIATOR", "A", "B"];
const CTX = { partyIds: ["A", "B"], speakers: SPEAKERS };
const s = (turn_id: number, score: number) => ({ turn_id, score, reason: "because" });

describe("partyTurnIds", () => {
  it("lists the turns a party spoke (speakers[t − 1] spoke turn t)", () => {
    expect(partyTurnIds(SPEAKERS, "A")).toEqual([1, 4]);
    expect(partyTurnIds(SPEAKERS, "MEDIATOR")).toEqual([3]);
    expect(partyTurnIds(SPEAKERS, "C")).toEqual([]);
  });
});

describe("checkEmotionJudgeOutput", () => {
  it("accepts one score per turn of each party, in any order, 0 and 100 included", () => {
    expect(
      checkEmotionJudgeOutput({ A: { scores: [s(4, 100), s(1, 0)] }, B: { scores: [s(2, 50), s(5, 51)] } }, CTX),
    ).toEqual([]);
    // A party left out is not a problem here: the judge records an error naming it.
    expect(checkEmotionJudgeOutput({ A: { scores: [s(1, 10), s(4, 20)] } }, CTX)).toEqual([]);
  });

  it("names an unknown party, another party's turn, a turn scored twice, a score off the scale and a missing turn, by path", () => {
    const problems = checkEmotionJudgeOutput(
      {
        C: { scores: [s(1, 10)] },
        A: { scores: [s(1, 10), s(1, 20), s(3, 30), s(4, 140)] },
        B: { scores: [s(2, 2.5)] },
      },
      CTX,
    );
    expect(problems.map((p) => [p.path.join("."), p.message])).toEqual([
      ["C", 'unknown party id "C" (the run\'s parties are A, B)'],
      ["A.scores.1.turn_id", "turn 1 is scored twice"],
      ["A.scores.2.turn_id", "turn 3 is not a turn of A (its turns: 1, 4)"],
      ["A.scores.3.score", "score 140 is not a whole number from 0 to 100"],
      ["B.scores.0.score", "score 2.5 is not a whole number from 0 to 100"],
      ["B.scores", "no score for B's turn 5"],
    ]);
  });

  it("names every missing turn, in the plural", () => {
    expect(checkEmotionJudgeOutput({ A: { scores: [] } }, CTX)).toEqual([
      { path: ["A", "scores"], message: "no score for A's turns 1, 4" },
    ]);
  });
});
