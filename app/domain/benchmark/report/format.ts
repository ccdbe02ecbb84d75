/** Pure text forms of the report: cell strings, the markdown document and the csv files. */
import { csvRecord } from "../../csv.ts";
import {
  isReportCell,
  type BenchmarkReport,
  type ReportFigure,
  type ReportTable,
  type ReportValue,
} from "../report-model.ts";

/** A mean as reported: ×100 with one decimal for percent tables, three decimals otherwise; "—" for none. */
export function formatMean(mean: number | null, scale: ReportTable["scale"]): string {
  if (mean === null) return "—";
  return scale === "percent" ? (mean * 100).toFixed(1) : mean.toFixed(3);
}

/** "61.2 (n 40)" for a percent cell; the CI as "[55.0, 67.1]" when `withCi`. */
export function formatValue(value: ReportValue | undefined, scale: ReportTable["scale"], withCi = true): string {
  if (value === undefined) return "";
  if (!isReportCell(value)) return value.text;
  const num = (v: number) => formatMean(v, scale);
  if (value.mean === null) return `– (n 0${value.missing > 0 ? `, ${value.missing} missing` : ""})`;
  const missing = value.missing > 0 ? `, ${value.missing} missing` : "";
  const ci = withCi && value.ci ? ` [${num(value.ci[0])}, ${num(value.ci[1])}]` : "";
  return `${num(value.mean)} (n ${value.n}${missing})${ci}`;
}

export function reportHeader(report: BenchmarkReport): string[] {
  const { constants: c, coverage: cov } = report;
  const params =
    Object.entries(c.params)
      .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
      .join(", ") || "none stored";
  return [
    `Plan: ${report.planName} (hash ${report.planHash})`,
    `Evaluator: ${report.evaluator}; simulator: ${report.simulator}`,
    `Studies (Tables 1, 2, 6): ${report.studyIds.length > 0 ? report.studyIds.join(", ") : "none named"}`,
    `Constants: ${params}; timing bins = ${c.bins}`,
    `Bootstrap: ${c.bootstrap.draws} draws resampling scenarios, seed ${c.bootstrap.seed}, ${Math.round(c.bootstrap.level * 100)}% percentile interval`,
    `Coverage: ${cov.storedRuns} of ${cov.plannedRuns} planned runs stored (mediated: ${cov.storedMediatedRuns ?? "?"} of ${cov.plannedMediatedRuns ?? "?"}); ${cov.evaluatedRuns} mediated runs with metrics under the main evaluator, ${cov.incompleteRuns} of them with incomplete judge output`,
    `Generated: ${report.generatedAt}`,
  ];
}

/**
 * Text from a plan or the database (names, ids, messages) inside a markdown line, shown as
 * written: on one line; `<`, `>`, `&` as entities (every renderer honours those, not all honour
 * a backslash before `<`), so no name becomes HTML; markdown's inline marks and a table's `|`
 * backslashed; no `](`, `][` or `]:` left to make a link.
 */
export function mdCell(s: string): string {
  return s
    .replace(/\r\n|\r|\n/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_|~]/g, "\\$&")
    .replace(/\](?=[([:])/g, "\\]");
}

/**
 * mdCell for text that starts a block (a heading, a list item, a paragraph): a leading `#`, `-`, `+`, `=`, `[` or `1.`
 * stays text.
 */
