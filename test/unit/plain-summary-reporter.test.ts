/** The reporter's list of the slowest test files, printed at the end of `npm test`. */
import { describe, expect, it } from "vitest";
import { slowestFiles } from "../plain-summary-reporter.ts";

const file = (name: string, collect: number, setup: number, run: number) => ({
  type: "suite",
  name,
  collectDuration: collect,
  setupDuration: setup,
  result: { state: "pass", duration: run },
});

describe("slowestFiles", () => {
  it("lists files by collect + setup + test time, slowest first, at most n", () => {
    const files = [file("a.test.ts", 100, 0, 900), file("b.test.ts", 2000, 50, 10_450), file("c.test.ts", 0, 0, 3000)];
    expect(slowestFiles(files, 2)).toEqual(["   12.5 s  b.test.ts", "    3.0 s  c.test.ts"]);
  });

  it("counts a file without timings (it never ran) as zero seconds", () => {
    expect(slowestFiles([{ type: "suite", name: "x.test.ts" }, file("y.test.ts", 0, 0, 100)])).toEqual([
      "    0.1 s  y.test.ts",
      "    0.0 s  x.test.ts",
    ]);
  });
});
