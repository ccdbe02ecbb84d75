/**
 * Gold (attention) items: per-annotator accuracy and flagging.
 *
 * - A consensus gold item passes when, on every topic of its gold reference, the annotator's
 *   score is within ±tolerance (default 1) of the reference score. A topic left unscored fails.
 * - An A/B gold item passes when the choice names the side with the higher level.
 */
import { z } from "zod";
import type { LabelPayload } from "../labels.ts";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET } from "../tasks/ids.ts";
import { compareStrings, indexItems, labelName } from "./rows.ts";
import type { ItemId } from "./types.ts";

/** The `gold` JSON of a consensus gold item: topic id → reference score 1–5. */
export const consensusGoldSchema = z
  .object({ topics: z.record(z.string(), z.number().int("a gold score is a whole number").min(1).max(5)) })
  .strict();
export type ConsensusGold = z.infer<typeof consensusGoldSchema>;

/** Parses a consensus item's stored gold; the error names the item and the JSON path. */
export function parseConsensusGold(value: unknown, itemId: ItemId): ConsensusGold {
  const parsed = consensusGoldSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = ["gold", ...issue.path].join(".");
  throw new RangeError(`item ${String(itemId)}: ${path}: ${issue.message}`);
}

export interface ConsensusGoldItem {
  itemId: ItemId;
  /** Topic id → reference score 1–5. */
  reference: Record<string, number>;
}

export interface AbGoldItem {
  itemId: ItemId;
  levelA: number;
  levelB: number;
}

export interface GoldLabel {
  itemId: ItemId;
  annotatorId: string;
  payload: LabelPayload;
}

export interface GoldCheck {
  itemId: ItemId;
  annotatorId: string;
  passed: boolean;
}

export interface GoldAccuracy {
  annotatorId: string;
  attempted: number;
  passed: number;
  accuracy: number;
}

export interface GoldOptions {
  /** Largest |score − reference| that still passes (default 1). */
  tolerance?: number;
}

export const DEFAULT_GOLD_TOLERANCE = 1;
export const DEFAULT_GOLD_THRESHOLD = 0.7;
export const DEFAULT_GOLD_MIN_ATTEMPTED = 2;

/** One pass/fail per label on a gold item; labels on other items are ignored. */
export function goldChecks(
  gold: { consensus?: readonly ConsensusGoldItem[]; ab?: readonly AbGoldItem[] },
  labels: readonly GoldLabel[],
  options: GoldOptions = {},
): GoldCheck[] {
  const tolerance = options.tolerance ?? DEFAULT_GOLD_TOLERANCE;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError(`gold tolerance must be a number ≥ 0, got ${tolerance}`);
  const consensus = indexItems(gold.consensus ?? [], "gold.consensus");
  const ab = indexItems(gold.ab ?? [], "gold.ab");
  for (const id of consensus.keys()) {
    if (ab.has(id)) throw new RangeError(`gold item ${String(id)} is listed both as a consensus and as an A/B item`);
  }
  for (const item of ab.values()) {
    if (!Number.isFinite(item.levelA) || !Number.isFinite(item.levelB) || item.levelA === item.levelB) {
      throw new RangeError(`A/B gold item ${String(item.itemId)} needs two different finite levels, got ${item.levelA} and ${item.levelB}`);
    }
  }

  const checks: GoldCheck[] = [];
  labels.forEach((label, i) => {
    const where = labelName(i, label);
    const c = consensus.get(label.itemId);
    const p = ab.get(label.itemId);
    if (c) {
      if (label.payload.kind !== CONSENSUS_SNIPPET) throw new RangeError(`${where}: a consensus gold item has a "${label.payload.kind}" label`);
      const topics = label.payload.topics;
      const passed = Object.entries(c.reference).every(([topicId, ref]) => {
        const entry = topics[topicId];
        return entry !== undefined && Math.abs(entry.score - ref) <= tolerance;
      });
      checks.push({ itemId: label.itemId, annotatorId: label.annotatorId, passed });
    } else if (p) {
      if (label.payload.kind !== AB_REACTIVENESS) throw new RangeError(`${where}: an A/B gold item has a "${label.payload.kind}" label`);
      const higher = p.levelA > p.levelB ? "A" : "B";
      checks.push({ itemId: label.itemId, annotatorId: label.annotatorId, passed: label.payload.choice === higher });
    }
  });
  return checks;
}

/** Gold accuracy per annotator who labelled at least one gold item, sorted by annotator id. */
export function goldAccuracy(
  gold: { consensus?: readonly ConsensusGoldItem[]; ab?: readonly AbGoldItem[] },
  labels: readonly GoldLabel[],
  options: GoldOptions = {},
): GoldAccuracy[] {
  const byAnnotator = new Map<string, { attempted: number; passed: number }>();
  for (const check of goldChecks(gold, labels, options)) {
    const acc = byAnnotator.get(check.annotatorId) ?? { attempted: 0, passed: 0 };
    acc.attempted++;
    if (check.passed) acc.passed++;
    byAnnotator.set(check.annotatorId, acc);
  }
  return [...byAnnotator.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([annotatorId, { attempted, passed }]) => ({ annotatorId, attempted, passed, accuracy: passed / attempted }));
}

/**
 * Annotators to flag: accuracy strictly below `threshold` on at least `minAttempted` gold items
 * (fewer attempts say too little to flag anyone). Sorted ids.
 */
export function flagAnnotators(
  accuracies: readonly GoldAccuracy[],
  threshold = DEFAULT_GOLD_THRESHOLD,
  minAttempted = DEFAULT_GOLD_MIN_ATTEMPTED,
): string[] {
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new RangeError(`gold threshold must be between 0 and 1, got ${threshold}`);
  if (!Number.isInteger(minAttempted) || minAttempted < 1) throw new RangeError(`minAttempted must be a whole number ≥ 1, got ${minAttempted}`);
  return accuracies
    .filter((a) => a.attempted >= minAttempted && a.accuracy < threshold)
    .map((a) => a.annotatorId)
    .sort(compareStrings);
}
