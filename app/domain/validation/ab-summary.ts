/**
 * A/B reactiveness study summary (spec: "Human validation → Persona fidelity"): fidelity per
 * simulator backbone from the majority of labels per pair, and nominal Krippendorff's alpha
 * over the labels with a seeded bootstrap 95% CI, over all pairs and per backbone (the paper's
 * Table 1 layout). Gold items are left out of both.
 */
import {
  abLabelMatrix,
  personaFidelity,
  type AbChoice,
  type AbPair,
  type BackboneFidelity,
} from "../metrics/persona-fidelity.ts";
import { bootstrapAlpha, krippendorffAlpha, DEFAULT_DRAWS, DEFAULT_SEED } from "../stats/index.ts";
import { AB_REACTIVENESS } from "../../task-types/ab-reactiveness/label.ts";
import type { LevelAgreement } from "./consensus-agreement.ts";
import { checkLabelRows, compareIds, compareStrings, indexItems, labelName } from "./rows.ts";
import type { AbItem, AbLabelRow } from "./types.ts";

export interface AbSummaryOptions {
  /** Annotators left out (e.g. those flagged on gold items). */
  exclude?: Iterable<string>;
  draws?: number;
  seed?: number;
}

/** Nominal alpha over one simulator backbone's pairs. */
export interface BackboneAlpha {
  backbone: string;
  /** That backbone's pairs with two or more labels (the only ones alpha uses). */
  pairableUnits: number;
  nominal: LevelAgreement;
}

export interface AbSummary {
  /** Per backbone, sorted by name; only pairs with at least one label count. */
  fidelity: BackboneFidelity[];
  /** All backbones together; fidelity null when no pair has a label. */
  overall: { pairs: number; correct: number; noMajority: number; fidelity: number | null; labels: number };
  /** Non-gold pairs nobody has labelled yet (not in the fidelity counts). */
  unlabelledPairs: number;
  /** Rows of the matrix, sorted. */
  raters: string[];
  /** Columns of the matrix: labelled non-gold pairs in item id order. */
  pairIds: string[];
  matrix: (AbChoice | null)[][];
  /** Pairs with two or more labels (the only ones alpha uses). */
  pairableUnits: number;
  nominal: LevelAgreement;
  /** Per backbone, in the order of `fidelity`: alpha over that backbone's labelled pairs only. */
  alphaByBackbone: BackboneAlpha[];
  /** The requested exclusions that matched an annotator with labels, sorted. */
  excluded: string[];
}

export function abSummary(
  items: readonly AbItem[],
  labels: readonly AbLabelRow[],
  options: AbSummaryOptions = {},
): AbSummary {
  const byId = indexItems(items, "items");
  checkLabelRows(labels, byId, "labels");
  const exclude = new Set(options.exclude ?? []);
  const excluded = new Set<string>();

  const pairs = new Map<AbItem["itemId"], AbPair & { labels: { annotatorId: string; choice: AbChoice }[] }>();
  // Item id order, so the bootstrap (which draws columns by index) never depends on row order.
  for (const item of [...items].sort((a, b) => compareIds(a.itemId, b.itemId))) {
    if (!item.isGold)
      pairs.set(item.itemId, {
        pairId: item.pairId,
        backbone: item.backbone,
        levelA: item.levelA,
        levelB: item.levelB,
        labels: [],
      });
  }
  labels.forEach((label, i) => {
    if (label.payload.kind !== AB_REACTIVENESS)
      throw new RangeError(`${labelName(i, label)}: expected an A/B label, got "${label.payload.kind}"`);
    const pair = pairs.get(label.itemId);
    if (!pair) return; // a gold item
    if (exclude.has(label.annotatorId)) {
      excluded.add(label.annotatorId);
      return;
    }
    pair.labels.push({ annotatorId: label.annotatorId, choice: label.payload.choice });
  });

  const labelled = [...pairs.values()].filter((p) => p.labels.length > 0);
  const fidelity = personaFidelity(labelled);
  const matrix = abLabelMatrix(labelled);
  const boot = { draws: options.draws ?? DEFAULT_DRAWS, seed: options.seed ?? DEFAULT_SEED };
  const result = krippendorffAlpha(matrix.values, "nominal");
  const alphaByBackbone = fidelity.map(({ backbone }): BackboneAlpha => {
    // The backbone's own columns, in the same item id order as the overall matrix.
    const own = abLabelMatrix(labelled.filter((p) => p.backbone === backbone)).values;
    const alpha = krippendorffAlpha(own, "nominal");
    return {
      backbone,
      pairableUnits: alpha.units,
      nominal: { result: alpha, bootstrap: bootstrapAlpha(own, "nominal", boot) },
    };
  });
  const sum = (key: "pairs" | "correct" | "noMajority" | "labels") => fidelity.reduce((s, f) => s + f[key], 0);

  return {
    fidelity,
    overall: {
      pairs: sum("pairs"),
      correct: sum("correct"),
      noMajority: sum("noMajority"),
      fidelity: labelled.length === 0 ? null : sum("correct") / sum("pairs"),
      labels: sum("labels"),
    },
    unlabelledPairs: pairs.size - labelled.length,
    raters: matrix.annotatorIds,
    pairIds: matrix.pairIds,
    matrix: matrix.values,
    pairableUnits: result.units,
    nominal: { result, bootstrap: bootstrapAlpha(matrix.values, "nominal", boot) },
    alphaByBackbone,
    excluded: [...excluded].sort(compareStrings),
  };
}
