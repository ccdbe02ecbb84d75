// Hand-worked checks of the ProMediate baseline metrics on G[0..T] and per-topic G_k[0..T].
import { describe, expect, it } from "vitest";
import { consensusChange } from "../../../app/domain/metrics/consensus-change.ts";
import { toFivePointScale } from "../../../app/domain/metrics/five-point-scale.ts";
import { leastSquaresSlope } from "../../../app/domain/metrics/least-squares-slope.ts";
import { mediatorEffectiveness } from "../../../app/domain/metrics/mediator-effectiveness.ts";
import { mediatorIntelligence } from "../../../app/domain/metrics/mediator-intelligence.ts";
import { responseLatency } from "../../../app/domain/metrics/response-latency.ts";
import { topicLevelEfficiency, turnsMentioning } from "../../../app/domain/metrics/topic-level-efficiency.ts";

describe("consensusChange", () => {
  it("uses w = ⌊T/2⌋ when T is small, over turns 1..T only", () => {
    // T = 3 → w = min(10, 1) = 1: last = G[3] = 0.6, first = G[1] = 0.2 → 0.4
    expect(consensusChange([0, 0.2, 0.4, 0.6])).toMatchObject({ cc: expect.closeTo(0.4, 12), w: 1, lastTurn: 3 });
    // T = 5 → w = 2: first = (G[1] + G[2]) / 2 = 0.15, last = (G[4] + G[5]) / 2 = 0.45 → 0.3.
    // G[0] = 0.9 would change the result if it were (wrongly) used.
    const result = consensusChange([0.9, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(result).toMatchObject({ w: 2, maxWindow: 10 });
    expect(result.firstMean).toBeCloseTo(0.15, 12);
    expect(result.lastMean).toBeCloseTo(0.45, 12);
    expect(result.cc).toBeCloseTo(0.3, 12);
  });

  it("caps w at 10 for long runs", () => {
    // T = 24, G[t] = t/100 → w = 10: first = mean(0.01..0.10) = 0.055, last = mean(0.15..0.24) = 0.195 → 0.14
    const series = Array.from({ length: 25 }, (_, t) => t / 100);
    const result = consensusChange(series);
    expect(result.w).toBe(10);
    expect(result.cc).toBeCloseTo(0.14, 12);
    // With maxWindow = 2: first = (0.01 + 0.02)/2 = 0.015, last = (0.23 + 0.24)/2 = 0.235 → 0.22
    expect(consensusChange(series, { maxWindow: 2 }).cc).toBeCloseTo(0.22, 12);
  });

  it("has no value below two turns", () => {
    expect(consensusChange([0.2, 0.5])).toMatchObject({ cc: null, reason: "fewer than 2 turns", w: 0, lastTurn: 1 });
  });
});

describe("topicLevelEfficiency", () => {
  it("averages change per mention over mentioned topics only", () => {
    // T = 4.
    //   price: (G[4] − G[1]) / n = (0.8 − 0.2) / 3 = 0.2
    //   date:  (0.4 − 0.5) / 2 = −0.05
    //   venue: never mentioned → left out although its change is 1
    //   TLE = (0.2 − 0.05) / 2 = 0.075
    const result = topicLevelEfficiency(
      { price: [0, 0.2, 0.3, 0.5, 0.8], date: [0.5, 0.5, 0.4, 0.4, 0.4], venue: [0, 0, 0, 0, 1] },
      { price: [1, 3, 4], date: [2, 3] },
    );
    expect(result.tle).toBeCloseTo(0.075, 12);
    expect(result).toMatchObject({ topicsUsed: 2, topicsUnmentioned: 1 });
    expect(result.perTopic.find((p) => p.topicId === "venue")).toEqual({
      topicId: "venue",
      mentions: 0,
      change: 1,
      efficiency: null,
    });
  });

  it("counts the mediator turns that name a topic among its mentions", () => {
    // Party mentions price at 1 and 4; the mediator (turns 3 and 6) names price at 3 and nothing at 6.
    // n_price = |{1, 3, 4}| = 3. Turn 6 names no topic, so it mentions none (not "all": that is ME's targeting).
    const mentions = turnsMentioning({ price: [1, 4], date: [2] }, [
      { turn: 3, topics: ["price"] },
      { turn: 6, topics: [] },
    ]);
    expect(mentions).toEqual({ price: [1, 3, 4], date: [2] });
    // T = 6: price (0.8 − 0.2) / 3 = 0.2, date (0.3 − 0.5) / 1 = −0.2 → TLE 0
    const result = topicLevelEfficiency(
      { price: [0, 0.2, 0.2, 0.4, 0.6, 0.6, 0.8], date: [0, 0.5, 0.5, 0.5, 0.4, 0.3, 0.3] },
      mentions,
    );
    expect(result.perTopic.map((p) => [p.topicId, p.mentions])).toEqual([
      ["price", 3],
      ["date", 1],
    ]);
    expect(result.tle).toBeCloseTo(0, 12);
  });

  it("has no value when no topic is mentioned", () => {
    expect(topicLevelEfficiency({ price: [0, 0.5] }, { price: [] })).toMatchObject({
      tle: null,
      reason: "no topic mentioned",
      topicsUnmentioned: 1,
    });
  });

  it("rejects mentions of unknown topics and series of different lengths", () => {
    expect(() => topicLevelEfficiency({ a: [0, 1] }, { b: [1] })).toThrow(RangeError);
    expect(() => topicLevelEfficiency({ a: [0, 1], b: [0, 1, 1] }, {})).toThrow(RangeError);
  });
});

describe("responseLatency", () => {
  // T = 8.  G: t=0 0.5 | 1 0.6 | 2 0.6 | 3 0.55 | 4 0.45 | 5 0.45 | 6 0.8 | 7 0.6 | 8 0.6
  // Starts (τ = 0.1, W = 10): the first later turn u with G[u] < G[t] − 0.1 is the drop turn.
  //   t = 1: 0.6 → G[4] = 0.45 < 0.5 → u = 4
  //   t = 2: same → u = 4: shares the drop turn with t = 1, so it is the same event
  //   t = 3: 0.55 → needs < 0.45; G[4] = 0.45 is a fall of exactly τ, not more → no start
  //          (0.55 − 0.45 = 0.10000000000000003 in floating point: the tolerance keeps it out)
  //   t = 4, 5: 0.45 → needs < 0.35 → no
  //   t = 6: 0.8 → G[7] = 0.6 < 0.7 → u = 7
  //   t = 7: 0.6 → G[8] = 0.6 → no
  // Events: (t 1, u 4, starts 1 and 2) and (t 6, u 7).
  const G = [0.5, 0.6, 0.6, 0.55, 0.45, 0.45, 0.8, 0.6, 0.6];

  it("times each event from its drop turn u, merges starts that share u, and reports the share never answered", () => {
    // Mediator at 3 and 5. Turn 3 comes before the drop turn 4, so it answers nothing:
    //   u = 4 → next mediator turn 5 → latency 1; u = 7 → none after → ∞.
    //   mean finite = 1; unanswered share = 1/2; decision seconds (2 + 4) / 2 = 3
    // (Timed from each start, as before issue 28: 3 − 1 = 2, 3 − 2 = 1, ∞ → 1.5.)
    const result = responseLatency(G, [3, 5], {}, [2, 4]);
    expect(result.events).toEqual([
      { t: 1, u: 4, starts: [1, 2], latency: 1 },
      { t: 6, u: 7, starts: [6], latency: Infinity },
    ]);
    expect(result).toMatchObject({
      meanLatency: 1,
      unrespondedShare: 1 / 2,
      eventCount: 2,
      responded: 1,
      unresponded: 1,
      meanDecisionSeconds: 3,
      decisionSamples: 2,
      tau: 0.1,
      window: 10,
    });
  });

  it("gives 2 when consensus falls at turn 6 and the mediator speaks at turn 8 (issue 28)", () => {
    // G is 0.6 through turn 5 and 0.4 from turn 6: every start t = 1..5 has drop turn u = 6, one event.
    // Latency = 8 − 6 = 2. Timed from each start it was the mean of 7, 6, 5, 4, 3 = 5.
    const fall = [0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.4, 0.4, 0.4, 0.4, 0.4];
    const result = responseLatency(fall, [8]);
    expect(result.events).toEqual([{ t: 1, u: 6, starts: [1, 2, 3, 4, 5], latency: 2 }]);
    expect(result.meanLatency).toBe(2);
  });

  it("keeps starts with different drop turns apart, each event named by its earliest start", () => {
    // T = 5.  G: 0 | 0.8 | 0.9 | 0.7 | 0.3 | 0.3
    //   t = 1: needs < 0.7 → G[3] = 0.7 is not below (a fall of exactly τ) → u = 4
    //   t = 2: needs < 0.8 → u = 3
    //   t = 3: needs < 0.6 → u = 4: merges with t = 1 (earliest start 1)
    //   Events in order of u: (t 2, u 3) and (t 1, u 4). Mediator at 5: latencies 2 and 1 → 1.5.
    const result = responseLatency([0, 0.8, 0.9, 0.7, 0.3, 0.3], [5]);
    expect(result.events).toEqual([
      { t: 2, u: 3, starts: [2], latency: 2 },
      { t: 1, u: 4, starts: [1, 3], latency: 1 },
    ]);
    expect(result.meanLatency).toBe(1.5);
  });

  it("only looks `window` turns ahead", () => {
    // W = 2: t = 1 sees G[2], G[3] = 0.6, 0.55 (not < 0.5) → no start; t = 2 sees G[4] = 0.45 → u = 4;
    // t = 6 sees G[7] → u = 7.
    expect(responseLatency(G, [3], { window: 2 }).events.map((e) => [e.t, e.u])).toEqual([
      [2, 4],
      [6, 7],
    ]);
  });

  it("counts only mediator turns strictly after the drop turn", () => {
    // The first event's drop turn is 4: a mediator turn 4 is not "after u", the next one (8) answers it.
    expect(responseLatency(G, [4, 8]).events.map((e) => e.latency)).toEqual([4, 1]);
  });

  it("has no mean latency when nothing is answered, and no values without events", () => {
    expect(responseLatency(G, [])).toMatchObject({
      meanLatency: null,
      unrespondedShare: 1,
      reason: "no drop event responded to",
      meanDecisionSeconds: null,
      decisionSamples: 0,
    });
    expect(responseLatency([0.5, 0.5, 0.5], [1])).toMatchObject({
      meanLatency: null,
      unrespondedShare: null,
      reason: "no drop events",
      eventCount: 0,
    });
  });
});

describe("leastSquaresSlope", () => {
  it("fits y on x", () => {
    // x̄ = 2, ȳ = 2; Σ(x−x̄)(y−ȳ) = (−1)(−1) + 0 + (1)(0) = 1; Σ(x−x̄)² = 2 → 0.5
    expect(leastSquaresSlope([1, 2, 3], [1, 3, 2])).toBe(0.5);
  });

  it("has no slope with fewer than 2 points or constant x", () => {
    expect(leastSquaresSlope([1], [1])).toBeNull();
    expect(leastSquaresSlope([2, 2], [1, 3])).toBeNull();
  });
});

describe("mediatorEffectiveness", () => {
  // T = 8.  a[0] = 1 is the pre-dialogue state and must never enter a slope.
  //   a: t=1 0.5 | 2 0.3 | 3 0.3 | 4 0.2 | 5 0.4 | 6 0.6 | 7 0.8 | 8 1.0
  //   b: 0.5 everywhere
  const series = {
    a: [1, 0.5, 0.3, 0.3, 0.2, 0.4, 0.6, 0.8, 1.0],
    b: [0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
  };

  it("clips windows at the run's edges and averages over topics, then interventions", () => {
    // m = 3, no targets → both topics. Pre turns max(1, −2)..2 = 1..2, post 4..8.
    //   a: pre slope (0.3 − 0.5)/1 = −0.2; post 0.2, 0.4, …, 1.0 → 0.2; ME = 0.4
    //   b: 0 − 0 = 0
    //   intervention ME = (0.4 + 0) / 2 = 0.2
    // m = 5, target a. Pre 1..4: x̄ = 2.5, ȳ = 0.325,
    //   Σ dx·dy = (−1.5)(0.175) + (−0.5)(−0.025) + (0.5)(−0.025) + (1.5)(−0.125) = −0.45, Σ dx² = 5 → −0.09
    //   post 6..8: 0.6, 0.8, 1.0 → 0.2; ME = 0.29
    // m = 7, target a. Post 8..8 has one point → skipped.
    // Run ME = (0.2 + 0.29) / 2 = 0.245   (a flat mean over topic pairs would give 0.23)
    const result = mediatorEffectiveness(
      series,
      [
        { turn: 3, targetTopics: [] },
        { turn: 5, targetTopics: ["a"] },
        { turn: 7, targetTopics: ["a"] },
      ],
      8,
    );
    expect(result.me).toBeCloseTo(0.245, 12);
    expect(result).toMatchObject({
      interventions: 3,
      interventionsUsed: 2,
      interventionsSkipped: 1,
      topicPairs: 4,
      topicPairsSkipped: 1,
      span: 5,
    });
    const [first, second, third] = result.perIntervention;
    expect(first.topics.map((t) => t.topicId)).toEqual(["a", "b"]);
    expect(first.topics[0].preSlope).toBeCloseTo(-0.2, 12);
    expect(first.topics[0].postSlope).toBeCloseTo(0.2, 12);
    expect(first.me).toBeCloseTo(0.2, 12);
    expect(second.topics[0].preSlope).toBeCloseTo(-0.09, 12);
    expect(second.me).toBeCloseTo(0.29, 12);
    expect(third).toMatchObject({ turn: 7, me: null });
    expect(third.topics[0].postSlope).toBeNull();
    // Pre 2..6 is still computed: x̄ = 4, ȳ = 0.36, Σ dx·dy = 0.7, Σ dx² = 10 → 0.07
    expect(third.topics[0].preSlope).toBeCloseTo(0.07, 12);
  });

  it("skips an intervention at turn 1 or 2 (fewer than 2 turns before it)", () => {
    const result = mediatorEffectiveness(series, [{ turn: 2, targetTopics: ["a"] }], 8);
    expect(result).toMatchObject({
      me: null,
      reason: "no intervention with slopes on both sides",
      interventionsSkipped: 1,
      topicPairsSkipped: 1,
    });
  });

  it("has no value without interventions and rejects unknown topics or a wrong T", () => {
    expect(mediatorEffectiveness(series, [], 8)).toMatchObject({ me: null, reason: "no interventions" });
    expect(() => mediatorEffectiveness(series, [{ turn: 4, targetTopics: ["c"] }], 8)).toThrow(RangeError);
    expect(() => mediatorEffectiveness(series, [], 7)).toThrow(RangeError);
  });
});

describe("mediatorIntelligence", () => {
  it("leaves out not-applicable (−1) scores", () => {
    // Applicable: 4, 3, 5 | — | 2, 2, 3 → 19 / 6.
    // Per dimension: perception [4, 2] → 3; emotion [2] → 2; cognition [3] → 3; communication [5, 3] → 4.
    const result = mediatorIntelligence([
      [4, -1, 3, 5],
      [-1, -1, -1, -1],
      [2, 2, -1, 3],
    ]);
    expect(result.mi).toBeCloseTo(19 / 6, 12);
    expect(result.perDimension).toEqual({
      perceptionAlignment: { mean: 3, applicable: 2 },
      emotionalDynamics: { mean: 2, applicable: 1 },
      cognitiveChallenges: { mean: 3, applicable: 1 },
      communicationBreakdowns: { mean: 4, applicable: 2 },
    });
    expect(result).toMatchObject({
      interventions: 3,
      interventionsWithoutScores: 1,
      applicableScores: 6,
      notApplicableScores: 6,
    });
  });

  it("has no value when nothing applies, and rejects malformed scores", () => {
    expect(mediatorIntelligence([[-1, -1, -1, -1]])).toMatchObject({ mi: null, reason: "no applicable scores" });
    expect(mediatorIntelligence([])).toMatchObject({ mi: null, interventions: 0 });
    expect(() => mediatorIntelligence([[0, 1, 2, 3]])).toThrow(RangeError);
    expect(() => mediatorIntelligence([[1, 2, 3]])).toThrow(RangeError);
  });
});

describe("toFivePointScale", () => {
  it("maps [0, 1] onto 1..5", () => {
    expect([0, 0.5, 1].map(toFivePointScale)).toEqual([1, 3, 5]);
  });
});
