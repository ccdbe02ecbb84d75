/**
 * The run page's emotion section: one chart per emotion trajectory of the run (the parties'
 * self-report, each emotion judge), drawn on the server from app/domain/emotion/chart.ts and
 * inlined — Vega's SVG carries no script, and each point's `<title>` shows its reason on hover.
 */
import type { EmotionChartView } from "../domain/catalog-views.ts";
import { ScrollX } from "./ScrollX.tsx";

function EmotionChart({ chart }: { chart: EmotionChartView }) {
  const title = `Emotion by turn (${chart.label})`;
  return (
    <figure className="report-figure" data-testid="emotion-chart" data-source={chart.label}>
      <ScrollX label={title}>
        <div
          className="report-svg"
          role="img"
          aria-label={`${title}: each party's 0–100 score at its turns, mediator turns as rules`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG that vega rendered on the server from our data
          dangerouslySetInnerHTML={{ __html: chart.svg }}
        />
      </ScrollX>
      {chart.failedParties.length > 0 ? (
        <p className="callout warning" data-testid="emotion-failed">
          The emotion judge failed on {chart.failedParties.join(", ")}: no line for them, and this trajectory's emotion
          metrics stay empty (not computed without them).
        </p>
      ) : null}
    </figure>
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
            <EmotionChart key={c.key} chart={c} />
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
