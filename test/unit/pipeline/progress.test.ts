import { describe, expect, it } from "vitest";
import { createProgress } from "../../../scripts/progress.ts";

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 60, write: (text: string) => (chunks.push(text), true) } };
}

describe("createProgress", () => {
  it("prints one plain line per step when the stream is not a terminal", () => {
    const { chunks, stream } = fakeStream(false);
    const progress = createProgress("simulate", 3, { stream });
    progress.tick("run a: resolved");
    progress.fail("run b: HTTP 400");
    progress.tick();
    progress.done();
    expect(chunks.join("")).toBe(
      "simulate 1/3 run a: resolved\nsimulate 2/3 (1 failed) failed: run b: HTTP 400\nsimulate 3/3 (1 failed)\n",
    );
  });

  it("prints a plain line per tenth of a long job, every failure, and the last step", () => {
    const { chunks, stream } = fakeStream(false);
    const progress = createProgress("evaluate", 100, { stream });
    for (let i = 1; i <= 100; i++) {
      if (i === 37) progress.fail("run x: HTTP 500");
      else progress.tick(`run ${i}`);
    }
    progress.done();
    const lines = chunks.join("").trim().split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe("evaluate 10/100 run 10");
    expect(lines).toContain("evaluate 37/100 (1 failed) failed: run x: HTTP 500");
    expect(lines.at(-1)).toBe("evaluate 100/100 (1 failed) run 100");
  });

  it("redraws a single bar on a terminal and ends it with a newline once", () => {
    const { chunks, stream } = fakeStream(true);
    const progress = createProgress("sim", 4, { stream });
    progress.tick();
    progress.tick();
    progress.fail("run c: timed out");
    progress.done();
    progress.done();
    const out = chunks.join("");
    expect(chunks[0]).toMatch(/^\rsim \[-{24}\] 0\/4/);
    expect(out).toContain(`\rsim [${"#".repeat(12)}${"-".repeat(12)}] 2/4`);
    expect(out).toContain("sim: run c: timed out\n");
    expect(out).toContain(`\rsim [${"#".repeat(18)}${"-".repeat(6)}] 3/4 (1 failed)`);
    expect(out.endsWith("\n")).toBe(true);
    expect(out.match(/\n/g)).toHaveLength(2);
    for (const chunk of chunks.filter((c) => c.startsWith("\r") && !c.includes("\n")))
      expect(chunk.length).toBeLessThanOrEqual(60);
  });
});
