// Per-channel dashboard figures on a small hand-made set, each expected value worked out by hand.
import { describe, expect, it } from "vitest";
import {
  channelStats,
  type ChannelAssignmentRow,
  type ChannelGoldRow,
  type ChannelLabelRow,
} from "../../../app/domain/crowd/channel-stats.ts";

const a = (
  channel: ChannelAssignmentRow["channel"],
  annotatorId: string,
  status: ChannelAssignmentRow["status"],
  rewardUsd: number | null,
  workSeconds: number | null,
): ChannelAssignmentRow => ({
  channel,
  annotatorId,
  status,
  rewardUsd,
  workSeconds,
});
const l = (
  channel: ChannelLabelRow["channel"],
  annotatorId: string,
  secondsOnTask: number | null,
): ChannelLabelRow => ({ channel, annotatorId, secondsOnTask });

// Listed out of channel order on purpose: the output order is web, link, mturk, prolific.
const assignments = [
  a("prolific", "p1", "submitted", 2, 600),
  a("mturk", "w1", "approved", 0.5, 120),
  a("mturk", "w1", "approved", 0.5, 60),
  a("mturk", "w2", "rejected", 0.5, 30), // not paid: left out of the hourly figure
  a("mturk", "w2", "submitted", 0.5, 90),
  a("mturk", "w3", "accepted", 0.5, null), // no work time yet
  a("prolific", "p2", "accepted", 2, null),
  a("prolific", "p3", "submitted", 2, 0), // zero seconds cannot carry a rate
];
const labels = [
  l("mturk", "w1", 120),
  l("web", "e1", 30),
  l("web", "e1", 50),
  l("web", "e2", null),
  l("link", "k1", 10),
  l("link", "k1", 20),
  l("link", "k1", 60),
  l("mturk", "w1", 60),
  l("mturk", "w2", 90),
  l("prolific", "p1", 100),
  l("prolific", "p1", 200),
];
const gold: ChannelGoldRow[] = [
  { annotatorId: "e1", attempted: 2, passed: 2 },
  { annotatorId: "e2", attempted: 2, passed: 1 },
  { annotatorId: "w1", attempted: 1, passed: 1 },
  { annotatorId: "w2", attempted: 1, passed: 0 },
  { annotatorId: "p1", attempted: 4, passed: 3 },
];

describe("channel stats", () => {
  it("counts workers, labels and assignment outcomes, and gives median time, hourly pay and pooled gold accuracy per channel", () => {
    const stats = channelStats(assignments, labels, gold);
    expect(stats.map((s) => s.channel)).toEqual(["web", "link", "mturk", "prolific"]);
    const [web, link, mturk, prolific] = stats;

    // web: e1 and e2; median of 30 and 50 (e2's label has no time); gold (2 + 1) / (2 + 2).
    expect(web).toEqual({
      channel: "web",
      workers: 2,
      labels: 3,
      assignments: 0,
      approved: 0,
      rejected: 0,
      pending: 0,
      medianSecondsPerLabel: 40,
      effectiveHourlyUsd: null,
      paidAssignmentsTimed: 0,
      goldAttempted: 4,
      goldPassed: 3,
      goldAccuracy: 0.75,
    });
    // link: median of 10, 20, 60; no gold, no pay.
    expect(link).toMatchObject({
      workers: 1,
      labels: 3,
      assignments: 0,
      medianSecondsPerLabel: 20,
      effectiveHourlyUsd: null,
      goldAccuracy: null,
      goldAttempted: 0,
    });
    // mturk: w3 counts as a worker through its assignment; pay = (0.5 + 0.5 + 0.5) / ((120 + 60 + 90) / 3600 h) = 1.5 /
    // 0.075 = $20/h.
    expect(mturk).toMatchObject({
      workers: 3,
      labels: 3,
      assignments: 5,
      approved: 2,
      rejected: 1,
      pending: 1,
      medianSecondsPerLabel: 90,
      paidAssignmentsTimed: 3,
      goldAccuracy: 0.5,
    });
    expect(mturk.effectiveHourlyUsd).toBeCloseTo(20, 12);
    // prolific: only p1's session has a work time: $2 / (600 / 3600 h) = $12/h; median of 100 and 200; gold 3/4.
    expect(prolific).toMatchObject({
      workers: 3,
      labels: 2,
      assignments: 3,
      approved: 0,
      rejected: 0,
      pending: 2,
      medianSecondsPerLabel: 150,
      paidAssignmentsTimed: 1,
      goldAccuracy: 0.75,
    });
    expect(prolific.effectiveHourlyUsd).toBeCloseTo(12, 12);
  });

  it("leaves out channels without activity and gives nulls where nothing is known", () => {
    expect(channelStats([], [], [])).toEqual([]);
    const [only] = channelStats([a("mturk", "w1", "submitted", null, 100)], [l("mturk", "w1", null)], []);
    expect(only).toMatchObject({
      channel: "mturk",
      workers: 1,
      labels: 1,
      assignments: 1,
      pending: 1,
      medianSecondsPerLabel: null,
      effectiveHourlyUsd: null,
      goldAccuracy: null,
    });
    expect(channelStats([], [l("web", "e1", 10)], []).map((s) => s.channel)).toEqual(["web"]);
  });

  it("refuses rows that contradict each other or are out of range, naming the row", () => {
    expect(() => channelStats([a("mturk", "x", "approved", 1, 10)], [l("web", "x", 5)], [])).toThrow(
      "assignments[0]: annotator x is on channel mturk here and on web elsewhere",
    );
    expect(() => channelStats([], [l("email" as never, "x", 5)], [])).toThrow(
      'labels[0]: channel must be one of web, link, mturk, prolific, got "email"',
    );
    expect(() => channelStats([a("mturk", "x", "paid" as never, 1, 10)], [], [])).toThrow(
      'assignments[0]: status must be accepted, submitted, approved or rejected, got "paid"',
    );
    expect(() => channelStats([a("mturk", "x", "approved", -1, 10)], [], [])).toThrow(
      "assignments[0]: rewardUsd must be ≥ 0 or null, got -1",
    );
    expect(() => channelStats([], [l("web", "x", Number.NaN)], [])).toThrow(
      "labels[0]: secondsOnTask must be ≥ 0 or null, got NaN",
    );
    expect(() => channelStats([], [l("web", "x", 5)], [{ annotatorId: "y", attempted: 1, passed: 1 }])).toThrow(
      "gold[0]: annotator y has gold results but no labels or assignments",
    );
    expect(() => channelStats([], [l("web", "x", 5)], [{ annotatorId: "x", attempted: 1, passed: 2 }])).toThrow(
      "gold[0]: passed must be a whole number between 0 and attempted, got 2 of 1",
    );
  });
});
