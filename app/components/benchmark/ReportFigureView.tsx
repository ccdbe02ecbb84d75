import type { RenderedChart } from "../../domain/charts/chart-data.ts";
import type { ReportFigure } from "../../domain/benchmark/report-model.ts";
import { ChartFrame } from "../charts/ChartFrame.tsx";

/**
 * A report figure: the SVG the server drew from the figure's Vega-Lite spec (the same markup the
 * CLI writes to a file), inlined in a ChartFrame with its data table and downloads. Vega's SVG
 * carries no script; its links are plain anchors. Without a drawing only the caption shows.
 */
export function ReportFigureView({
  figure,
  chart,
}: {
  figure: Pick<ReportFigure, "id" | "title" | "caption">;
  chart: RenderedChart | undefined;
}) {
  const caption = (
    <>
      <strong>{figure.title}.</strong> {figure.caption}
    </>
  );
  if (!chart) {
    return (
      <figure className="report-figure" data-testid={`report-${figure.id}`}>
        <figcaption>{caption}</figcaption>
      </figure>
    );
  }
  return (
    <ChartFrame
      chart={chart}
      testId={`report-${figure.id}`}
      label={`${figure.title}. ${figure.caption}`}
      fileName={figure.id}
      caption={caption}
    />
  );
}
