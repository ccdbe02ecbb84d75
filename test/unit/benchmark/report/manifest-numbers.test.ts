/** The manifest's flat list of numbers and the comparison --verify makes (pure). */
import { describe, expect, it } from "vitest";
import { describeSourceChange, sourceChanges } from "../../../../app/domain/benchmark/provenance/manifest.ts";
import {
  describeDifference,
  firstDifference,
  reportNumbers,
} from "../../../../app/domain/benchmark/provenance/numbers.ts";
import type { ReportTable } from "../../../../app/domain/benchmark/report-model.ts";

const table = (mean: number | null, rho: number | null): ReportTable => ({
  id: "t",
  title: "T",
  caption: "",
  scale: "percent",
  columns: [
    { key: "CG|avg", label: "Avg", group: "CG" },
    { key: "rho", label: "ρ" },
  ],
  rows: [
    {
      key: "alpha",
      label: "Alpha",
      cells: {
        "CG|avg": { mean, median: mean, n: 2, missing: 1, ci: null, runIds: ["a", "b"] },
        rho: { text: rho === null ? "–" : rho.toFixed(3), value: rho },
      },
    },
  ],
  notes: [],
});

const numbersOf = (mean: number | null, rho: number | null) =>
  reportNumbers({ tables: [table(mean, rho)], figures: [] });

describe("report numbers", () => {
  it("lists every field of every cell with its labels, and keeps what JSON cannot hold as text", () => {
    const list = numbersOf(Number.NaN, -0);
    expect(list.map((n) => `${n.column}.${n.field}=${JSON.stringify(n.value)}`)).toEqual([
      'CG|avg.mean="NaN"',
      'CG|avg.median="NaN"',
      "CG|avg.n=2",
      "CG|avg.missing=1",
      "CG|avg.ciLow=null",
      "CG|avg.ciHigh=null",
      "rho.value=0",
      'rho.text="0.000"',
    ]);
    expect(Object.is(list[6].value, 0)).toBe(true);
    expect(list[0]).toMatchObject({ rowLabel: "Alpha", columnLabel: "CG Avg" });
  });

  it("names the first number that differs, stored and recomputed, or null when all are identical", () => {
    const stored = JSON.parse(JSON.stringify(numbersOf(0.25, 0.5)));
    expect(firstDifference(stored, numbersOf(0.25, 0.5))).toBeNull();
    const d = firstDifference(stored, numbersOf(0.25, 0.4))!;
    expect(describeDifference(d)).toBe("t, row Alpha (alpha), column ρ (rho), value: stored 0.5, recomputed 0.4");
    const gone = firstDifference(
      stored,
      numbersOf(0.25, 0.5).filter((n) => n.column !== "rho"),
    )!;
    expect(describeDifference(gone)).toBe("t, row Alpha (alpha), column ρ (rho), value: stored 0.5, recomputed absent");
    const added = firstDifference(stored.slice(0, 6), numbersOf(0.25, 0.5))!;
    expect(describeDifference(added)).toBe(
      "t, row Alpha (alpha), column ρ (rho), value: stored absent, recomputed 0.5",
    );
  });

  it("lists the source rows whose hash changed, appeared or went", () => {
    const rows = (hashes: Record<string, string>) => ({ t: { rows: Object.keys(hashes).length, digest: "", hashes } });
    const changes = sourceChanges(rows({ a: "1", b: "2", c: "3" }), rows({ a: "1", b: "9", d: "4" }));
    expect(changes).toEqual([{ table: "t", changed: ["b"], added: ["d"], removed: ["c"] }]);
    expect(describeSourceChange(changes[0])).toBe("t: 1 changed (b); 1 added (d); 1 removed (c)");
    expect(sourceChanges(rows({ a: "1" }), rows({ a: "1" }))).toEqual([]);
  });
});
