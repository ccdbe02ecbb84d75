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
    expect(chunks.join("")).toBe("simulate 1/3 run a: resolved\nsimulate 2/3 (1 failed) failed: run b: HTTP 400\nsimulate 3/3 (1 failed)\n");
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
    for (const chunk of chunks.filter((c) => c.startsWith("\r") && !c.includes("\n"))) expect(chunk.length).toBeLessThanOrEqual(60);
  });
});
