import { describe, expect, it } from "vitest";
import type { ReportCell, ReportTable } from "../../../app/domain/benchmark/report-model.ts";
import { cellTitle, heatRanges, heatStyle, leaderboard } from "../../../app/domain/benchmark/report-view.ts";

const cell = (mean: number | null, n = 4, extra: Partial<ReportCell> = {}): ReportCell => ({
  mean,
  median: mean,
  n,
  missing: 0,
  ci: null,
  runIds: [],
  ...extra,
});

const table: ReportTable = {
  id: "table3",
  title: "T3",
  caption: "",
  scale: "percent",
  columns: [
    { key: "CG|legal", label: "legal", group: "CG" },
    { key: "CG|avg", label: "Avg", group: "CG" },
    { key: "IT|avg", label: "Avg", group: "IT" },
  ],
  rows: [
    { key: "A", label: "A", cells: { "CG|legal": cell(0.1), "CG|avg": cell(0.2), "IT|avg": cell(0.9) } },
    { key: "B", label: "B", cells: { "CG|legal": cell(0.3), "CG|avg": cell(0.4), "IT|avg": cell(0.5) } },
    {
      key: "C",
      label: "C",
      cells: { "CG|legal": cell(null, 0, { missing: 2 }), "CG|avg": cell(0.4), "IT|avg": cell(null, 0) },
    },
    { key: "avg", label: "Average", cells: { "CG|avg": cell(0.33) } },
  ],
  notes: [],
};

describe("the report on the page", () => {
  it("shades each metric on its own range, palest at the lowest mean", () => {
    const ranges = heatRanges(table);
    expect(ranges.get("CG")).toEqual({ min: 0.1, max: 0.4 });
    expect(ranges.get("IT")).toEqual({ min: 0.5, max: 0.9 });
    expect(heatStyle(table, ranges, "CG|legal", table.rows[0].cells["CG|legal"])).toEqual({
      background: "hsl(212 65% 95%)",
      color: "#000",
    });
    expect(heatStyle(table, ranges, "CG|avg", table.rows[1].cells["CG|avg"])).toEqual({
      background: "hsl(212 65% 40%)",
      color: "#fff",
    });
    expect(heatStyle(table, ranges, "CG|legal", table.rows[2].cells["CG|legal"])).toBeNull();
  });

  it("keeps every shade's text at WCAG AA contrast (4.5:1), computed from the colours themselves", () => {
    // sRGB of hsl(212 65% L%), then WCAG 2 relative luminance and contrast ratio.
    const rgb = (l: number) => {
      const s = 0.65;
      const a = s * Math.min(l, 1 - l);
      const f = (n: number) => {
        const k = (n + 212 / 30) % 12;
        return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
      };
      return [f(0), f(8), f(4)];
    };
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const contrast = (x: number, y: number) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
    const ranges = new Map([["CG", { min: 0, max: 1 }]]);
    const worst = Array.from({ length: 101 }, (_, i) => {
      const style = heatStyle(table, ranges, "CG|avg", cell(i / 100))!;
      const lightness = Number(/(\d+)%\)$/.exec(style.background)![1]) / 100;
      return contrast(luminance(rgb(lightness)), style.color === "#fff" ? 1 : 0);
    }).reduce((a, b) => Math.min(a, b));
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });

  it("ranks mediators by average consensus gain, ties sharing a rank, the pooled row left out", () => {
    const rows = leaderboard(table, ["CG", "IT"], (m) => `${m}|avg`, "CG", "avg");
    expect(rows.map((r) => [r.rank, r.mediator])).toEqual([
      [1, "B"],
      [1, "C"],
      [3, "A"],
    ]);
    expect(rows[0].cells.IT?.mean).toBe(0.5);
  });

  it("says on hover what a cell rests on", () => {
    expect(cellTitle(cell(0.25, 8, { median: 0.2, ci: [0.1, 0.4], missing: 1 }), "percent")).toBe(
      "mean 25.0 over 8 · median 20.0 · 95% CI 10.0 to 40.0 over scenarios · 1 without a value (incomplete or undefined), left out",
    );
    expect(cellTitle({ text: "ρ = 0.80 (p 0.20)", value: 0.8 }, "raw")).toBe("ρ = 0.80 (p 0.20)");
  });
});
