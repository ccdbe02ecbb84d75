// Persona fidelity (A/B): does the crowd's majority pick the side with the higher reactiveness level?
import { assertFiniteNumber } from "./numeric.ts";

export type AbChoice = "A" | "B";

export interface AbLabel {
  annotatorId: string;
  choice: AbChoice;
}

export interface AbPair {
  pairId: string;
  /** Simulator backbone that produced both conversations. */
  backbone: string;
  /** Target party's level in conversation A and B (they must differ). */
  levelA: number;
  levelB: number;
  labels: readonly AbLabel[];
}

export interface BackboneFidelity {
  backbone: string;
  pairs: number;
  /** Pairs whose majority names the higher level. */
  correct: number;
  /** Pairs without a strict majority (equal A and B counts, or no labels); counted as not correct. */
  noMajority: number;
  fidelity: number;
  labels: number;
}

/** Strict majority of the labels, or null on a tie (including no labels). */
export function majorityChoice(labels: readonly AbLabel[]): AbChoice | null {
  const a = labels.filter((l) => l.choice === "A").length;
  const b = labels.length - a;
  if (a === b) return null;
  return a > b ? "A" : "B";
}

function assertPairValid(pair: AbPair): void {
  assertFiniteNumber(pair.levelA, `pair ${pair.pairId} levelA`);
  assertFiniteNumber(pair.levelB, `pair ${pair.pairId} levelB`);
  if (pair.levelA === pair.levelB) throw new RangeError(`pair ${pair.pairId} has equal levels`);
  const annotators = new Set<string>();
  for (const label of pair.labels) {
    if (label.choice !== "A" && label.choice !== "B") {
      throw new RangeError(`pair ${pair.pairId}: choice ${String(label.choice)} is not A or B`);
    }
    if (annotators.has(label.annotatorId)) {
      throw new RangeError(`pair ${pair.pairId} has two labels from annotator ${label.annotatorId}`);
    }
    annotators.add(label.annotatorId);
  }
}

/** Fidelity per backbone, sorted by backbone name. */
export function personaFidelity(pairs: readonly AbPair[]): BackboneFidelity[] {
  const pairIds = new Set<string>();
  const byBackbone = new Map<string, BackboneFidelity>();
  for (const pair of pairs) {
    assertPairValid(pair);
    if (pairIds.has(pair.pairId)) throw new RangeError(`duplicate pair id ${pair.pairId}`);
    pairIds.add(pair.pairId);

    const entry = byBackbone.get(pair.backbone) ?? {
      backbone: pair.backbone,
      pairs: 0,
      correct: 0,
      noMajority: 0,
      fidelity: 0,
      labels: 0,
    };
    const higher: AbChoice = pair.levelA > pair.levelB ? "A" : "B";
    const majority = majorityChoice(pair.labels);
    entry.pairs++;
    entry.labels += pair.labels.length;
    if (majority === null) entry.noMajority++;
    else if (majority === higher) entry.correct++;
    byBackbone.set(pair.backbone, entry);
  }
  return [...byBackbone.values()]
    .map((e) => ({ ...e, fidelity: e.correct / e.pairs }))
    .sort((x, y) => (x.backbone < y.backbone ? -1 : x.backbone > y.backbone ? 1 : 0));
}

export interface LabelMatrix {
  /** Row order: annotator ids, sorted. */
  annotatorIds: string[];
  /** Column order: pair ids, in input order. */
  pairIds: string[];
  /** values[r][c] = annotator r's choice on pair c, or null when they did not label it. */
  values: (AbChoice | null)[][];
}

/**
 * Raters × units matrix for nominal Krippendorff's alpha. "A"/"B" only need to be comparable
 * within a pair, which is all alpha compares.
 */
export function abLabelMatrix(pairs: readonly AbPair[]): LabelMatrix {
  pairs.forEach(assertPairValid);
  const annotatorIds = [...new Set(pairs.flatMap((p) => p.labels.map((l) => l.annotatorId)))].sort();
  const row = new Map(annotatorIds.map((id, r) => [id, r]));
  const values: (AbChoice | null)[][] = annotatorIds.map(() => pairs.map(() => null));
  pairs.forEach((pair, c) => {
    for (const label of pair.labels) values[row.get(label.annotatorId) as number][c] = label.choice;
  });
  return { annotatorIds, pairIds: pairs.map((p) => p.pairId), values };
}
