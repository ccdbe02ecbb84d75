import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Leaderboard, type LeaderboardMetric } from "../components/benchmark/Leaderboard.tsx";
import { ReportFigureView } from "../components/benchmark/ReportFigureView.tsx";
import { ReportTableView } from "../components/benchmark/ReportTableView.tsx";
import { leaderboard, withLeaderboardColumn } from "../domain/benchmark/report-view.ts";
import { ALL_CONDITIONS, EMOTION_FIGURE_ID, EMOTION_TABLE_IDS } from "../domain/benchmark/report/emotion.ts";
import { AVG } from "../domain/benchmark/report/table3.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { benchmarkPage } from "../server/benchmark/page.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponseAsync } from "../server/http/responses.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.report.planName ?? "Benchmark"} · Benchmark · SoCRATES Studio` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: mediator models and their scores
  return json(await orResponseAsync(() => benchmarkPage(getDb(), params.planHash ?? "")));
}

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
  missingTitle: "No emotion data: set the plan's emotion field or run `socrates evaluate --method emotion`, then `socrates metrics`.",
};

/** Table 3's keys: columns `<metric>|<domain>`, the average column and row AVG. */
const averageColumn = (metric: string) => `${metric}|${AVG}`;

/** The tables the page shows in full after the heat map, in the paper's order; then the emotion part. */
const OTHER_TABLES = ["table5", "table7", "table8", "table9", "table1", "table1proxy", "table2", "table6"];
const FIRST_FIGURES = ["figure2", "figure3", "figure4"];
const EMOTION_FIGURES = [EMOTION_FIGURE_ID];

export default function BenchmarkReportPage() {
  const { report, svgs } = useLoaderData<typeof loader>();
  const cellHref = (table: string) => (row: string, column: string) =>
    `/runs?${new URLSearchParams({ plan: report.planHash, table, row, column }).toString()}`;
  const table3 = report.tables.find((t) => t.id === "table3");
  const figures = (ids: string[]) => report.figures.filter((f) => ids.includes(f.id));
  const later = report.figures.filter((f) => !FIRST_FIGURES.includes(f.id) && !EMOTION_FIGURES.includes(f.id));
  const section = (t: (typeof report.tables)[number]) => (
    <section key={t.id}>
      <h2>{t.title}</h2>
      <ReportTableView table={t} cellHref={cellHref(t.id)} />
    </section>
  );
  const ranked = table3 ? leaderboard(table3, LEADERBOARD_METRICS.map((m) => m.key), averageColumn, "CG", AVG) : [];
  const board = withLeaderboardColumn(ranked, report.tables.find((t) => t.id === EMOTION_TABLE_IDS[0]), REPAIR_METRIC.key, ALL_CONDITIONS);
  const { params, bins, bootstrap } = report.constants;
  return (
    <>
      <p className="muted">
        <Link to="/benchmark">Benchmark</Link> ›
      </p>
      <h1>{report.planName}</h1>
      <p className="muted" data-testid="report-constants">
        Plan <code>{report.planHash}</code> · evaluator {report.evaluator} · simulator {report.simulator} · studies (Tables 1, 2, 6){" "}
        {report.studyIds.length > 0 ? report.studyIds.join(", ") : "none named"} ·{" "}
        {Object.entries(params)
          .map(([k, v]) => `${k} = ${String(v)}`)
          .join(", ")}
        , {bins} timing bins · 95% CIs from {bootstrap.draws} bootstrap draws over scenarios (seed {bootstrap.seed}) ·{" "}
        {report.coverage.storedRuns} of {report.coverage.plannedRuns} runs stored, {report.coverage.evaluatedRuns} mediated runs with metrics
        {report.coverage.incompleteRuns > 0 ? `, ${report.coverage.incompleteRuns} with incomplete judge output (left out)` : ""}
      </p>
      {report.warnings.length > 0 ? (
        <ul className="notice" data-testid="report-warnings">
          {report.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
      {table3 ? (
        <>
          <h2>Leaderboard</h2>
          <Leaderboard rows={board} metrics={[...LEADERBOARD_METRICS, REPAIR_METRIC]} />
          <h2>{table3.title}</h2>
          <p className="muted">Each cell: mean ×100 (runs or pairs in brackets), shaded within its metric. Click a cell for the runs behind it.</p>
          <ReportTableView table={table3} cellHref={cellHref(table3.id)} heat />
        </>
      ) : null}
      {figures(FIRST_FIGURES).map((f) => (
        <ReportFigureView key={f.id} figure={f} svg={svgs[f.id] ?? ""} />
      ))}
      {OTHER_TABLES.flatMap((id) => report.tables.filter((t) => t.id === id)).map(section)}
      {EMOTION_TABLE_IDS.flatMap((id) => report.tables.filter((t) => t.id === id)).map(section)}
      {figures(EMOTION_FIGURES).map((f) => (
        <ReportFigureView key={f.id} figure={f} svg={svgs[f.id] ?? ""} />
      ))}
      {later.map((f) => (
        <ReportFigureView key={f.id} figure={f} svg={svgs[f.id] ?? ""} />
      ))}
    </>
  );
}
