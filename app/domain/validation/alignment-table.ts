/**
 * The dashboard's alignment table (spec: "Human validation → Unit of alignment, Alignment"):
 * one row per method — each topic-localized evaluator backbone, the per-turn baseline, the
 * non-expert pool — with Pearson r against the expert mean at trajectory and outcome level.
 *
 * A unit is a (snippet, topic) pair, a snippet being (run, snippet position): items of several
 * studies that show the same snippet (an expert study and a crowd study) share their units.
 */
import { alignment, type AlignmentResult, type AlignmentUnit } from "../metrics/alignment.ts";
import { baselineValueAt, evaluatorValueAt, meanOf, withStartingScore } from "../metrics/alignment-values.ts";
import { checkLabelRows, checkPools, compareStrings, forEachScore, indexItems, labelName } from "./rows.ts";
import type { ConsensusItem, ConsensusLabelRow } from "./types.ts";

export interface AlignmentItem extends ConsensusItem {
  /** The snippet's last turn (t_end). */
  endTurn: number;
}

/** A method's value on a unit; null when it has none (e.g. no evaluation of that run). */
export type ValueLookup = (runId: string, topicId: string, tEnd: number) => number | null;

export interface EvaluatorSource {
  backbone: string;
  /** s[k][t_end] on 1–5 (see seriesLookup). */
  valueAt: ValueLookup;
}

export interface BaselineSource {
  backbone?: string;
  /** 1 + 4 · mean over pairs of A[·][·][k] at t_end (see baselineLookup). */
  valueAt: ValueLookup;
}

export interface AlignmentOptions {
  evaluators: readonly EvaluatorSource[];
  baseline?: BaselineSource | null;
  /**
   * Expert scores a unit needs to enter (default 1: the spec's reference is the mean of the expert
   * scores, and a snippet scored by one expert still has one). Raise it to 2 to use only units whose
   * reference averages over disagreement.
   */
  minExpertLabels?: number;
  /** The starting score the evaluator values were read with (see seriesLookup), shown beside the figures. */
  s0?: number;
}

export interface ReferenceUnit {
  runId: string;
  snippetPosition: number;
  isLastSnippet: boolean;
  endTurn: number;
  topicId: string;
  /** Mean expert score (1–5). */
  reference: number;
  expertLabels: number;
  /** Mean crowd score, null without crowd labels. */
  crowd: number | null;
  crowdLabels: number;
}

export type AlignmentMethod = "evaluator" | "baseline" | "crowd";

export interface AlignmentRow extends AlignmentResult {
  /** Unique per table: "evaluator:<backbone>", "baseline" or "crowd". */
  key: string;
  method: AlignmentMethod;
  label: string;
  backbone?: string;
  /** The method's value on each unit, in the table's unit order. */
  values: (number | null)[];
}

export interface AlignmentTable {
  minExpertLabels: number;
  /** The evaluators' starting score s0, when the caller gave it. */
  s0?: number;
  /** Sorted by run, snippet position, topic. */
  units: ReferenceUnit[];
  /** Evaluators (in the order given), then the baseline, then the crowd when it has labels on these units. */
  rows: AlignmentRow[];
}

interface UnitTally {
  runId: string;
  snippetPosition: number;
  isLastSnippet: boolean;
  endTurn: number;
  topicId: string;
  expert: number[];
  crowd: number[];
}

export function alignmentTable(
  items: readonly AlignmentItem[],
  labels: readonly ConsensusLabelRow[],
  options: AlignmentOptions,
): AlignmentTable {
  const minExpertLabels = options.minExpertLabels ?? 1;
  if (!Number.isInteger(minExpertLabels) || minExpertLabels < 1) {
    throw new RangeError(`minExpertLabels must be a whole number of at least 1, got ${minExpertLabels}`);
  }
  const backbones = new Set<string>();
  for (const e of options.evaluators) {
    if (backbones.has(e.backbone)) throw new RangeError(`evaluator backbone "${e.backbone}" is given twice`);
    backbones.add(e.backbone);
  }

  const units = referenceUnits(items, labels, minExpertLabels);
  const rows: AlignmentRow[] = options.evaluators.map((e) => ({
    key: `evaluator:${e.backbone}`,
    method: "evaluator" as const,
    label: `Topic-localized evaluator (${e.backbone})`,
    backbone: e.backbone,
    ...methodRow(units, (u) => e.valueAt(u.runId, u.topicId, u.endTurn)),
  }));
  if (options.baseline) {
    const b = options.baseline;
    rows.push({
      key: "baseline",
      method: "baseline",
      label: b.backbone ? `Per-turn baseline (${b.backbone})` : "Per-turn baseline",
      ...(b.backbone ? { backbone: b.backbone } : {}),
      ...methodRow(units, (u) => b.valueAt(u.runId, u.topicId, u.endTurn)),
    });
  }
  if (units.some((u) => u.crowd !== null)) {
    rows.push({
      key: "crowd",
      method: "crowd",
      label: "Non-expert pool (crowd mean)",
      ...methodRow(units, (u) => u.crowd),
    });
  }
  return { minExpertLabels, ...(options.s0 !== undefined ? { s0: options.s0 } : {}), units, rows };
}

