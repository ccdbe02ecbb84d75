/**
 * The report of `socrates validate-evaluator`: can a candidate judge backbone replace the
 * reference one? Built from the study dashboard's own figures (alignment table, the experts'
 * agreement, the trend) and the backbone comparison, laid out as the paper does it — Tables 2
 * and 6 (alignment with the expert mean), the difference test, the experts' alpha as the
 * ceiling, Figure 5 (consensus by snippet position) and, with a benchmark, Table 8.
 * Tables and figures use the benchmark report's model, so the same writers print them.
 */
import type { TopLevelSpec } from "vega-lite";
import type { ReportFigure, ReportRow, ReportTable, ReportText } from "../benchmark/report-model.ts";
import type { ReportDocument } from "../benchmark/report/format.ts";
import { pValue, text, withP } from "../benchmark/report/rows.ts";
import type { PearsonResult } from "../stats/correlation.ts";
import type { AlignmentRow, AlignmentTable } from "./alignment-table.ts";
import type { BackboneComparison, DifferenceTest } from "./backbone-comparison.ts";
import type { ConsensusAgreement } from "./consensus-agreement.ts";

export interface EvaluatorReportInput {
  study: { id: number; name: string };
  candidate: string;
  /** The backbone the candidate is compared with; null when no other backbone judged the study. */
  reference: string | null;
  table: AlignmentTable;
  /** The experts' agreement on the study (the ceiling). */
  agreement: Pick<ConsensusAgreement, "interval" | "ordinal" | "pairableUnits" | "raters">;
  comparison: BackboneComparison | null;
  /** Figure 5's chart (trend-chart.ts), drawn for the expert mean, the candidate, the reference and the baseline. */
  trendSpec: TopLevelSpec;
  /** Table 8 of the benchmark re-evaluated with the candidate, when asked for. */
  table8: ReportTable | null;
  minR?: number;
  generatedAt: string;
  warnings: string[];
}

export interface EvaluatorVerdict {
  /** The candidate's trajectory-level r over every unit it scored; null when undefined. */
  candidateR: number | null;
  minR?: number;
  /** False when --min-r is given and the candidate's r is below it (or undefined). */
  passes: boolean;
  line: string;
}

/** A report document (the writers in report-files print it) with its verdict. */
export interface EvaluatorValidationReport extends ReportDocument {
  verdict: EvaluatorVerdict;
}

const fmt = (v: number | null | undefined, digits = 3) => (v === null || v === undefined ? "–" : v.toFixed(digits));
const ci = (c: readonly [number, number] | null | undefined) => (c ? `[${fmt(c[0])}, ${fmt(c[1])}]` : "–");

function roleOf(row: AlignmentRow, input: EvaluatorReportInput): string {
  if (row.method !== "evaluator") return "baselines";
  return row.backbone === input.candidate
    ? "candidate"
    : row.backbone === input.reference
      ? "reference"
      : "other stored backbones";
}

function pearsonCells(prefix: string, r: PearsonResult): Record<string, ReportText> {
  return {
    [prefix]: text(r.r, r.r === null ? `– (${r.reason ?? "undefined"})` : withP(r.r, r.p)),
    [`${prefix}N`]: text(r.n, String(r.n)),
    [`${prefix}Ci`]: text(r.ci?.[0] ?? null, ci(r.ci)),
  };
}

