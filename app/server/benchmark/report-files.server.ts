/**
 * Writes a built report as files: `report.md`, one csv per table and figure, one svg per figure
 * (drawn by Vega from the figure's spec) and `report.html`, one self-contained page with the
 * tables and the inline SVGs and no script.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  benchmarkDocument,
  documentMarkdown,
  figureCsv,
  formatValue,
  tableCsv,
  type ReportDocument,
} from "../../domain/benchmark/report/format.ts";
import type { BenchmarkReport, ReportTable } from "../../domain/benchmark/report-model.ts";
import { renderChartSvg } from "../charts/render.server.ts";
import { checkOutputFolder, writeFileInFolder } from "../output-folder.server.ts";

export const REPORT_FORMATS = ["md", "csv", "svg", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Every string interpolated below goes through esc (text and attribute values alike); the SVGs come escaped from Vega's
 * renderer.
 */
const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

function tableHtml(table: ReportTable): string {
  const head = table.columns
    .map((c) => `<th scope="col">${esc(c.group ? `${c.group} ${c.label}` : c.label)}</th>`)
    .join("");
  let group: string | undefined;
  const body = table.rows
    .map((r) => {
      const header =
        r.group && r.group !== group
          ? `<tr><th scope="rowgroup" colspan="${table.columns.length + 1}">${esc(r.group)}</th></tr>\n`
          : "";
      group = r.group;
      return `${header}<tr><th scope="row">${esc(r.label)}</th>${table.columns.map((c) => `<td>${esc(formatValue(r.cells[c.key], table.scale))}</td>`).join("")}</tr>`;
    })
    .join("\n");
  return `<section><h2>${esc(table.title)}</h2><p>${esc(table.caption)}</p><table><thead><tr><th scope="col">${esc(table.rowLabel ?? "Mediator")}</th>${head}</tr></thead><tbody>\n${body}\n</tbody></table><ul>${table.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul></section>`;
}

export function reportHtml(report: ReportDocument, svgs: ReadonlyMap<string, string>): string {
  const figures = report.figures
    .map((f) => `<section><h2>${esc(f.title)}</h2><p>${esc(f.caption)}</p>${svgs.get(f.id) ?? ""}</section>`)
    .join("\n");
  const warnings =
    report.warnings.length > 0
      ? `<h2>Warnings</h2><ul>${report.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>`
      : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(report.title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:110em}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}th[scope=row],th[scope=rowgroup]{text-align:left}svg{max-width:100%;height:auto}</style>
</head><body><h1>${esc(report.title)}</h1>
<ul>${report.header.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>${warnings}
${report.tables.map(tableHtml).join("\n")}
${figures}
</body></html>
`;
}

/** Writes the benchmark report's chosen formats into outDir (created) and returns the paths written. */
export function writeReportFiles(
  report: BenchmarkReport,
  outDir: string,
  formats: readonly ReportFormat[] = REPORT_FORMATS,
): Promise<string[]> {
  return writeDocumentFiles(benchmarkDocument(report), outDir, formats);
}

/**
 * Writes any report document: `report.md`, a csv per table and figure, an svg per figure,
 * `report.html`. A symbolically linked folder, or links in it, are refused before anything is written.
 */
export async function writeDocumentFiles(
  report: ReportDocument,
  outDir: string,
  formats: readonly ReportFormat[] = REPORT_FORMATS,
): Promise<string[]> {
  checkOutputFolder(outDir);
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  const write = (name: string, content: string) => {
    const path = join(outDir, name);
    writeFileInFolder(path, content);
    written.push(path);
  };
  const svgs = new Map<string, string>();
  if (formats.includes("svg") || formats.includes("html")) {
    for (const figure of report.figures) svgs.set(figure.id, await renderChartSvg(figure.spec));
  }
  if (formats.includes("md"))
    write(
      "report.md",
      documentMarkdown(report, (f) => (formats.includes("svg") ? `${f.id}.svg` : null)),
    );
  if (formats.includes("csv")) {
    for (const table of report.tables) write(`${table.id}.csv`, tableCsv(table));
    for (const figure of report.figures) write(`${figure.id}.csv`, figureCsv(figure));
  }
  if (formats.includes("svg")) for (const figure of report.figures) write(`${figure.id}.svg`, svgs.get(figure.id)!);
  if (formats.includes("html")) write("report.html", reportHtml(report, svgs));
  return written;
}
