/**
 * The run page's emotion section: one chart per emotion trajectory of the run (the parties'
 * self-report, each emotion judge), drawn on the server from app/domain/emotion/chart.ts and
 * inlined in a ChartFrame — Vega's SVG carries no script, and each point's `<title>` shows its reason on hover.
 */
import type { EmotionChartView } from "../domain/catalog-views.ts";
import { ChartFrame } from "./charts/ChartFrame.tsx";

function EmotionChart({ chart, runId }: { chart: EmotionChartView; runId: string }) {
  const title = `Emotion by turn (${chart.label})`;
  return (
    <>
      <ChartFrame
        chart={chart.chart}
        testId="emotion-chart"
        data={{ "data-source": chart.label }}
        fileName={`${runId}-emotion-${chart.key}`.replace(/[^\w.-]+/g, "_")}
        label={`${title}: each party's 0–100 score at its turns, mediator turns as rules`}
      />
      {chart.failedParties.length > 0 ? (
        <p className="callout warning" data-testid="emotion-failed">
          The emotion judge failed on {chart.failedParties.join(", ")}: no line for them, and this trajectory's emotion
          metrics stay empty (not computed without them).
        </p>
      ) : null}
    </>
  );
}

export function EmotionSection({ runId, charts }: { runId: string; charts: EmotionChartView[] }) {
  return (
    <section data-testid="emotion-section">
      <h2>Emotion over the run</h2>
      {charts.length === 0 ? (
        <p className="empty-state">
          This run has no emotion scores: simulate with <code>--emotion</code>, or score it with{" "}
          <code>npx socrates evaluate --method emotion --run {runId}</code>.
        </p>
      ) : (
        <>
          {charts.map((c) => (
            <EmotionChart key={c.key} chart={c} runId={runId} />
          ))}
          <p className="muted">
            0–100, higher = calmer and more open. Hover a point for the party's reason — private, like the thoughts: the
            other parties and the mediator never saw it.
          </p>
        </>
      )}
    </section>
  );
}
