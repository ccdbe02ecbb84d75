/**
 * Every chart's frame (issue 32): the server-drawn SVG — a wide and a narrow drawing, CSS shows
 * the one that fits the screen — then "Show data" (the chart's data as a table), and CSV and SVG
 * downloads built from the same data and drawing as data: links, so they need no route (the
 * dashboard, whose charts are large, links to its charts route instead).
 */
import type { ReactNode } from "react";
import { chartCsv, tableCell, type ChartData, type RenderedChart } from "../../domain/charts/chart-data.ts";
import { ScrollX } from "../ScrollX.tsx";

/**
 * A chart as a page hands it to its frame. The dashboard's browser copy of a document's data leaves the two drawings
 * and the data table out (admin.studies.$studyId.tsx): hydration keeps the markup the server wrote for them.
 */
export type FramedChart = Omit<RenderedChart, "svg" | "narrowSvg" | "data"> & {
  svg?: string;
  narrowSvg?: string;
  data?: ChartData;
  /** The data table's inner markup, made once for a chart that many pages show (the dashboard's). */
  tableHtml?: string;
  /** Addresses of the CSV and SVG downloads, where a page serves them; else they are data: links. */
  downloads?: { csv: string; svg: string };
};

interface Props {
  chart: FramedChart;
  testId: string;
  /** What a screen reader hears for the picture (the data table follows it). */
  label: string;
  /** The downloads' file name, without extension. */
  fileName: string;
  className?: string;
  caption?: ReactNode;
  /** Extra attributes on the figure (e.g. data-source). */
  data?: Record<`data-${string}`, string>;
}

const dataHref = (type: string, text: string) => `data:${type};charset=utf-8,${encodeURIComponent(text)}`;

/**
 * A chart's two download links, encoded once per chart object: a cached dashboard hands the same chart to every
 * request, and encoding its SVG and CSV was a good part of the page's render.
 */
const downloads = new WeakMap<FramedChart, { csv?: string; svg?: string }>();
function downloadHrefs(chart: FramedChart): { csv?: string; svg?: string } {
  let hrefs = downloads.get(chart);
  if (!hrefs) {
    const svg = chart.svg === undefined ? undefined : dataHref("image/svg+xml", chart.svg);
    hrefs = { csv: chart.data && dataHref("text/csv", chartCsv(chart.data)), svg };
    downloads.set(chart, hrefs);
  }
  return hrefs;
}

function Drawing({ svg, label, which }: { svg?: string; label: string; which: "wide" | "narrow" }) {
  return (
    <div className={`chart-${which}`}>
      <ScrollX label={label}>
        <div
          className="report-svg"
          role="img"
          aria-label={label}
          // Hydrating without the drawing, React leaves the server's markup as it is (it never compares inner HTML).
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG that vega rendered on the server from our data
          dangerouslySetInnerHTML={{ __html: svg ?? "" }}
        />
      </ScrollX>
    </div>
  );
}

export function ChartFrame({ chart, testId, label, fileName, className, caption, data }: Props) {
  const hrefs = chart.downloads ?? downloadHrefs(chart);
  return (
    <figure className={`report-figure chart-frame ${className ?? ""}`} data-testid={testId} {...data}>
      <Drawing svg={chart.svg} label={label} which="wide" />
      <Drawing svg={chart.narrowSvg} label={label} which="narrow" />
      {caption ? <figcaption>{caption}</figcaption> : null}
      <div className="chart-tools">
        <details className="chart-data">
          <summary>Show data</summary>
          <ChartTable chart={chart} />
        </details>
        <a className="chart-download" download={`${fileName}.csv`} href={hrefs.csv} suppressHydrationWarning>
          Download CSV
        </a>
        <a className="chart-download" download={`${fileName}.svg`} href={hrefs.svg} suppressHydrationWarning>
          Download SVG
        </a>
      </div>
    </figure>
  );
}

function ChartTable({ chart }: { chart: FramedChart }) {
  const className = "data-table chart-data-table";
  return (
    <ScrollX label={`Data of ${chart.title}`}>
      {chart.data && chart.tableHtml === undefined ? (
        <table className={className}>
          <ChartTableContent title={chart.title} data={chart.data} />
        </table>
      ) : (
        <table
          className={className}
          // Like a drawing: made by the server (ChartTableContent) from our data; hydration keeps the server's.
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: markup React rendered on the server from our data
          dangerouslySetInnerHTML={{ __html: chart.tableHtml ?? "" }}
        />
      )}
    </ScrollX>
  );
}

/** The data table's caption, header and rows. */
export function ChartTableContent({ title, data }: { title: string; data: ChartData }) {
  return (
    <>
      <caption>Data of “{title}” (numbers rounded; the CSV has them in full)</caption>
      <thead>
        <tr>
          {data.columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.rows.map((row, i) => (
          <tr key={i}>
            {row.map((v, j) => (
              <td key={j} className={typeof v === "number" ? "num" : undefined}>
                {tableCell(v)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </>
  );
}
