/**
 * Per-channel figures for the study dashboard: how many workers came through each way in (expert
 * web accounts, signed links, Mechanical Turk, Prolific), what the channel reported about their
 * paid work, how long a label took, what the work paid per hour, and how they did on gold items.
 * Pure: the server loads the rows.
 */
import { median } from "../validation/rows.ts";
import { WORKER_CHANNELS, type WorkerChannel } from "../../crowd-channels/registry.ts";

/** Expert and admin accounts log in on the web; crowd workers arrive through a channel (app/crowd-channels). */
export type Channel = "web" | WorkerChannel;
export const CHANNELS: readonly Channel[] = ["web", ...WORKER_CHANNELS];

export interface ChannelAssignmentRow {
  channel: Channel;
  annotatorId: string;
  /** accepted | submitted | approved | rejected, as the channel last reported it. */
  status: "accepted" | "submitted" | "approved" | "rejected";
  rewardUsd: number | null;
  workSeconds: number | null;
}

export interface ChannelLabelRow {
  annotatorId: string;
  channel: Channel;
  secondsOnTask: number | null;
}

export interface ChannelGoldRow {
  annotatorId: string;
  attempted: number;
  passed: number;
}

export interface ChannelStats {
  channel: Channel;
  /** Distinct annotators with a label or an assignment on this channel. */
  workers: number;
  labels: number;
  /** Paid units the channel knows of (MTurk assignments, Prolific sessions), whatever their status. */
  assignments: number;
  approved: number;
  rejected: number;
  /** Submitted and waiting for a decision. */
  pending: number;
  medianSecondsPerLabel: number | null;
  /** Σ reward / Σ hours over non-rejected assignments that have both; null when there are none. */
  effectiveHourlyUsd: number | null;
  /** The assignments that figure rests on. */
  paidAssignmentsTimed: number;
  goldAttempted: number;
  goldPassed: number;
  /** Pooled over the channel's workers: Σ passed / Σ attempted; null without gold labels. */
  goldAccuracy: number | null;
}

const STATUSES = new Set(["accepted", "submitted", "approved", "rejected"]);

const isChannel = (value: unknown): value is Channel =>
  typeof value === "string" && (CHANNELS as readonly string[]).includes(value);
const nonNegative = (value: number | null) => value === null || (Number.isFinite(value) && value >= 0);

/** What channelStats adds up per channel before it derives the figures. */
interface ChannelTally {
  workers: Set<string>;
  labels: number;
  seconds: number[];
  assignments: number;
  approved: number;
  rejected: number;
  pending: number;
  reward: number;
  paidSeconds: number;
  timed: number;
  goldAttempted: number;
  goldPassed: number;
}

function tallyOf(tallies: Map<Channel, ChannelTally>, channel: Channel): ChannelTally {
  let a = tallies.get(channel);
  if (!a)
    tallies.set(
      channel,
      (a = {
        workers: new Set(),
        labels: 0,
        seconds: [],
        assignments: 0,
        approved: 0,
        rejected: 0,
        pending: 0,
        reward: 0,
        paidSeconds: 0,
        timed: 0,
        goldAttempted: 0,
        goldPassed: 0,
      }),
    );
  return a;
}

/** Records the annotator's channel; a worker may come through one channel only. */
function claimChannel(channelOf: Map<string, Channel>, annotatorId: string, channel: unknown, where: string): Channel {
  if (!isChannel(channel))
    throw new RangeError(`${where}: channel must be one of ${CHANNELS.join(", ")}, got ${JSON.stringify(channel)}`);
  const known = channelOf.get(annotatorId);
  if (known && known !== channel)
    throw new RangeError(`${where}: annotator ${annotatorId} is on channel ${channel} here and on ${known} elsewhere`);
  channelOf.set(annotatorId, channel);
  return channel;
}

function addLabel(a: ChannelTally, row: ChannelLabelRow, where: string): void {
  if (!nonNegative(row.secondsOnTask))
    throw new RangeError(`${where}: secondsOnTask must be ≥ 0 or null, got ${row.secondsOnTask}`);
  a.workers.add(row.annotatorId);
  a.labels++;
  if (row.secondsOnTask !== null) a.seconds.push(row.secondsOnTask);
}

