import { describe, expect, it } from "vitest";
import { createProgress, formatDuration } from "../../../scripts/progress.ts";

function fakeStream() {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY: false, columns: 80, write: (text: string) => (chunks.push(text), true) } };
}

describe("progress with ETA and the cost", () => {
  it("estimates the time left from the pace of this process's steps, not the skipped ones", () => {
    const { chunks, stream } = fakeStream();
    let clock = 0;
    let spent = 0;
    const progress = createProgress("benchmark", 10, {
      stream,
      unit: "steps",
      eta: true,
      cost: () => spent,
      plainEveryMs: 0,
      now: () => clock,
      env: { NO_COLOR: "1" },
    });
    progress.skip(4); // already done by an earlier process: counted, not timed
    clock = 2_000;
    spent = 0.5;
    progress.tick("a");
    clock = 4_000;
    progress.tick("b"); // 2 steps in 4 s → 4 left ≈ 8 s
    progress.done();
    expect(chunks).toEqual([
      "benchmark 4/10 steps · $0.00 spent already done\n",
      "benchmark 5/10 steps · 30 steps/min · ETA 10 s · $0.50 spent a\n",
      "benchmark 6/10 steps · 30 steps/min · ETA 8 s · $0.50 spent b\n",
    ]);
  });

  it("formats durations as coarsely as an estimate deserves", () => {
    expect([formatDuration(45_000), formatDuration(185_000), formatDuration(7_620_000)]).toEqual([
      "45 s",
      "3 min",
      "2 h 07 min",
    ]);
  });
});