/** Tables 2 and 6 in one: the candidate, the reference, other backbones, then the baseline and the crowd. */
function alignmentTableOf(input: EvaluatorReportInput): ReportTable {
  const order = ["candidate", "reference", "other stored backbones", "baselines"];
  const rows: ReportRow[] = input.table.rows
    .map((row) => ({ row, group: roleOf(row, input) }))
    .sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group))
    .map(({ row, group }) => ({
      key: row.key,
      label: row.label,
      group,
      cells: { ...pearsonCells("trajectory", row.trajectory), ...pearsonCells("outcome", row.outcome) },
    }));
  const columns = (level: string) => [
    { key: level, label: "Pearson r (p)", group: level },
    { key: `${level}N`, label: "units", group: level },
    { key: `${level}Ci`, label: "95% CI", group: level },
  ];
  return {
    id: "alignment",
    title: "Alignment with the expert mean (the layout of Tables 2 and 6)",
    caption: `Pearson correlation of each method's consensus score with the mean expert score per (snippet, topic) unit of study ${input.study.id}, at trajectory level (every unit) and outcome level (the final snippet of each trajectory).`,
    scale: "raw",
    rowLabel: "Method",
    columns: [...columns("trajectory"), ...columns("outcome")],
    rows,
    notes: [
      `Units with at least ${input.table.minExpertLabels} expert label(s): ${input.table.units.length}. A method is correlated on the units it has a value for.`,
      `Evaluators read s[k] at the snippet's last turn${input.table.s0 !== undefined ? `, with s0 = ${input.table.s0} before a topic's first located turn` : ""}; the per-turn baseline reads 1 + 4 · mean pair agreement there. Fisher-z 95% intervals.`,
    ],
  };
}

function differenceCells(t: DifferenceTest): Record<string, ReportText> {
  return {
    n: text(t.n, `${t.n} (${t.trajectories} trajectories)`),
    rCandidate: text(t.rCandidate, fmt(t.rCandidate)),
    rReference: text(t.rReference, fmt(t.rReference)),
    rBetween: text(t.rBetween, fmt(t.rBetween)),
    difference: text(t.difference, fmt(t.difference)),
    williams: text(
      t.williams.t,
      t.williams.t === null
        ? `– (${t.williams.reason ?? "undefined"})`
        : `t(${t.williams.df}) = ${fmt(t.williams.t, 2)}, p ${pValue(t.williams.p)}`,
    ),
    zou: text(t.zou?.ci?.[0] ?? null, ci(t.zou?.ci)),
    bootstrap: text(
      t.bootstrap.ci?.[0] ?? null,
      t.bootstrap.ci ? ci(t.bootstrap.ci) : `– (${t.bootstrap.reason ?? "undefined"})`,
    ),
    verdict: text(null, t.verdict),
  };
}

function differenceTableOf(c: BackboneComparison): ReportTable {
  return {
    id: "difference",
    title: `Difference test: ${c.candidate} against ${c.reference}`,
    caption:
      "Both backbones' correlations with the expert mean on the units both scored. They share the expert mean, so they are dependent and overlapping: Williams' t tests the difference, Zou's (2007) interval bounds it, and a bootstrap over trajectories (units of one trajectory are not independent) checks both.",
    scale: "raw",
    rowLabel: "Level",
    columns: [
      { key: "n", label: "shared units" },
      { key: "rCandidate", label: `r ${c.candidate}` },
      { key: "rReference", label: `r ${c.reference}` },
      { key: "rBetween", label: "r between them" },
      { key: "difference", label: "Δr" },
      { key: "williams", label: "Williams' t" },
      { key: "zou", label: "Zou 95% CI of Δr" },
      { key: "bootstrap", label: "bootstrap 95% CI of Δr" },
      { key: "verdict", label: `verdict (α = ${c.alpha})` },
    ],
    rows: [
      { key: "trajectory", label: "trajectory (all units)", cells: differenceCells(c.trajectory) },
      { key: "outcome", label: "outcome (final snippets)", cells: differenceCells(c.outcome) },
    ],
    notes: [
      `Bootstrap: ${c.trajectory.bootstrap.draws} draws resampling trajectories, seed ${c.trajectory.bootstrap.seed}, percentile interval; ${c.trajectory.bootstrap.undefinedDraws} draws with an undefined correlation left out.`,
      'A verdict is "worse" or "better" when Williams\' two-sided p is below α; read it with the intervals and the experts\' own agreement below.',
    ],
  };
}