function addAssignment(a: ChannelTally, row: ChannelAssignmentRow, where: string): void {
  if (!STATUSES.has(row.status))
    throw new RangeError(
      `${where}: status must be accepted, submitted, approved or rejected, got ${JSON.stringify(row.status)}`,
    );
  if (!nonNegative(row.rewardUsd))
    throw new RangeError(`${where}: rewardUsd must be ≥ 0 or null, got ${row.rewardUsd}`);
  if (!nonNegative(row.workSeconds))
    throw new RangeError(`${where}: workSeconds must be ≥ 0 or null, got ${row.workSeconds}`);
  a.workers.add(row.annotatorId);
  a.assignments++;
  if (row.status === "approved") a.approved++;
  else if (row.status === "rejected") a.rejected++;
  else if (row.status === "submitted") a.pending++;
  // Rejected work is not paid; zero seconds cannot carry an hourly rate.
  if (row.status !== "rejected" && row.rewardUsd !== null && row.workSeconds !== null && row.workSeconds > 0) {
    a.reward += row.rewardUsd;
    a.paidSeconds += row.workSeconds;
    a.timed++;
  }
}

/** Gold results count on the channel the annotator's labels or assignments came through. */
function addGold(
  tallies: Map<Channel, ChannelTally>,
  channelOf: Map<string, Channel>,
  row: ChannelGoldRow,
  where: string,
) {
  const channel = channelOf.get(row.annotatorId);
  if (!channel)
    throw new RangeError(`${where}: annotator ${row.annotatorId} has gold results but no labels or assignments`);
  if (
    !Number.isInteger(row.attempted) ||
    !Number.isInteger(row.passed) ||
    row.passed < 0 ||
    row.passed > row.attempted
  ) {
    throw new RangeError(
      `${where}: passed must be a whole number between 0 and attempted, got ${row.passed} of ${row.attempted}`,
    );
  }
  const a = tallyOf(tallies, channel);
  a.goldAttempted += row.attempted;
  a.goldPassed += row.passed;
}

function summariseTally(channel: Channel, a: ChannelTally): ChannelStats {
  return {
    channel,
    workers: a.workers.size,
    labels: a.labels,
    assignments: a.assignments,
    approved: a.approved,
    rejected: a.rejected,
    pending: a.pending,
    medianSecondsPerLabel: median(a.seconds),
    effectiveHourlyUsd: a.timed > 0 ? a.reward / (a.paidSeconds / 3600) : null,
    paidAssignmentsTimed: a.timed,
    goldAttempted: a.goldAttempted,
    goldPassed: a.goldPassed,
    goldAccuracy: a.goldAttempted > 0 ? a.goldPassed / a.goldAttempted : null,
  };
}

/**
 * One row per channel with any label or assignment, in the order of CHANNELS (web, then the registry's).
 * Gold rows are attributed through the annotator's channel as the label and assignment rows
 * give it; a worker seen on two channels, or a gold row for an unknown worker, is an error.
 */
export function channelStats(
  assignments: readonly ChannelAssignmentRow[],
  labels: readonly ChannelLabelRow[],
  gold: readonly ChannelGoldRow[],
): ChannelStats[] {
  const channelOf = new Map<string, Channel>();
  const tallies = new Map<Channel, ChannelTally>();
  // Labels first, then assignments, then gold: gold needs the channels the other two establish.
  labels.forEach((row, i) => {
    const where = `labels[${i}]`;
    addLabel(tallyOf(tallies, claimChannel(channelOf, row.annotatorId, row.channel, where)), row, where);
  });
  assignments.forEach((row, i) => {
    const where = `assignments[${i}]`;
    addAssignment(tallyOf(tallies, claimChannel(channelOf, row.annotatorId, row.channel, where)), row, where);
  });
  gold.forEach((row, i) => addGold(tallies, channelOf, row, `gold[${i}]`));
  return CHANNELS.filter((c) => tallies.has(c)).map((channel) => summariseTally(channel, tallies.get(channel)!));
}
