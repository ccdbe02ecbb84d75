import { describe, expect, it } from "vitest";
import { checkPerTurnOutput, pairKey, perTurnTrajectory } from "../../app/domain/baseline.ts";
import type { PerTurnOutput } from "../../app/domain/bundle.ts";

const dims = (a: number, b: number, c: number, d: number, e: number) => ({
  shared_goals: a,
  common_understanding: b,
  agreement_on_terms: c,
  tone_and_willingness: d,
  shared_decision_making: e,
});
const flat = (v: number) => dims(v, v, v, v, v);

describe("per-turn baseline G[t]", () => {
  it("re-scores the speaker's pairs and carries every other pair forward (three parties)", () => {
    // Parties A, B, C; one topic X; turns: 1 A, 2 B, 3 MEDIATOR, 4 C.
    const output: PerTurnOutput = {
      initial: [
        { pair: ["A", "B"], topic: "X", dimensions: flat(0.2) },
        { pair: ["A", "C"], topic: "X", dimensions: flat(0.4) },
        { pair: ["B", "C"], topic: "X", dimensions: flat(0.6) },
      ],
      turns: [
        // Turn 1, A speaks: A–B becomes mean(0.1, 0.2, 0.3, 0.4, 0.5) = 0.3; A–C becomes 0.7.
        {
          turn_id: 1,
          speaker: "A",
          attitudes: { X: "wants option A" },
          agreement: [
            { with: "B", topic: "X", dimensions: dims(0.1, 0.2, 0.3, 0.4, 0.5) },
            { with: "C", topic: "X", dimensions: flat(0.7) },
          ],
        },
        // Turn 2, B speaks but does not mention X, and no re-score is given: everything carries.
        { turn_id: 2, speaker: "B", attitudes: { X: "No Mention" } },
        { turn_id: 3, speaker: "MEDIATOR", mentioned_topics: ["X"] },
        // Turn 4, C speaks: B–C becomes 0.9 (written with C as the speaker).
        {
          turn_id: 4,
          speaker: "C",
          attitudes: { X: "accepts B" },
          agreement: [{ with: "B", topic: "X", dimensions: flat(0.9) }],
        },
      ],
    };
    const run = { topicIds: ["X"], partyIds: ["A", "B", "C"], speakers: ["A", "B", "MEDIATOR", "C"] };
    expect(checkPerTurnOutput(output, run)).toEqual([]);
    const trajectory = perTurnTrajectory(output, run);
    expect(trajectory.pairScores[pairKey("A", "B")].X.map((v) => +v.toFixed(12))).toEqual([0.2, 0.3, 0.3, 0.3, 0.3]);
    expect(trajectory.pairScores[pairKey("C", "B")].X).toEqual([0.6, 0.6, 0.6, 0.6, 0.9]);
    // G: t0 (0.2+0.4+0.6)/3 = 0.4; t1 (0.3+0.7+0.6)/3 = 0.5333…; t4 (0.3+0.7+0.9)/3 = 0.6333…
    expect(trajectory.consensus[0]).toBeCloseTo(0.4, 12);
    expect(trajectory.consensus[1]).toBeCloseTo(1.6 / 3, 12);
    expect(trajectory.consensus[2]).toBeCloseTo(1.6 / 3, 12);
    expect(trajectory.consensus[4]).toBeCloseTo(1.9 / 3, 12);
    expect(trajectory.mentions).toEqual({ X: [1, 4] });
    expect(trajectory.mediatorTargets).toEqual([{ turn: 3, topics: ["X"] }]);
  });

  it("averages G over topics as well as pairs", () => {
    const output: PerTurnOutput = {
      initial: [
        { pair: ["A", "B"], topic: "X", dimensions: flat(0) },
        { pair: ["A", "B"], topic: "Y", dimensions: flat(1) },
      ],
      turns: [
        {
          turn_id: 2,
          speaker: "B",
          attitudes: { X: "moves", Y: "No Mention" },
          agreement: [{ with: "A", topic: "X", dimensions: flat(0.5) }],
        },
      ],
    };
    const trajectory = perTurnTrajectory(output, { topicIds: ["X", "Y"], partyIds: ["A", "B"], speakers: ["A", "B"] });
    expect(trajectory.topicConsensus.X).toEqual([0, 0, 0.5]);
    expect(trajectory.consensus).toEqual([0.5, 0.5, 0.75]);
  });

  it("keeps a second series on the judge's own overall scores, the five dimensions' mean where none was given", () => {
    const output: PerTurnOutput = {
      initial: [
        { pair: ["A", "B"], topic: "X", dimensions: dims(0.2, 0.4, 0.6, 0.8, 1), overall: 0.75 },
        { pair: ["A", "B"], topic: "Y", dimensions: flat(0.5) },
      ],
      turns: [
        {
          turn_id: 1,
          speaker: "A",
          attitudes: { X: "moves", Y: "moves" },
          agreement: [
            { with: "B", topic: "X", dimensions: flat(0.25), overall: 0 },
            { with: "B", topic: "Y", dimensions: flat(1), overall: 0.5 },
          ],
        },
      ],
    };
    const t = perTurnTrajectory(output, { topicIds: ["X", "Y"], partyIds: ["A", "B"], speakers: ["A"] });
    expect(t.topicConsensus.X[0]).toBeCloseTo(0.6, 12);
    expect(t.overallTopicConsensus).toEqual({ X: [0.75, 0], Y: [0.5, 0.5] });
    expect(t.overallConsensus).toEqual([0.625, 0.25]);
    expect(t.consensus[1]).toBe(0.625);
  });

  it("names every problem in a malformed output", () => {
    const output: PerTurnOutput = {
      initial: [{ pair: ["A", "B"], topic: "X", dimensions: flat(0) }],
      turns: [
        { turn_id: 5, speaker: "A" },
        { turn_id: 1, speaker: "B", agreement: [{ with: "A", topic: "Q", dimensions: flat(0) }] },
      ],
    };
    const messages = checkPerTurnOutput(output, {
      topicIds: ["X", "Y"],
      partyIds: ["A", "B"],
      speakers: ["A", "B"],
    }).map((p) => `${p.path.join(".")}: ${p.message}`);
    expect(messages).toEqual([
      "initial: no starting score for pair A|B on topic Y",
      "turns.0.turn_id: turn 5 is outside the run (1..2)",
      'turns.1.speaker: turn 1 was spoken by "A", not "B"',
      // Checked against the real speaker (A), so "with A" pairs A with itself.
      'turns.1.agreement.0.with: "A" is not another party of the run',
      'turns.1.agreement.0.topic: unknown topic id "Q"',
    ]);
  });
});