function ceilingTableOf(input: EvaluatorReportInput): ReportTable {
  const cell = (level: "interval" | "ordinal") => {
    const a = input.agreement[level];
    return text(a.result.alpha, a.result.alpha === null ? "–" : `${fmt(a.result.alpha)} ${ci(a.bootstrap.ci)}`);
  };
  return {
    id: "ceiling",
    title: "The experts' own agreement (the ceiling)",
    caption:
      "Krippendorff's alpha between the study's experts over (snippet, topic) units: no judge can be expected to agree with the expert mean much better than the experts agree with each other.",
    scale: "raw",
    rowLabel: "Pool",
    columns: [
      { key: "interval", label: "alpha, interval [95% CI]" },
      { key: "ordinal", label: "alpha, ordinal [95% CI]" },
      { key: "units", label: "pairable units" },
      { key: "raters", label: "experts" },
    ],
    rows: [
      {
        key: "expert",
        label: "experts",
        cells: {
          interval: cell("interval"),
          ordinal: cell("ordinal"),
          units: text(input.agreement.pairableUnits, String(input.agreement.pairableUnits)),
          raters: text(input.agreement.raters.length, String(input.agreement.raters.length)),
        },
      },
    ],
    notes: [
      `Bootstrap: ${input.agreement.interval.bootstrap.draws} draws resampling units, seed ${input.agreement.interval.bootstrap.seed}.`,
    ],
  };
}

export function evaluatorVerdict(
  input: Pick<EvaluatorReportInput, "candidate" | "reference" | "table" | "comparison" | "minR">,
): EvaluatorVerdict {
  const row = input.table.rows.find((r) => r.method === "evaluator" && r.backbone === input.candidate);
  const candidateR = row?.trajectory.r ?? null;
  const passes = input.minR === undefined || (candidateR !== null && candidateR >= input.minR);
  const parts = [`${input.candidate}: trajectory r = ${fmt(candidateR)} (n ${row?.trajectory.n ?? 0})`];
  const t = input.comparison?.trajectory;
  if (t && input.reference) {
    const how =
      t.verdict === "worse"
        ? "significantly below"
        : t.verdict === "better"
          ? "significantly above"
          : t.verdict === "no difference"
            ? "not significantly different from"
            : "not comparable with";
    parts.push(
      `${how} ${input.reference} (r = ${fmt(t.rReference)} on the same ${t.n} units; Δr = ${fmt(t.difference)}, Williams p ${pValue(t.williams.p)}, Zou 95% CI ${ci(t.zou?.ci)})`,
    );
  } else parts.push("no other backbone judged this study to compare with");
  if (input.minR !== undefined) parts.push(passes ? `meets --min-r ${input.minR}` : `below --min-r ${input.minR}`);
  return {
    candidateR,
    ...(input.minR !== undefined ? { minR: input.minR } : {}),
    passes,
    line: `verdict: ${parts.join("; ")}`,
  };
}

export function buildEvaluatorReport(input: EvaluatorReportInput): EvaluatorValidationReport {
  const tables = [
    alignmentTableOf(input),
    ...(input.comparison ? [differenceTableOf(input.comparison)] : []),
    ceilingTableOf(input),
    ...(input.table8 ? [input.table8] : []),
  ];
  const figure: ReportFigure = {
    id: "figure5",
    title: "Figure 5: consensus by snippet position",
    caption: `Mean consensus (0–100 %) at each snippet position over the study's (trajectory, topic) units: the expert mean, ${input.candidate}${input.reference ? `, ${input.reference}` : ""} and the per-turn baseline.`,
    spec: input.trendSpec,
  };
  const verdict = evaluatorVerdict(input);
  return {
    title: `Evaluator validation: ${input.candidate} on study ${input.study.id}`,
    header: [
      verdict.line,
      `Study: ${input.study.name} (study ${input.study.id})`,
      `Candidate: ${input.candidate}; reference: ${input.reference ?? "none"}`,
      `Constants: s0 = ${input.table.s0 ?? "the dashboard default"}; at least ${input.table.minExpertLabels} expert label(s) per unit; α = ${input.comparison?.alpha ?? "–"}`,
      `Generated: ${input.generatedAt}`,
    ],
    tables,
    figures: [figure],
    verdict,
    warnings: input.warnings,
  };
}
