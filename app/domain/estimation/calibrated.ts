/**
 * Human-calibrated mediator scores (issue 33, Build 2): per mediator × domain and per mediator
 * overall, the judge-only mean, the experts-only (classical) estimate and the PPI++ estimate of
 * the mean of a human-scale run quantity (./run-quantities.ts), each with its interval. Pure: the
 * server (app/server/estimation/calibrated.server.ts) gathers the runs' values.
 *
 * - A stratum is one mediator's runs in one domain. Its population is the runs with a judge value;
 *   its labelled runs are those whose expert value is complete. PPI++ takes the labelled runs that
 *   also have a judge value as labelled and the stratum's other judged runs as unlabelled.
 * - Overall is stratified: the domains' estimates weighted by N_d / N (N_d = the domain's judged
 *   runs), their variances by (N_d / N)². It is missing when a domain with runs has no estimate.
 * - An active study's design (ActiveDesign) adds the inverse-probability-weighted estimate.
 */
import { activeMean, classicalMean, labelsToReport, ppiMean, type MeanEstimate } from "./mean-estimators.ts";
import type { RunQuantity, RunValues } from "./run-quantities.ts";
import { normalQuantileUpper } from "../stats/distributions.ts";

/** One run of the plan with its values read both ways. */
export interface CalibrationRun {
  runId: string;
  /** The plan's mediator name; null for an unmediated run. */
  mediator: string | null;
  domain: string;
  /** The judge's quantities (null: no evaluation, or its output is incomplete for that quantity). */
  judge: RunValues;
  /** The experts' quantities; null when no expert scored any snippet of the run. */
  human: RunValues | null;
}

/**
 * Where an active labelling design plugs in: the probability π with which each run was to be
 * labelled (part of the population it was drawn from; undefined: not in the design). With a
 * design, every stratum whose runs all have a π gets an `active` estimate.
 */
export interface ActiveDesign {
  inclusionProbability: (runId: string) => number | undefined;
  /**
   * Whether the run is in the sample the π describe (an active study's complete prefix); absent: every labelled run
   * is. A run labelled outside it enters as unlabelled, since its π belongs to a later stopping point.
   */
  sampled?: (runId: string) => boolean;
}

export interface CalibrationSettings {
  /** 1 − the intervals' coverage (0.05: 95% CIs). */
  alpha: number;
  quantities: readonly RunQuantity[];
  /** The half-width the "labels to target" column aims at, on the 0–1 scale. */
  target: number;
}

export const DEFAULT_CALIBRATION: CalibrationSettings = {
  alpha: 0.05,
  quantities: ["outcome", "trajectory"],
  target: 0.05,
};

export interface CalibratedRow {
  quantity: RunQuantity;
  /** null: the unmediated runs. */
  mediator: string | null;
  /** null: the mediator overall (stratified over domains). */
  domain: string | null;
  runs: number;
  /** Runs with a judge value: the population the estimates describe. */
  judged: number;
  /** Runs whose expert value is complete. */
  labelled: number;
  /** Runs some expert scored whose value for this quantity is still incomplete: counted, never imputed. */
  incomplete: number;
  /** Labelled runs without a judge value: in the experts-only estimate, not in PPI++. */
  labelledWithoutJudge: number;
  judgeOnly: MeanEstimate | null;
  humanOnly: MeanEstimate | null;
  ppi: MeanEstimate | null;
  /** The inverse-probability-weighted estimate of an active study; null without a design. */
  active: MeanEstimate | null;
  /** More labels each estimate needs to reach the target half-width (null: no estimate). */
  labelsToTarget: { humanOnly: number | null; ppi: number | null };
  /** Why an estimate is missing, in words; empty when none is. */
  notes: string[];
}

/** Everything that changes the numbers, printed with them. */
export interface CalibratedEstimates {
  planName: string;
  planHash: string;
  /** The plan's main evaluator, whose s[k][t_end] is the judge's value. */
  evaluator: string;
  /** The starting score the judge's series are read with (the plan's metric params). */
  s0: number;
  studyIds: number[];
  settings: CalibrationSettings;
  /** Stored runs of the plan's main grid (mediated and unmediated). */
  runs: number;
  /** Runs some expert scored that are not runs of the plan's main grid: not used. */
  labelledOutsidePlan: number;
  rows: CalibratedRow[];
}

