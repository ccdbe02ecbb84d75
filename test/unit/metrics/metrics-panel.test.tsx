// The run page's metrics panel: every registered metric gets its row, label, value and explanation from the registry.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MetricsPanel } from "../../../app/components/MetricsPanel.tsx";
import type { MetricView, RunMetrics } from "../../../app/domain/catalog-views.ts";
import { readsEvaluation, METRICS } from "../../../app/domain/metrics/registry.ts";

const view = (metric: string, detail: Record<string, unknown> = {}): MetricView => ({
  metric,
  value: 0.5,
  detail,
  params: {},
  computedAt: "2025-01-01T00:00:00Z",
});

describe("MetricsPanel", () => {
  it("shows a row for each stored metric of every registered kind, in registry order", () => {
    const evaluation = { id: "r:topic-localized:j", method: "topic-localized" as const, backbone: "j" };
    const perTurn = { id: "r:per-turn:j", method: "per-turn" as const, backbone: "j" };
    const byInput = (input: string) =>
      METRICS.filter((m) => m.input === input).map((m) => view(m.id, { backbone: "j" }));
    const metrics: RunMetrics = {
      run: METRICS.filter((m) => !readsEvaluation(m.id) && m.level !== "pair").map((m) => view(m.id)),
      evaluations: { [evaluation.id]: byInput("topic-localized"), [perTurn.id]: byInput("per-turn") },
      pair: { id: "p", rows: byInput("matched-pair") },
      computedAt: "2025-01-01T00:00:00Z",
    };
    const html = renderToStaticMarkup(
      <MetricsPanel run={{ id: "r", mediated: true }} metrics={metrics} evaluations={[evaluation, perTurn]} />,
    );
    const shown = [...html.matchAll(/data-metric="([A-Z]+)"/g)].map((m) => m[1]);
    expect([...shown].sort()).toEqual(METRICS.map((m) => m.id).sort());
    // Each id is a glossary link whose title (its accessible description) opens with the metric's label.
    for (const m of METRICS) expect(html).toContain(`title="${m.label.replace(/'/g, "&#x27;")}: `);
    expect(html).toContain("Topic-localized C[t] · j");
    expect(html).toContain("The run itself");
  });

  it("shows a placeholder for a mediated run not judged yet, and a hint when nothing is computed", () => {
    const metrics: RunMetrics = { run: [view("IF")], evaluations: {}, pair: null, computedAt: "2025-01-01T00:00:00Z" };
    expect(
      renderToStaticMarkup(<MetricsPanel run={{ id: "r", mediated: true }} metrics={metrics} evaluations={[]} />),
    ).toContain("not judged yet");
    const unmediated = renderToStaticMarkup(
      <MetricsPanel run={{ id: "r", mediated: false }} metrics={{ ...metrics, run: [] }} evaluations={[]} />,
    );
    expect(unmediated).not.toContain("not judged yet");
    expect(unmediated).not.toContain('data-metric="MI"');
    expect(unmediated).toContain("IT, IE, IF, FI, RL, ME, MI and ER are mediator metrics: unmediated runs have none.");
    expect(
      renderToStaticMarkup(<MetricsPanel run={{ id: "r", mediated: true }} metrics={metrics} evaluations={[]} />),
    ).not.toContain("mediator metrics:");
    const empty = renderToStaticMarkup(
      <MetricsPanel
        run={{ id: "r", mediated: true }}
        metrics={{ run: [], evaluations: {}, pair: null, computedAt: null }}
        evaluations={[]}
      />,
    );
    expect(empty).toContain("No metrics computed for this run yet");
  });

  it("shows ProMediate's reference values beside the spec's, and a reference row stored alone", () => {
    const perTurn = { id: "r:per-turn:j", method: "per-turn" as const, backbone: "j" };
    const row = (metric: string, definitions: string, value: number | null): MetricView => ({
      ...view(metric, definitions === "spec" ? {} : { definitions }),
      value,
      params: { definitions },
    });
    const metrics: RunMetrics = {
      run: [view("IF")],
      evaluations: {
        [perTurn.id]: [
          row("CC", "spec", 0.25),
          row("CC", "promediate-reference", -0.125),
          row("ME", "promediate-reference", 0.5),
        ],
      },
      pair: null,
      computedAt: "2025-01-01T00:00:00Z",
    };
    const html = renderToStaticMarkup(
      <MetricsPanel run={{ id: "r", mediated: true }} metrics={metrics} evaluations={[perTurn]} />,
    );
    expect(html).toContain("ProMediate ref.");
    const cc = /<tr data-metric="CC">(.*?)<\/tr>/.exec(html)![1];
    expect(cc).toContain('data-definitions="spec"><strong>0.250</strong>');
    expect(cc).toMatch(/data-definitions="promediate-reference"[^>]*>-0.125</);
    const me = /<tr data-metric="ME">(.*?)<\/tr>/.exec(html)![1];
    expect(me).toContain("not computed with the spec definitions yet");
    expect(me).toMatch(/data-definitions="promediate-reference"[^>]*>0.500</);
    // The run's own table has no reference rows: no reference column there.
    expect(html.match(/ProMediate ref\./g)).toHaveLength(1);
  });
});
