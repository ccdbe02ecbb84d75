/** The report's mediator rows: grouped by mode in MEDIATOR_MODES order, each mode under its own name. */
import { describe, expect, it } from "vitest";
import { mediatorRows } from "../../../../app/domain/benchmark/report/rows.ts";
import type { ReportInput } from "../../../../app/domain/benchmark/report/input.ts";

describe("mediatorRows", () => {
  it("puts generic, then socially intelligent, then naive mediators, in plan order within a mode", () => {
    const mediators: ReportInput["mediators"] = [
      { name: "n1", mode: "naive" },
      { name: "s1", mode: "social" },
      { name: "g1", mode: "generic" },
      { name: "s2", mode: "social" },
    ];
    expect(mediatorRows({ mediators } as ReportInput)).toEqual([
      { key: "g1", label: "g1", group: "generic mediator" },
      { key: "s1", label: "s1", group: "socially intelligent mediator" },
      { key: "s2", label: "s2", group: "socially intelligent mediator" },
      { key: "n1", label: "n1", group: "naive mediator" },
    ]);
  });
});