function methodRow(
  units: readonly ReferenceUnit[],
  valueOfUnit: (u: ReferenceUnit) => number | null,
): AlignmentResult & { values: (number | null)[] } {
  const values = units.map(valueOfUnit);
  const alignmentUnits: AlignmentUnit[] = units.map((u, i) => ({
    runId: u.runId,
    snippetIndex: u.snippetPosition,
    isFinalSnippet: u.isLastSnippet,
    topicId: u.topicId,
    reference: u.reference,
    value: values[i],
  }));
  return { ...alignment(alignmentUnits), values };
}

/** Units with at least `minExpertLabels` expert scores on non-gold items, with expert and crowd means. */
export function referenceUnits(
  items: readonly AlignmentItem[],
  labels: readonly ConsensusLabelRow[],
  minExpertLabels = 1,
): ReferenceUnit[] {
  const byId = indexItems(items, "items");
  checkLabelRows(labels, byId, "labels");
  checkPools(labels, "labels");
  checkSnippetsConsistent(items);

  const tallies = new Map<string, UnitTally>();
  labels.forEach((label, i) => {
    const item = byId.get(label.itemId) as AlignmentItem;
    if (item.isGold) return;
    forEachScore(label.payload, new Set(item.topicIds), labelName(i, label), (topicId, score) => {
      const key = `${item.runId}\u0000${item.snippetPosition}\u0000${topicId}`;
      const tally = tallies.get(key) ?? {
        runId: item.runId,
        snippetPosition: item.snippetPosition,
        isLastSnippet: item.isLastSnippet,
        endTurn: item.endTurn,
        topicId,
        expert: [],
        crowd: [],
      };
      (label.pool === "expert" ? tally.expert : tally.crowd).push(score);
      tallies.set(key, tally);
    });
  });

  return [...tallies.values()]
    .filter((t) => t.expert.length >= minExpertLabels)
    .sort(
      (a, b) =>
        compareStrings(a.runId, b.runId) ||
        a.snippetPosition - b.snippetPosition ||
        compareStrings(a.topicId, b.topicId),
    )
    .map((t) => ({
      runId: t.runId,
      snippetPosition: t.snippetPosition,
      isLastSnippet: t.isLastSnippet,
      endTurn: t.endTurn,
      topicId: t.topicId,
      reference: meanOf(t.expert) as number,
      expertLabels: t.expert.length,
      crowd: meanOf(t.crowd),
      crowdLabels: t.crowd.length,
    }));
}

/** Items that show the same snippet must agree on where it ends and whether it is the last. */
function checkSnippetsConsistent(items: readonly AlignmentItem[]): void {
  const seen = new Map<string, AlignmentItem>();
  items.forEach((item, i) => {
    if (!Number.isInteger(item.endTurn) || item.endTurn < 1) {
      throw new RangeError(
        `items[${i}] (item ${String(item.itemId)}): endTurn must be a turn number ≥ 1, got ${item.endTurn}`,
      );
    }
    const key = `${item.runId}\u0000${item.snippetPosition}`;
    const other = seen.get(key);
    if (other && (other.endTurn !== item.endTurn || other.isLastSnippet !== item.isLastSnippet)) {
      throw new RangeError(
        `items ${String(other.itemId)} and ${String(item.itemId)} show snippet ${item.snippetPosition} of run ${item.runId} but disagree on its end turn or on whether it is the last`,
      );
    }
    seen.set(key, item);
  });
}

// ---------------------------------------------------------------------------------------------
// Lookups built from stored series, so the caller only has to load rows.

/**
 * Evaluator lookup from carried-forward score series s[k][0..T] per (run, topic). With `s0` (and
 * each series' `located` turns), a topic reads s0 before its first located turn.
 */
export function seriesLookup(
  series: readonly { runId: string; topicId: string; values: readonly number[]; located?: readonly boolean[] }[],
  s0?: number,
): ValueLookup {
  const valuesOf = (s: (typeof series)[number]) =>
    s0 !== undefined && s.located ? withStartingScore(s.values, s.located, s0) : s.values;
  const byKey = new Map(series.map((s) => [`${s.runId}\u0000${s.topicId}`, valuesOf(s)]));
  return (runId, topicId, tEnd) => {
    const values = byKey.get(`${runId}\u0000${topicId}`);
    return values === undefined ? null : evaluatorValueAt(values, tEnd);
  };
}

/** Baseline lookup from per-pair agreement series A[i][j][k][0..T] per (run, topic). */
export function baselineLookup(
  series: readonly { runId: string; topicId: string; pairSeries: readonly (readonly number[])[] }[],
): ValueLookup {
  const byKey = new Map(series.map((s) => [`${s.runId}\u0000${s.topicId}`, s.pairSeries]));
  return (runId, topicId, tEnd) => {
    const pairs = byKey.get(`${runId}\u0000${topicId}`);
    return pairs === undefined ? null : baselineValueAt(pairs, tEnd);
  };
}
