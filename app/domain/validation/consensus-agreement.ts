/**
 * Inter-annotator agreement on consensus labels (spec: "Human validation → Inter-annotator
 * agreement"): Krippendorff's alpha over (item, topic) units, raters = the annotators of one
 * pool, at the interval and ordinal levels, each with a seeded bootstrap 95% CI.
 */
import {
  bootstrapAlpha,
  krippendorffAlpha,
  DEFAULT_DRAWS,
  DEFAULT_SEED,
  type AlphaBootstrap,
  type AlphaResult,
} from "../stats/index.ts";
import { checkLabelRows, checkPools, compareIds, compareStrings, forEachScore, indexItems, labelName } from "./rows.ts";
import type { ConsensusItem, ConsensusLabelRow, ItemId, Pool } from "./types.ts";

export interface AgreementOptions {
  pool: Pool;
  /** Annotators left out (e.g. those flagged on gold items). */
  exclude?: Iterable<string>;
  /** Bootstrap draws (default 1000) and seed (default 1), as in the spec. */
  draws?: number;
  seed?: number;
}

export interface AgreementUnit {
  itemId: ItemId;
  runId: string;
  snippetPosition: number;
  topicId: string;
}

export interface LevelAgreement {
  result: AlphaResult;
  bootstrap: AlphaBootstrap;
}

export interface ConsensusAgreement {
  pool: Pool;
  /** Columns of the matrix: non-gold items in (run, snippet position, item id) order × their topics. */
  units: AgreementUnit[];
  /** Rows of the matrix: annotator ids of the pool with a label on a non-gold item, sorted. */
  raters: string[];
  /** Units scored by two or more raters (the only ones alpha uses). */
  pairableUnits: number;
  /** matrix[r][u] = rater r's 1–5 score on unit u, null when missing. */
  matrix: (number | null)[][];
  /** The requested exclusions that matched an annotator of the pool, sorted. */
  excluded: string[];
  interval: LevelAgreement;
  ordinal: LevelAgreement;
}

/** Raters × units matrix of one pool's scores (gold items and excluded annotators left out). */
export function consensusMatrix(
  items: readonly ConsensusItem[],
  labels: readonly ConsensusLabelRow[],
  pool: Pool,
  exclude: Iterable<string> = [],
): Pick<ConsensusAgreement, "units" | "raters" | "matrix" | "excluded"> {
  const byId = indexItems(items, "items");
  checkLabelRows(labels, byId, "labels");
  checkPools(labels, "labels");
  const excludeSet = new Set(exclude);

  const regular = items
    .filter((item) => !item.isGold)
    .sort(
      (a, b) =>
        compareStrings(a.runId, b.runId) || a.snippetPosition - b.snippetPosition || compareIds(a.itemId, b.itemId),
    );
  const units: AgreementUnit[] = [];
  const column = new Map<ItemId, Map<string, number>>();
  for (const item of regular) {
    const topics = new Map<string, number>();
    for (const topicId of item.topicIds) {
      if (topics.has(topicId)) throw new RangeError(`item ${String(item.itemId)} lists topic "${topicId}" twice`);
      topics.set(topicId, units.length);
      units.push({ itemId: item.itemId, runId: item.runId, snippetPosition: item.snippetPosition, topicId });
    }
    column.set(item.itemId, topics);
  }

  const poolLabels = labels.filter((l) => l.pool === pool && column.has(l.itemId));
  const present = [...new Set(poolLabels.map((l) => l.annotatorId))].sort(compareStrings);
  const raters = present.filter((id) => !excludeSet.has(id));
  const excluded = present.filter((id) => excludeSet.has(id));
  const row = new Map(raters.map((id, r) => [id, r]));
  const matrix: (number | null)[][] = raters.map(() => new Array<number | null>(units.length).fill(null));

  labels.forEach((label, i) => {
    const r = row.get(label.annotatorId);
    const topics = column.get(label.itemId);
    if (label.pool !== pool || r === undefined || topics === undefined) return;
    forEachScore(label.payload, topics, labelName(i, label), (topicId, score) => {
      matrix[r][topics.get(topicId) as number] = score;
    });
  });
  return { units, raters, matrix, excluded };
}

/** Alpha (interval and ordinal) with bootstrap CIs for one pool's consensus labels. */
export function consensusAgreement(
  items: readonly ConsensusItem[],
  labels: readonly ConsensusLabelRow[],
  options: AgreementOptions,
): ConsensusAgreement {
  const { units, raters, matrix, excluded } = consensusMatrix(items, labels, options.pool, options.exclude);
  const boot = { draws: options.draws ?? DEFAULT_DRAWS, seed: options.seed ?? DEFAULT_SEED };
  const level = (name: "interval" | "ordinal"): LevelAgreement => ({
    result: krippendorffAlpha(matrix, name),
    bootstrap: bootstrapAlpha(matrix, name, boot),
  });
  const interval = level("interval");
  return {
    pool: options.pool,
    units,
    raters,
    pairableUnits: interval.result.units,
    matrix,
    excluded,
    interval,
    ordinal: level("ordinal"),
  };
}
