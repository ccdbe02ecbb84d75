/** Per channel: workers, labels, paid assignments and their outcome, time per label, hourly pay, gold accuracy. */
import type { Channel, ChannelStats } from "../../domain/crowd/channel-stats.ts";
import { CHANNEL_FOLDERS } from "../../crowd-channels/registry.ts";
import { formatPercent, formatSeconds } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";

/** Expert accounts, then each crowd channel folder's own row name. */
const CHANNEL_NAMES = Object.fromEntries([
  ["web", "Web accounts (experts)"],
  ...CHANNEL_FOLDERS.map((f) => [f.id, f.dashboardName]),
]) as Record<Channel, string>;

/** US dollars with cents, e.g. "$12.40". */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return "—";
  return `$${value.toFixed(2)}`;
}

export function ChannelPanel({ channels }: { channels: readonly ChannelStats[] }) {
  if (channels.length === 0) {
    return (
      <p className="empty-state">
        No work yet — channels appear here once someone labels an item or a crowd platform reports an assignment.
      </p>
    );
  }
  return (
    <>
      {/* Ten columns: let the table scroll sideways on a narrow screen rather than squeeze. */}
      <div style={{ overflowX: "auto" }}>
        <ScrollX label="Channels">
          <table className="data-table dash-table" data-testid="channel-table">
            <thead>
              <tr>
                <th>Channel</th>
                <th className="num">Workers</th>
                <th className="num">Labels</th>
                <th className="num">Assignments</th>
                <th className="num">Approved</th>
                <th className="num">Rejected</th>
                <th className="num">Pending</th>
                <th className="num">Median time / label</th>
                <th className="num">Hourly pay</th>
                <th className="num">Gold accuracy</th>
              </tr>
            </thead>
            <tbody>
              {channels.map((c) => (
                <tr key={c.channel} data-channel={c.channel}>
                  <td>{CHANNEL_NAMES[c.channel]}</td>
                  <td className="num">{c.workers}</td>
                  <td className="num">{c.labels}</td>
                  <td className="num">{c.assignments}</td>
                  <td className="num">{c.approved}</td>
                  <td className="num">{c.rejected}</td>
                  <td className="num">{c.pending}</td>
                  <td className="num">{formatSeconds(c.medianSecondsPerLabel)}</td>
                  <td
                    className="num"
                    title={
                      c.paidAssignmentsTimed
                        ? `from ${c.paidAssignmentsTimed} paid assignments with a work time`
                        : "no reward or work time reported"
                    }
                  >
                    {c.effectiveHourlyUsd === null ? "—" : `${formatUsd(c.effectiveHourlyUsd)}/h`}
                  </td>
                  <td className="num">
                    {c.goldAccuracy === null ? (
                      <span className="muted">no gold yet</span>
                    ) : (
                      `${formatPercent(c.goldAccuracy)} (${c.goldPassed}/${c.goldAttempted})`
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </div>
      <p className="dash-note">
        Assignments are the paid units a platform reports (an MTurk assignment, a Prolific session); pending ones are
        submitted and await a decision. Hourly pay is the reward of non-rejected assignments over their reported work
        time; gold accuracy pools every worker on the channel.
      </p>
    </>
  );
}