const valuesOf = (runs: readonly CalibrationRun[], pick: (r: CalibrationRun) => number | null): number[] =>
  runs.flatMap((r) => {
    const v = pick(r);
    return v === null ? [] : [v];
  });

/** Counts and the three estimates of one stratum. */
function stratumRow(
  runs: readonly CalibrationRun[],
  q: RunQuantity,
  settings: CalibrationSettings,
  design: ActiveDesign | undefined,
): Omit<CalibratedRow, "quantity" | "mediator" | "domain"> {
  const judgeOf = (r: CalibrationRun) => r.judge[q];
  const humanOf = (r: CalibrationRun) => r.human?.[q] ?? null;
  const judged = runs.filter((r) => judgeOf(r) !== null);
  const labelled = runs.filter((r) => humanOf(r) !== null);
  const both = judged.filter((r) => humanOf(r) !== null);
  const unlabelled = judged.filter((r) => humanOf(r) === null);
  const { alpha } = settings;
  const humanOnly = classicalMean(valuesOf(labelled, humanOf), alpha);
  const notes: string[] = [];
  let ppi: MeanEstimate | null = null;
  if (both.length >= 2 && unlabelled.length === 0) {
    // Every judged run is labelled: nothing for the judge to add, so PPI++ is the experts' mean (λ = 0).
    ppi = classicalMean(valuesOf(both, humanOf), alpha);
  } else if (both.length >= 2) {
    ppi = ppiMean({
      y: valuesOf(both, humanOf),
      fLabelled: valuesOf(both, judgeOf),
      fUnlabelled: valuesOf(unlabelled, judgeOf),
      alpha,
    });
  } else if (judged.length > 0) {
    notes.push(`${both.length} labelled run${both.length === 1 ? "" : "s"} with a judge value (PPI++ needs 2)`);
  }
  return {
    runs: runs.length,
    judged: judged.length,
    labelled: labelled.length,
    incomplete: runs.filter((r) => r.human !== null && humanOf(r) === null).length,
    labelledWithoutJudge: labelled.length - both.length,
    judgeOnly: classicalMean(valuesOf(judged, judgeOf), alpha),
    humanOnly,
    ppi,
    active: design ? activeEstimate(judged, q, design, alpha) : null,
    labelsToTarget: {
      humanOnly: humanOnly ? labelsToReport(humanOnly, settings.target) : null,
      ppi: ppi ? labelsToReport(ppi, settings.target) : null,
    },
    notes,
  };
}

/** The active estimate over a stratum's judged runs, when the design gives each of them a π. */
function activeEstimate(
  judged: readonly CalibrationRun[],
  q: RunQuantity,
  design: ActiveDesign,
  alpha: number,
): MeanEstimate | null {
  const units = judged.map((r) => ({
    f: r.judge[q] as number,
    pi: design.inclusionProbability(r.runId),
    y: design.sampled && !design.sampled(r.runId) ? null : (r.human?.[q] ?? null),
  }));
  if (units.some((u) => u.pi === undefined)) return null;
  return activeMean(
    units.map((u) => ({ ...u, pi: u.pi as number })),
    alpha,
  );
}

