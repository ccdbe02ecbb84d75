import type { ReportFigure } from "../../domain/benchmark/report-model.ts";
import { ScrollX } from "../ScrollX.tsx";

/**
 * A report figure: the SVG the server drew from the figure's Vega-Lite spec (the same markup the
 * CLI writes to a file), inlined. Vega's SVG carries no script; its links are plain anchors.
 */
export function ReportFigureView({
  figure,
  svg,
}: {
  figure: Pick<ReportFigure, "id" | "title" | "caption">;
  svg: string;
}) {
  return (
    <figure className="report-figure" data-testid={`report-${figure.id}`}>
      <ScrollX label={figure.title}>
        <div
          className="report-svg"
          role="img"
          aria-label={`${figure.title}. ${figure.caption}`}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG that vega rendered on the server from our data
          dangerouslySetInnerHTML={{ __html: svg }}
        />
      </ScrollX>
      <figcaption>
        <strong>{figure.title}.</strong> {figure.caption}
      </figcaption>
    </figure>
  );
}
