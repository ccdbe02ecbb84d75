/** A run's emotion trajectories from stored turns and emotion-judge evaluations. */
import { describe, expect, it } from "vitest";
import {
  emotionConsensusSubjectId,
  emotionEvaluationId,
  emotionSourceLabel,
  emotionSubjectId,
  judgedTrajectory,
  preferredTrajectory,
  runEmotionTrajectories,
  selfReportedTrajectory,
  type EmotionEvaluation,
  type EmotionTurn,
} from "../../../app/domain/emotion/trajectory.ts";

const PARTIES = ["A", "B"];
const turn = (
  turnId: number,
  speaker: string,
  emotion: number | null,
  emotionReason: string | null = null,
): EmotionTurn => ({
  turnId,
  speaker,
  role: speaker === "MEDIATOR" ? "mediator" : "party",
  emotion,
  emotionReason,
});
const SELF_TURNS = [
  turn(1, "A", 30, "cornered"),
  turn(2, "B", 50),
  turn(3, "MEDIATOR", null),
  turn(4, "A", 55, "heard"),
];
const PLAIN_TURNS = SELF_TURNS.map((t) => ({ ...t, emotion: null, emotionReason: null }));

function judged(
  backbone: string,
  output: Record<string, unknown>,
  errors: EmotionEvaluation["errors"] = [],
): EmotionEvaluation {
  return { id: emotionEvaluationId("r1", backbone), method: "emotion", backbone, output, errors };
}
const FULL = {
  A: {
    scores: [
      { turn_id: 4, score: 60, reason: "calmer" },
      { turn_id: 1, score: 20, reason: "" },
    ],
  },
  B: { scores: [{ turn_id: 2, score: 45, reason: "wary" }] },
};

describe("selfReportedTrajectory", () => {
  it("takes each party's own reports in turn order, every party listed, nothing failed", () => {
    const self = selfReportedTrajectory(SELF_TURNS, PARTIES)!;
    expect(self.source).toEqual({ kind: "self" });
    expect(self.failedParties).toEqual([]);
    expect(self.parties).toEqual({
      A: [
        { turnId: 1, score: 30, reason: "cornered" },
        { turnId: 4, score: 55, reason: "heard" },
      ],
      B: [{ turnId: 2, score: 50, reason: null }],
    });
    expect(Object.keys(selfReportedTrajectory([turn(1, "A", 40)], PARTIES)!.parties)).toEqual(["A", "B"]);
  });

  it("is null for a run simulated without emotion", () => {
    expect(selfReportedTrajectory(PLAIN_TURNS, PARTIES)).toBeNull();
  });
});

describe("judgedTrajectory", () => {
  it("reads one evaluation per party, sorted by turn, an empty reason as null", () => {
    const t = judgedTrajectory(judged("j1", FULL), PARTIES);
    expect(t.source).toEqual({ kind: "judge", backbone: "j1", evaluationId: "r1:emotion:j1" });
    expect(t.failedParties).toEqual([]);
    expect(t.parties.A).toEqual([
      { turnId: 1, score: 20, reason: null },
      { turnId: 4, score: 60, reason: "calmer" },
    ]);
  });

  it("fails the party an error names, and the party missing from the output, keeping no scores of theirs", () => {
    const named = judgedTrajectory(judged("j1", FULL, [{ party_id: "B", message: "score 140" }]), PARTIES);
    expect(named.failedParties).toEqual(["B"]);
    expect(named.parties.B).toEqual([]);
    expect(named.parties.A).toHaveLength(2);
    const missing = judgedTrajectory(judged("j1", { A: FULL.A }), PARTIES);
    expect(missing.failedParties).toEqual(["B"]);
  });

  it("fails every party on an error without a party id", () => {
    const t = judgedTrajectory(judged("j1", FULL, [{ message: "the reply was not JSON" }]), PARTIES);
    expect(t.failedParties).toEqual(["A", "B"]);
    expect(t.parties).toEqual({ A: [], B: [] });
    expect(judgedTrajectory(judged("j1", null as unknown as Record<string, unknown>), PARTIES).failedParties).toEqual([
      "A",
      "B",
    ]);
  });
});

describe("runEmotionTrajectories and preferredTrajectory", () => {
  const evaluations: EmotionEvaluation[] = [
    judged("zeta", FULL),
    { id: "r1:topic-localized:j1", method: "topic-localized", backbone: "j1", output: {}, errors: [] },
    judged("alpha", FULL, [{ party_id: "A", message: "x" }]),
  ];

  it("lists the self-report first, then the emotion judges by backbone; other methods are ignored", () => {
    const list = runEmotionTrajectories(SELF_TURNS, evaluations, PARTIES);
    expect(list.map((t) => emotionSourceLabel(t.source))).toEqual(["self-report", "judge alpha", "judge zeta"]);
    expect(runEmotionTrajectories(PLAIN_TURNS, evaluations, PARTIES).map((t) => emotionSourceLabel(t.source))).toEqual([
      "judge alpha",
      "judge zeta",
    ]);
    expect(runEmotionTrajectories(PLAIN_TURNS, [], PARTIES)).toEqual([]);
  });

  it("prefers the self-report, else the named judge, else the first judge by name", () => {
    const withSelf = runEmotionTrajectories(SELF_TURNS, evaluations, PARTIES);
    const judgedOnly = runEmotionTrajectories(PLAIN_TURNS, evaluations, PARTIES);
    expect(preferredTrajectory(withSelf, "zeta")!.source.kind).toBe("self");
    expect(emotionSourceLabel(preferredTrajectory(judgedOnly, "zeta")!.source)).toBe("judge zeta");
    expect(emotionSourceLabel(preferredTrajectory(judgedOnly, "unknown")!.source)).toBe("judge alpha");
    expect(emotionSourceLabel(preferredTrajectory(judgedOnly)!.source)).toBe("judge alpha");
    expect(preferredTrajectory([])).toBeNull();
  });
});

describe("subject ids", () => {
  it("stores a self-report under `${run}:emotion-self`, a judge under its evaluation id, EC under both ids joined by |", () => {
    expect(emotionSubjectId("r1", { kind: "self" })).toBe("r1:emotion-self");
    expect(
      emotionSubjectId("r1", {
        kind: "judge",
        backbone: "org/m 2",
        evaluationId: emotionEvaluationId("r1", "org/m 2"),
      }),
    ).toBe("r1:emotion:org_m_2");
    expect(emotionConsensusSubjectId("r1", { kind: "self" }, "r1:topic-localized:j1")).toBe(
      "r1:emotion-self|r1:topic-localized:j1",
    );
    expect(emotionSourceLabel({ kind: "judge", backbone: "m", evaluationId: "x" })).toBe("judge m");
  });
});
