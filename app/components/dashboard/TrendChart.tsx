/**
 * Consensus by snippet position (the paper's Figure 5): the expert mean against each method, on
 * 0–100 %. The server draws it from trendChartSpec with renderChartSvg (the same SVG
 * `validate-evaluator` writes to figure5.svg) and the page inlines it; Vega's SVG carries no script.
 */
import { ScrollX } from "../ScrollX.tsx";

/** `svg` is null when no expert has scored a snippet yet. */
export function TrendChart({ svg, title = "Consensus by snippet position" }: { svg: string | null; title?: string }) {
  if (svg === null) {
    return <p className="empty-state">No labels yet — the trend appears once experts have scored snippets.</p>;
  }
  return (
    <figure className="report-figure" data-testid="trend-chart">
      <ScrollX label={title}>
        <div
          className="report-svg"
          role="img"
          aria-label={`${title}: the expert mean and each method, consensus (score − 1) / 4 in percent`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG that vega rendered on the server from our data
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      </ScrollX>
    </figure>
  );
}