export function mdText(s: string): string {
  return mdCell(s)
    .replace(/^(\s*)([#+=[-])/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/, "$1\\$2");
}

/**
 * A note: our own markdown, whose `code spans` (commands to run) are kept; everything outside
 * them is escaped as mdText. With an odd number of backticks there is no safe span: all is escaped.
 */
export function mdNote(s: string): string {
  const parts = s.replace(/\r\n|\r|\n/g, " ").split("`");
  if (parts.length % 2 === 0) return mdText(s);
  return parts.map((part, i) => (i % 2 === 1 ? part : i === 0 ? mdText(part) : mdCell(part))).join("`");
}

const mdEscape = mdCell;

export function tableMarkdown(table: ReportTable): string {
  const header = table.columns.map((c) => mdEscape(c.group ? `${c.group} ${c.label}` : c.label));
  const lines = [
    `## ${mdText(table.title)}`,
    "",
    mdText(table.caption),
    "",
    `| ${mdEscape(table.rowLabel ?? "Mediator")} | ${header.join(" | ")} |`,
    `|---|${table.columns.map(() => "---").join("|")}|`,
  ];
  let group: string | undefined;
  for (const row of table.rows) {
    if (row.group && row.group !== group)
      lines.push(`| **${mdEscape(row.group)}** |${table.columns.map(() => " ").join("|")}|`);
    group = row.group;
    lines.push(
      `| ${mdEscape(row.label)} | ${table.columns.map((c) => mdEscape(formatValue(row.cells[c.key], table.scale))).join(" | ")} |`,
    );
  }
  lines.push("", ...table.notes.map((n) => `- ${mdNote(n)}`));
  return lines.join("\n");
}

/** What a report file shows, whatever built it: the benchmark report, or an evaluator validation. */
export interface ReportDocument {
  title: string;
  /** Lines under the title (plan, constants, coverage, verdict…). */
  header: string[];
  warnings: string[];
  tables: ReportTable[];
  figures: ReportFigure[];
}

export function benchmarkDocument(report: BenchmarkReport): ReportDocument {
  return {
    title: `Benchmark report: ${report.planName}`,
    header: reportHeader(report),
    warnings: report.warnings,
    tables: report.tables,
    figures: report.figures,
  };
}

export function documentMarkdown(doc: ReportDocument, figureFile: (figure: ReportFigure) => string | null): string {
  const out = [`# ${mdText(doc.title)}`, "", ...doc.header.map((l) => `- ${mdNote(l)}`), ""];
  if (doc.warnings.length > 0) out.push("## Warnings", "", ...doc.warnings.map((w) => `- ${mdNote(w)}`), "");
  for (const table of doc.tables) out.push(tableMarkdown(table), "");
  for (const figure of doc.figures) {
    const file = figureFile(figure);
    // Inside an image's alt text every bracket is escaped, so the title cannot end it early.
    const alt = mdCell(figure.title).replace(/(?<!\\)[[\]]/g, "\\$&");
    out.push(
      `## ${mdText(figure.title)}`,
      "",
      mdText(figure.caption),
      "",
      ...(file ? [`![${alt}](${encodeURI(file)})`, ""] : []),
    );
  }
  return out.join("\n");
}

/** Long format: one line per cell, means on the metric's own scale; fields written by the app's CSV writer (csv.ts). */
export function tableCsv(table: ReportTable): string {
  const lines = [csvRecord(["table", "row", "column", "mean", "median", "n", "missing", "ci_low", "ci_high", "text"])];
  for (const row of table.rows) {
    for (const col of table.columns) {
      const v = row.cells[col.key];
      if (v === undefined) continue;
      const column = col.group ? `${col.group}|${col.label}` : col.label;
      if (isReportCell(v))
        lines.push(
          csvRecord([table.id, row.label, column, v.mean, v.median, v.n, v.missing, v.ci?.[0], v.ci?.[1], ""]),
        );
      else lines.push(csvRecord([table.id, row.label, column, v.value, "", "", "", "", "", v.text]));
    }
  }
  return lines.join("\n") + "\n";
}

/** The figure's inline data rows. */
export function figureCsv(figure: ReportFigure): string {
  const rows = figureRows(figure);
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return (
    [csvRecord(["figure", ...keys]), ...rows.map((r) => csvRecord([figure.id, ...keys.map((k) => r[k])]))].join("\n") +
    "\n"
  );
}

export function figureRows(figure: ReportFigure): Record<string, unknown>[] {
  const data = (figure.spec as { data?: { values?: unknown } }).data;
  return Array.isArray(data?.values) ? (data.values as Record<string, unknown>[]) : [];
}
