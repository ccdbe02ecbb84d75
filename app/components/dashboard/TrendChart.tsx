/**
 * The dashboard's charts, drawn by the server (app/server/charts/render.server.ts) and framed
 * with their data table and downloads. Figure 5, consensus by snippet position (the expert mean
 * against each method, 0–100 %), is the same SVG `validate-evaluator` writes to figure5.svg.
 */
import { ChartFrame, type FramedChart } from "../charts/ChartFrame.tsx";

/** A dashboard chart, or nothing while it has no data. */
export function DashboardChart(props: {
  chart: FramedChart | undefined;
  testId: string;
  fileName: string;
  label: string;
}) {
  const { chart, ...rest } = props;
  return chart ? <ChartFrame chart={chart} {...rest} /> : null;
}

/** `chart` is absent while no expert has scored a snippet. */
export function TrendChart({ chart, studyId }: { chart: FramedChart | undefined; studyId?: number }) {
  if (!chart) {
    return <p className="empty-state">No labels yet — the trend appears once experts have scored snippets.</p>;
  }
  return (
    <ChartFrame
      chart={chart}
      testId="trend-chart"
      fileName={studyId === undefined ? "figure5" : `study-${studyId}-figure5`}
      label={`${chart.title}: the expert mean and each method, consensus (score − 1) / 4 in percent`}
    />
  );
}
