/**
 * A slim, serializable view of an agreement result (consensus or A/B) for the dashboard: the
 * figures without the rating matrix, so a page does not ship every label to the browser.
 */
import { AB_REACTIVENESS } from "../../task-types/ab-reactiveness/label.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { TaskTypeId } from "../../task-types/registry.ts";
import type { AbSummary } from "./ab-summary.ts";
import type { ConsensusAgreement, LevelAgreement } from "./consensus-agreement.ts";

export interface LevelFigures {
  level: "nominal" | "ordinal" | "interval" | "ratio";
  alpha: number | null;
  /** Why alpha is null. */
  reason?: string;
  ci: [number, number] | null;
  draws: number;
  seed: number;
  /** Bootstrap draws in which alpha was undefined (left out of the CI). */
  undefinedDraws: number;
}

export interface AgreementSummary {
  /** consensus-snippet → interval and ordinal; ab-reactiveness → nominal. */
  kind: TaskTypeId;
  pool: "expert" | "crowd" | null;
  raters: number;
  units: number;
  pairableUnits: number;
  excluded: string[];
  levels: LevelFigures[];
}

function levelFigures(l: LevelAgreement): LevelFigures {
  return {
    level: l.result.level,
    alpha: l.result.alpha,
    ...(l.result.reason ? { reason: l.result.reason } : {}),
    ci: l.bootstrap.ci,
    draws: l.bootstrap.draws,
    seed: l.bootstrap.seed,
    undefinedDraws: l.bootstrap.undefinedDraws,
  };
}

export function summarizeAgreement(result: ConsensusAgreement | AbSummary): AgreementSummary {
  if ("nominal" in result) {
    return {
      kind: AB_REACTIVENESS,
      pool: null,
      raters: result.raters.length,
      units: result.pairIds.length,
      pairableUnits: result.pairableUnits,
      excluded: result.excluded,
      levels: [levelFigures(result.nominal)],
    };
  }
  return {
    kind: CONSENSUS_SNIPPET,
    pool: result.pool,
    raters: result.raters.length,
    units: result.units.length,
    pairableUnits: result.pairableUnits,
    excluded: result.excluded,
    levels: [levelFigures(result.interval), levelFigures(result.ordinal)],
  };
}
