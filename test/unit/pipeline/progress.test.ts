import { describe, expect, it } from "vitest";
import { createProgress } from "../../../scripts/progress.ts";

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 100, write: (text: string) => (chunks.push(text), true) } };
}

const PLAIN_ENV = { NO_COLOR: "1" }; // colour is tested on its own, below

describe("createProgress", () => {
  it("prints a plain line at most every few seconds, every failure, and the last step", () => {
    const { chunks, stream } = fakeStream(false);
    let clock = 0;
    const progress = createProgress("simulate", 4, {
      stream,
      unit: "runs",
      eta: true,
      cost: () => 0.125,
      now: () => clock,
      env: PLAIN_ENV,
    });
    clock = 1_000;
    progress.tick("run a: resolved"); // 1 s after the start: too soon for a line
    clock = 6_000;
    progress.tick("run b: resolved"); // 2 runs in 6 s → 20 runs/min, 2 left ≈ 6 s
    clock = 7_000;
    progress.fail("run c: HTTP 400");
    clock = 8_000;
    progress.tick("run d: resolved");
    progress.done();
    expect(chunks).toEqual([
      "simulate 2/4 runs · 20 runs/min · ETA 6 s · $0.13 spent run b: resolved\n",
      "simulate 3/4 runs · 1 failed · 26 runs/min · ETA 2 s · $0.13 spent failed: run c: HTTP 400\n",
      "simulate 4/4 runs · 1 failed · 30 runs/min · $0.13 spent run d: resolved\n",
    ]);
  });

  it("paces and estimates from this process's steps, not the skipped ones", () => {
    const { chunks, stream } = fakeStream(false);
    let clock = 0;
    const progress = createProgress("evaluate", 160, {
      stream,
      unit: "runs",
      eta: true,
      now: () => clock,
      env: PLAIN_ENV,
    });
    progress.skip(100);
    for (let i = 1; i <= 12; i++) {
      clock = 20_000 * i;
      progress.tick(); // 12 runs in 4 min: 3 runs/min, 48 left → 16 min
    }
    expect(chunks.at(-1)).toBe("evaluate 112/160 runs · 3.0 runs/min · ETA 16 min\n");
  });

  it("redraws one line in place on a terminal and ends it with a newline once", () => {
    const { chunks, stream } = fakeStream(true);
    let clock = 0;
    const progress = createProgress("sim", 4, { stream, unit: "runs", eta: true, now: () => clock, env: PLAIN_ENV });
    clock = 30_000;
    progress.tick();
    progress.tick();
    progress.fail("run c: timed out");
    progress.done();
    progress.done();
    const out = chunks.join("");
    expect(chunks[0]).toMatch(/^\rsim \[-{24}\] 0\/4 runs/);
    expect(out).toContain(`\rsim [${"#".repeat(12)}${"-".repeat(12)}] 2/4 runs · 4.0 runs/min · ETA 30 s`);
    expect(out).toContain("sim: run c: timed out\n");
    expect(out).toContain(`\rsim [${"#".repeat(18)}${"-".repeat(6)}] 3/4 runs · 1 failed`);
    expect(out.endsWith("\n")).toBe(true);
    expect(out.match(/\n/g)).toHaveLength(2);
    for (const chunk of chunks.filter((c) => c.startsWith("\r") && !c.includes("\n")))
      expect(chunk.length).toBeLessThanOrEqual(100);
  });

  it("colours the label and failures only when colour is on", () => {
    for (const [isTTY, env, coloured] of [
      [true, {}, true],
      [true, { NO_COLOR: "1" }, false],
      [false, {}, false],
      [false, { FORCE_COLOR: "1" }, true],
      [false, { FORCE_COLOR: "1", NO_COLOR: "1" }, false],
    ] as const) {
      const { chunks, stream } = fakeStream(isTTY);
      const progress = createProgress("simulate", 2, { stream, unit: "runs", env });
      progress.fail("run a: HTTP 500");
      progress.tick();
      progress.done();
      expect(chunks.join("").includes("\x1b["), JSON.stringify({ isTTY, env })).toBe(coloured);
    }
  });
});
