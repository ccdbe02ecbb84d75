// The dashboard's charts as its loader returns them: drawings and table readable by the server render but not sent.
import { describe, expect, it } from "vitest";
import { chartTableMarkup } from "../../../app/components/charts/chart-table-markup.server.ts";
import type { DashboardCharts, RenderedChart } from "../../../app/domain/charts/chart-data.ts";
import {
  chartDownload,
  chartDrawingsJson,
  chartsWithoutDrawings,
} from "../../../app/server/annotation/dashboard-drawings.server.ts";

const chart = (title: string): RenderedChart => ({
  title,
  svg: `<svg>${title} wide</svg>`,
  narrowSvg: `<svg>${title} narrow</svg>`,
  data: {
    columns: ["position", "consensus"],
    rows: [
      [1, 0.123456],
      [2, null],
    ],
  },
});
const charts: DashboardCharts = { trend: chart("Trend"), gold: chart("Gold <accuracy>") };

describe("the dashboard's charts without their drawings", () => {
  it("sends title and download links only; the drawings and table are there to read, not enumerable", () => {
    const shown = chartsWithoutDrawings(charts, chartTableMarkup, "/admin/studies/7/charts?exclude=flagged");
    // What the data's encoder sees: own enumerable keys.
    expect(JSON.parse(JSON.stringify(shown))).toEqual({
      trend: {
        title: "Trend",
        downloads: {
          csv: "/admin/studies/7/charts?exclude=flagged&download=trend.csv",
          svg: "/admin/studies/7/charts?exclude=flagged&download=trend.svg",
        },
      },
      gold: expect.objectContaining({ title: "Gold <accuracy>" }),
    });
    const trend = shown.trend as unknown as Record<string, string>;
    expect(trend.svg).toBe("<svg>Trend wide</svg>");
    expect(trend.narrowSvg).toBe("<svg>Trend narrow</svg>");
    expect(trend.tableHtml).toContain('<th scope="col">consensus</th>');
    expect(trend.tableHtml).toContain('<td class="num">0.123</td></tr><tr><td class="num">2</td><td>—</td>');
    // Made once per cached charts object.
    expect(chartsWithoutDrawings(charts, chartTableMarkup, "/admin/studies/7/charts?exclude=flagged")).toBe(shown);
    const plain = chartsWithoutDrawings(charts, chartTableMarkup, "/admin/studies/7/charts");
    expect(plain.gold?.downloads.csv).toBe("/admin/studies/7/charts?download=gold.csv");
  });

  it("serves the drawings by key, and each download in full", () => {
    const drawings = JSON.parse(chartDrawingsJson(charts, chartTableMarkup));
    expect(Object.keys(drawings)).toEqual(["trend", "gold"]);
    expect(drawings.gold.svg).toBe("<svg>Gold <accuracy> wide</svg>");
    expect(drawings.gold.tableHtml).toContain("Data of “Gold &lt;accuracy&gt;”");
    expect(chartDownload(charts, "trend.svg")).toEqual({
      type: "image/svg+xml; charset=utf-8",
      body: charts.trend?.svg,
    });
    expect(chartDownload(charts, "trend.csv")?.body).toBe("position,consensus\r\n1,0.123456\r\n2,\r\n");
    expect(chartDownload(charts, "fidelity.csv")).toBeNull();
    expect(chartDownload(charts, "trend.png")).toBeNull();
  });
});
