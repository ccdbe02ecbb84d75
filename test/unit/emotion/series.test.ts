/** Emotion on the turn axis: carried forward per party, the group's mean once every party has reported. */
import { describe, expect, it } from "vitest";
import { groupEmotionSeries, partyEmotionSeries } from "../../../app/domain/emotion/series.ts";
import { GROUP, POINTS, selfTrajectory, T } from "./hand-made.ts";

const close = (actual: (number | null)[], expected: (number | null)[]) => {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => (expected[i] === null ? expect(v).toBeNull() : expect(v).toBeCloseTo(expected[i]!, 12)));
};

describe("partyEmotionSeries", () => {
  it("carries each score forward from the party's own turn, /100, null before its first report", () => {
    // A: 30 @1, 50 @4, 60 @7 → — .3 .3 .3 .5 .5 .5 .6 .6
    close(partyEmotionSeries(POINTS.A, T), [null, 0.3, 0.3, 0.3, 0.5, 0.5, 0.5, 0.6, 0.6]);
    // B: 50 @2, 40 @5, 80 @8 → — — .5 .5 .5 .4 .4 .4 .8
    close(partyEmotionSeries(POINTS.B, T), [null, null, 0.5, 0.5, 0.5, 0.4, 0.4, 0.4, 0.8]);
  });

  it("is all null for a party that never reported, and has T + 1 points", () => {
    expect(partyEmotionSeries([], 3)).toEqual([null, null, null, null]);
  });
});

describe("groupEmotionSeries", () => {
  it("is the mean over parties from the turn every party has reported, null before (nothing imputed)", () => {
    // t = 2: (.3 + .5)/2 = .4; t = 4: (.5 + .5)/2 = .5; t = 5: (.5 + .4)/2 = .45; t = 8: (.6 + .8)/2 = .7
    close(groupEmotionSeries(selfTrajectory(), T), GROUP);
  });

  it("stays null throughout when one party never reported, and when there are no parties", () => {
    expect(groupEmotionSeries(selfTrajectory({ A: POINTS.A, B: [] }), T).every((v) => v === null)).toBe(true);
    expect(groupEmotionSeries(selfTrajectory({}), 2)).toEqual([null, null, null]);
  });
});
