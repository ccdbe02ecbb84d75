/**
 * The Benchmark page's report: the leaderboard (from Table 3 and the emotional-repair table), then
 * every registered report part (app/report-parts/registry.ts) the report holds, in report order,
 * each under its id as anchor. A part the plan cannot give is absent; the warnings say why.
 */
import { Link } from "@remix-run/react";
import {
  formatMean,
  leaderboard,
  withIntervalColumn,
  withLeaderboardColumn,
} from "../../domain/benchmark/report-view.ts";
import type { BenchmarkReport, ReportFigure } from "../../domain/benchmark/report-model.ts";
import { ALL_CONDITIONS } from "../../domain/benchmark/report/emotion.ts";
import { inReportOrder, type ReportPart } from "../../domain/benchmark/report/part.ts";
import { AVG } from "../../domain/benchmark/report/rows.ts";
import { emotionRepair } from "../../report-parts/emotion-repair.ts";
import { calibratedRowKey, humanCalibrated } from "../../report-parts/human-calibrated.ts";
import { REPORT_PARTS } from "../../report-parts/registry.ts";
import { table3 as table3Part } from "../../report-parts/table3.ts";
import { paramList } from "../../domain/metrics/metric-format.ts";
import { Term, TermOrText } from "../Term.tsx";
import { Leaderboard, type LeaderboardMetric } from "./Leaderboard.tsx";
import type { RenderedChart } from "../../domain/charts/chart-data.ts";
import { ReportFigureView } from "./ReportFigureView.tsx";
import { ReportTableView } from "./ReportTableView.tsx";

/** Table 3's averages (CG ranks). */
const LEADERBOARD_METRICS = [
  { key: "CG", label: "Consensus gain" },
  { key: "IE", label: "Effectiveness" },
  { key: "IT", label: "Timeliness" },
];
/** From the emotional-repair table's all-conditions column. */
const REPAIR_METRIC: LeaderboardMetric = {
  key: "ER",
  label: "Emotional repair",
  missingTitle:
    "No emotion data: set the plan's emotion field or run `socrates evaluate --method emotion`, then `socrates metrics`.",
};

/** From the human-calibrated table (when the report reads an expert study): PPI++ of the outcome consensus. */
const CALIBRATED_METRIC: LeaderboardMetric = {
  key: "PPI",
  label: "Human-calibrated",
  missingTitle:
    "No PPI++ estimate yet: some domain has fewer than two runs with complete expert labels (see the notes under Human-calibrated scores).",
  describe: (cell) =>
    `PPI++ estimate of the experts' outcome consensus ${formatMean(cell.mean, "percent")}` +
    (cell.ci ? `, 95% CI ${formatMean(cell.ci[0], "percent")} to ${formatMean(cell.ci[1], "percent")}` : "") +
    `, ${cell.n} labelled runs`,
  note: "Human-calibrated: the PPI++ estimate of the experts' outcome consensus (judge on every run, expert labels on some), its normal 95% CI, and the labelled runs in parentheses.",
};

/** Table 3's keys: columns `<metric>|<domain>`, the average column and row AVG. */
const averageColumn = (metric: string) => `${metric}|${AVG}`;

/** The report as the page gets it: a figure arrives drawn (charts), its spec is not read. */
export type PageReport = Omit<BenchmarkReport, "figures"> & {
  figures: Pick<ReportFigure, "id" | "title" | "caption">[];
};

interface Props {
  report: PageReport;
  /** Each figure drawn with its data, by figure id. */
  charts: Record<string, RenderedChart>;
  /** The parts to show (default: the registry). */
  parts?: readonly ReportPart[];
}

function ReportHeader({ report }: { report: PageReport }) {
  const { params, bins, bootstrap } = report.constants;
  const { coverage } = report;
  return (
    <>
      <p className="muted">
        <Link to="/benchmark">Benchmark</Link> ›
      </p>
      <h1>{report.planName}</h1>
      <p className="muted" data-testid="report-constants">
        Plan <Term k="plan-hash">hash</Term> <code>{report.planHash}</code> · evaluator {report.evaluator} · simulator{" "}
        {report.simulator} · studies (Tables 1, 2, 6){" "}
        {report.studyIds.length > 0 ? report.studyIds.join(", ") : "none named"} ·{" "}
        {paramList([params]).map((p, i) => (
          <span key={p.key}>
            {i > 0 ? ", " : null}
            <TermOrText text={p.symbol} /> = {p.value}
          </span>
        ))}
        , {bins} timing bins · <Term k="CI">95% CIs</Term> from {bootstrap.draws} bootstrap draws over scenarios (seed{" "}
        {bootstrap.seed}) · {coverage.storedRuns} of {coverage.plannedRuns} runs stored, {coverage.evaluatedRuns}{" "}
        mediated runs with metrics
        {coverage.incompleteRuns > 0 ? `, ${coverage.incompleteRuns} with incomplete judge output (left out)` : ""}
      </p>
      {report.warnings.length > 0 ? (
        <ul className="notice" data-testid="report-warnings">
          {report.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** One part of the report as the page shows it; null when the report does not hold it. */
function PartView({
  part,
  report,
  charts,
}: {
  part: ReportPart;
  report: PageReport;
  charts: Record<string, RenderedChart>;
}) {
  if (part.kind === "figure") {
    const figure = report.figures.find((f) => f.id === part.id);
    if (!figure) return null;
    return (
      <section id={part.id}>
        <ReportFigureView figure={figure} chart={charts[figure.id]} />
      </section>
    );
  }
  const table = report.tables.find((t) => t.id === part.id);
  if (!table) return null;
  const cellHref = (row: string, column: string) =>
    `/runs?${new URLSearchParams({ plan: report.planHash, table: table.id, row, column }).toString()}`;
  return (
    <section id={part.id}>
      <h2>{table.title}</h2>
      {part.heat ? (
        <p className="muted">
          Each cell: mean ×100 (runs or pairs in brackets), shaded within its metric. Click a cell for the runs behind
          it.
        </p>
      ) : null}
      <ReportTableView table={table} cellHref={cellHref} heat={part.heat ?? false} />
    </section>
  );
}

export function BenchmarkReportView({ report, charts, parts = REPORT_PARTS }: Props) {
  const table3 = report.tables.find((t) => t.id === table3Part.id);
  const ranked = table3
    ? leaderboard(
        table3,
        LEADERBOARD_METRICS.map((m) => m.key),
        averageColumn,
        "CG",
        AVG,
      )
    : [];
  const repair = report.tables.find((t) => t.id === emotionRepair.id);
  const calibrated = report.tables.find((t) => t.id === humanCalibrated.id);
  const withRepair = withLeaderboardColumn(ranked, repair, REPAIR_METRIC.key, ALL_CONDITIONS);
  const board = calibrated
    ? withIntervalColumn(withRepair, calibrated, CALIBRATED_METRIC.key, {
        rowKey: (mediator) => calibratedRowKey("outcome", mediator),
        column: "ppi",
        countColumn: "labelled",
      })
    : withRepair;
  const metrics = [...LEADERBOARD_METRICS, REPAIR_METRIC, ...(calibrated ? [CALIBRATED_METRIC] : [])];
  return (
    <>
      <ReportHeader report={report} />
      {table3 ? (
        <>
          <h2>Leaderboard</h2>
          <Leaderboard rows={board} metrics={metrics} />
        </>
      ) : null}
      {inReportOrder(parts).map((part) => (
        <PartView key={part.id} part={part} report={report} charts={charts} />
      ))}
    </>
  );
}
