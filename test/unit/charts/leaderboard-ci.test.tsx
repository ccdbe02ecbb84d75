// The leaderboard shows each cell's 95% CI (issue 32), and none where the report has none.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Leaderboard } from "../../../app/components/benchmark/Leaderboard.tsx";
import type { ReportCell } from "../../../app/domain/benchmark/report-model.ts";

const cell = (mean: number, ci: [number, number] | null): ReportCell => ({
  mean,
  median: mean,
  n: 12,
  missing: 0,
  ci,
  runIds: [],
});

describe("Leaderboard", () => {
  it("puts the CI in brackets between the mean and the count, ×100 like the mean", () => {
    const html = renderToStaticMarkup(
      <Leaderboard
        rows={[
          { rank: 1, mediator: "m-a", cells: { CG: cell(0.1234, [0.0812, 0.1655]) } },
          { rank: 2, mediator: "m-b", cells: { CG: cell(0.05, null) } },
        ]}
        metrics={[{ key: "CG", label: "Consensus gain" }]}
      />,
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("12.3 [8.1, 16.6] (12)");
    expect(text).toContain("5.0 (12)");
    expect(html.match(/data-testid="leaderboard-ci"/g)).toHaveLength(1);
    expect(text).toContain("percentile bootstrap over scenarios");
  });
});
