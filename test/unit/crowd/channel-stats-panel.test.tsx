// The dashboard's channel table, rendered to HTML from channelStats' real output.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChannelPanel, formatUsd } from "../../../app/components/dashboard/ChannelPanel.tsx";
import { channelStats } from "../../../app/domain/crowd/channel-stats.ts";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("channel panel", () => {
  it("shows one row per channel with money, times and gold accuracy formatted", () => {
    const stats = channelStats(
      [
        { channel: "mturk", annotatorId: "w1", status: "approved", rewardUsd: 0.5, workSeconds: 120 },
        { channel: "mturk", annotatorId: "w2", status: "rejected", rewardUsd: 0.5, workSeconds: 30 },
      ],
      [
        { channel: "web", annotatorId: "e1", secondsOnTask: 75 },
        { channel: "mturk", annotatorId: "w1", secondsOnTask: 120 },
      ],
      [{ annotatorId: "w1", attempted: 4, passed: 3 }],
    );
    const html = renderToStaticMarkup(<ChannelPanel channels={stats} />);
    const rows = [...html.matchAll(/<tr data-channel="(\w+)">(.*?)<\/tr>/g)].map((m) => [m[1], text(m[2])]);
    // $0.50 for 120 s is $15.00 an hour; the rejected assignment is not paid.
    expect(rows).toEqual([
      ["web", "Web accounts (experts) 1 1 0 0 0 0 1 min 15 s — no gold yet"],
      ["mturk", "Mechanical Turk 2 1 2 1 1 0 2 min 00 s $15.00/h 75% (3/4)"],
    ]);
  });

  it("says so when there is no work yet, and formats dollars with cents", () => {
    expect(text(renderToStaticMarkup(<ChannelPanel channels={[]} />))).toMatch(/^No work yet/);
    expect([formatUsd(12), formatUsd(0.125), formatUsd(null)]).toEqual(["$12.00", "$0.13", "—"]);
  });
});