/** Domain estimates combined with weights w_d = N_d / N: Σ w_d·θ_d, se = √Σ (w_d·se_d)². */
export function stratified(
  parts: readonly { weight: number; estimate: MeanEstimate | null }[],
  alpha: number,
): MeanEstimate | null {
  const total = parts.reduce((s, p) => s + p.weight, 0);
  const used = parts.filter((p) => p.weight > 0);
  if (!(total > 0) || used.some((p) => p.estimate === null)) return null;
  let estimate = 0;
  let variance = 0;
  let lambda = 0;
  for (const p of used) {
    const w = p.weight / total;
    const e = p.estimate as MeanEstimate;
    estimate += w * e.estimate;
    variance += (w * e.se) ** 2;
    lambda += w * e.lambda;
  }
  const se = Math.sqrt(variance);
  const halfWidth = normalQuantileUpper(alpha / 2) * se;
  const sum = (f: (e: MeanEstimate) => number) => used.reduce((s, p) => s + f(p.estimate as MeanEstimate), 0);
  return {
    estimate,
    lower: estimate - halfWidth,
    upper: estimate + halfWidth,
    halfWidth,
    se,
    labelled: sum((e) => e.labelled),
    units: sum((e) => e.units),
    // The strata's weights applied to their λ: how much the judge counts overall.
    lambda,
  };
}

/** The mediator's row over its domains' rows (already computed), stratified. */
function overallRow(
  runs: readonly CalibrationRun[],
  domains: readonly CalibratedRow[],
  q: RunQuantity,
  settings: CalibrationSettings,
): Omit<CalibratedRow, "quantity" | "mediator" | "domain"> {
  const combine = (pick: (r: CalibratedRow) => MeanEstimate | null) =>
    stratified(
      domains.map((d) => ({ weight: d.judged, estimate: pick(d) })),
      settings.alpha,
    );
  const humanOnly = combine((d) => d.humanOnly);
  const ppi = combine((d) => d.ppi);
  const active = domains.every((d) => d.active === null) ? null : combine((d) => d.active);
  const judged = valuesOf(runs, (r) => r.judge[q]);
  const short = domains.filter((d) => d.judged > 0 && d.ppi === null).map((d) => d.domain);
  return {
    runs: runs.length,
    judged: judged.length,
    labelled: domains.reduce((s, d) => s + d.labelled, 0),
    incomplete: domains.reduce((s, d) => s + d.incomplete, 0),
    labelledWithoutJudge: domains.reduce((s, d) => s + d.labelledWithoutJudge, 0),
    // Equal to the N_d-weighted mean of the domains' judge means.
    judgeOnly: classicalMean(judged, settings.alpha),
    humanOnly,
    ppi,
    active,
    labelsToTarget: {
      humanOnly: humanOnly ? labelsToReport(humanOnly, settings.target) : null,
      ppi: ppi ? labelsToReport(ppi, settings.target) : null,
    },
    notes: short.length > 0 ? [`no PPI++ estimate in ${short.join(", ")}: the overall needs every domain`] : [],
  };
}

const compareNames = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0;

/**
 * The rows per quantity, mediator (in `mediators` order, then unmediated runs) and domain (sorted),
 * each mediator's overall row after its domains.
 */
export function calibratedRows(
  runs: readonly CalibrationRun[],
  settings: CalibrationSettings = DEFAULT_CALIBRATION,
  options: { mediators?: readonly string[]; design?: ActiveDesign } = {},
): CalibratedRow[] {
  if (!(settings.target > 0)) throw new RangeError(`target half-width must be positive, got ${settings.target}`);
  const order = options.mediators ?? [];
  const mediators = [...new Set(runs.map((r) => r.mediator))].sort((a, b) => {
    const [i, j] = [a === null ? -1 : order.indexOf(a), b === null ? -1 : order.indexOf(b)];
    if (i >= 0 && j >= 0) return i - j;
    return i >= 0 ? -1 : j >= 0 ? 1 : compareNames(a, b);
  });
  const rows: CalibratedRow[] = [];
  for (const quantity of settings.quantities) {
    for (const mediator of mediators) {
      const own = runs.filter((r) => r.mediator === mediator);
      const domains = [...new Set(own.map((r) => r.domain))].sort();
      const domainRows = domains.map((domain) => ({
        quantity,
        mediator,
        domain,
        ...stratumRow(
          own.filter((r) => r.domain === domain),
          quantity,
          settings,
          options.design,
        ),
      }));
      rows.push(...domainRows, {
        quantity,
        mediator,
        domain: null,
        ...overallRow(own, domainRows, quantity, settings),
      });
    }
  }
  return rows;
}
