/**
 * Is a candidate evaluator backbone's alignment with the experts different from a reference
 * backbone's, on the same units? Both correlations share the expert mean, so they are dependent
 * and overlapping: Williams' t tests the difference, Zou's (2007) interval bounds it, and a
 * paired bootstrap over trajectories (units of one trajectory are not independent) checks both.
 * Trajectory level uses every unit both backbones scored; outcome level the final snippets'.
 */
import { pearson } from "../stats/correlation.ts";
import {
  williamsT,
  zouOverlappingCi,
  type DifferenceInterval,
  type WilliamsResult,
} from "../stats/dependent-correlation.ts";
import { pairedDifferenceBootstrap, type PairedDifferenceBootstrap } from "../stats/paired-bootstrap.ts";
import type { AlignmentRow, AlignmentTable } from "./alignment-table.ts";

export interface DifferenceTest {
  /** Units where the reference (expert mean) and both backbones have a value. */
  n: number;
  /** Trajectories those units come from (the bootstrap's clusters). */
  trajectories: number;
  /** r(expert mean, candidate) on these n units. */
  rCandidate: number | null;
  /** r(expert mean, reference) on these n units. */
  rReference: number | null;
  /** r(candidate, reference). */
  rBetween: number | null;
  /** rCandidate − rReference. */
  difference: number | null;
  williams: WilliamsResult;
  /** Zou's interval; null when one of the three correlations is undefined. */
  zou: DifferenceInterval | null;
  bootstrap: PairedDifferenceBootstrap;
  /** "worse" or "better" when Williams' two-sided p < alpha in that direction. */
  verdict: "worse" | "better" | "no difference" | "undefined";
  reason?: string;
}

export interface BackboneComparison {
  candidate: string;
  reference: string;
  alpha: number;
  trajectory: DifferenceTest;
  outcome: DifferenceTest;
}

export interface ComparisonOptions {
  draws?: number;
  seed?: number;
  /** Significance level of the verdict (default 0.05). */
  alpha?: number;
}

export const DEFAULT_ALPHA = 0.05;

function evaluatorRow(table: AlignmentTable, backbone: string): AlignmentRow {
  const row = table.rows.find((r) => r.method === "evaluator" && r.backbone === backbone);
  if (!row) {
    const known = table.rows.filter((r) => r.method === "evaluator").map((r) => r.backbone);
    throw new RangeError(
      `no stored evaluation by backbone "${backbone}" on these units (stored: ${known.join(", ") || "none"})`,
    );
  }
  return row;
}

function differenceTest(
  units: { cluster: string; reference: number; a: number; b: number }[],
  options: Required<ComparisonOptions>,
): DifferenceTest {
  const reference = units.map((u) => u.reference);
  const a = units.map((u) => u.a);
  const b = units.map((u) => u.b);
  const rA = pearson(a, reference);
  const rB = pearson(b, reference);
  const rAB = pearson(a, b);
  const n = units.length;
  const trajectories = new Set(units.map((u) => u.cluster)).size;
  const bootstrap = pairedDifferenceBootstrap(units, { draws: options.draws, seed: options.seed });
  const common = { n, trajectories, rCandidate: rA.r, rReference: rB.r, rBetween: rAB.r, bootstrap };
  if (rA.r === null || rB.r === null || rAB.r === null) {
    const reason = rA.reason ?? rB.reason ?? rAB.reason ?? "a correlation is undefined";
    return {
      ...common,
      difference: null,
      williams: { t: null, df: Math.max(0, n - 3), p: null, reason },
      zou: null,
      verdict: "undefined",
      reason,
    };
  }
  const correlations = { rjk: rA.r, rjh: rB.r, rkh: rAB.r, n };
  const williams = williamsT(correlations);
  const zou = zouOverlappingCi(correlations);
  const difference = rA.r - rB.r;
  const verdict =
    williams.p === null
      ? "undefined"
      : williams.p >= options.alpha
        ? "no difference"
        : difference < 0
          ? "worse"
          : "better";
  return { ...common, difference, williams, zou, verdict, ...(williams.reason ? { reason: williams.reason } : {}) };
}

export function compareBackbones(
  table: AlignmentTable,
  candidate: string,
  reference: string,
  options: ComparisonOptions = {},
): BackboneComparison {
  if (candidate === reference)
    throw new RangeError(`the candidate and the reference are the same backbone ("${candidate}")`);
  const settings = { draws: options.draws ?? 1000, seed: options.seed ?? 1, alpha: options.alpha ?? DEFAULT_ALPHA };
  const a = evaluatorRow(table, candidate).values;
  const b = evaluatorRow(table, reference).values;
  const shared = table.units.flatMap((u, i) => {
    const va = a[i];
    const vb = b[i];
    return va === null || vb === null
      ? []
      : [{ cluster: u.runId, reference: u.reference, a: va, b: vb, outcome: u.isLastSnippet }];
  });
  return {
    candidate,
    reference,
    alpha: settings.alpha,
    trajectory: differenceTest(shared, settings),
    outcome: differenceTest(
      shared.filter((u) => u.outcome),
      settings,
    ),
  };
}

/**
 * The default reference: among the evaluator backbones that scored the most units, the one with
 * the highest trajectory-level r (ties: name order), optionally excluding one. Coverage comes
 * first so that a backbone which judged one trajectory cannot win on a handful of units.
 */
export function bestBackbone(table: AlignmentTable, exclude?: string): string | null {
  const candidates = table.rows
    .filter(
      (r) => r.method === "evaluator" && r.backbone !== undefined && r.backbone !== exclude && r.trajectory.r !== null,
    )
    .sort(
      (x, y) =>
        y.trajectory.n - x.trajectory.n ||
        (y.trajectory.r as number) - (x.trajectory.r as number) ||
        (x.backbone! < y.backbone! ? -1 : 1),
    );
  return candidates[0]?.backbone ?? null;
}
