/**
 * The scenario page's list of conditions: the 15 benchmark conditions in Table 5 order (stored
 * or not yet expanded), then the persona-fidelity conditions, each with what it changed against
 * the general scenario. Pure; catalog.server.ts passes the stored rows in.
 */
import { FIDELITY_AXIS, type ConditionProvenance, type ScenarioBody } from "../bundle.ts";
import { conditionDiff, type ConditionDiff } from "./condition-diff.ts";
import { conditionId, PROBE_CONDITIONS } from "./conditions.ts";

export interface StoredCondition {
  id: string;
  axis: string;
  variant: string;
  expanded: ScenarioBody | null;
  provenance: ConditionProvenance | null;
  /** Runs stored under it. */
  runs: number;
}

export interface ConditionEntry {
  /** The stored id, or the id the probe would give it when it is not stored yet. */
  id: string;
  axis: string;
  variant: string;
  stored: boolean;
  provenance: ConditionProvenance | null;
  runs: number;
  /** Null when the condition plays the base scenario (the general one) or is not stored. */
  diff: ConditionDiff | null;
}

export interface ConditionListing {
  /** The 15 in Table 5 order. */
  benchmark: ConditionEntry[];
  /** How many of the 15 are not stored yet. */
  missing: number;
  fidelity: ConditionEntry[];
  /** The command that expands the missing ones. */
  probeCommand: string;
}

function entry(general: ScenarioBody, c: StoredCondition): ConditionEntry {
  return {
    id: c.id,
    axis: c.axis,
    variant: c.variant,
    stored: true,
    provenance: c.provenance,
    runs: c.runs,
    diff: c.expanded ? conditionDiff(general, c.expanded) : null,
  };
}

export function conditionListing(
  scenarioId: string,
  general: ScenarioBody,
  stored: readonly StoredCondition[],
): ConditionListing {
  const byKey = new Map(stored.map((c) => [`${c.axis}\u0000${c.variant}`, c]));
  const benchmark = PROBE_CONDITIONS.map(({ axis, variant }): ConditionEntry => {
    const found = byKey.get(`${axis}\u0000${variant}`);
    return found
      ? entry(general, found)
      : {
          id: conditionId(scenarioId, axis, variant),
          axis,
          variant,
          stored: false,
          provenance: null,
          runs: 0,
          diff: null,
        };
  });
  const fidelity = stored
    .filter((c) => c.axis === FIDELITY_AXIS)
    .sort((a, b) => (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0))
    .map((c) => entry(general, c));
  return {
    benchmark,
    missing: benchmark.filter((c) => !c.stored).length,
    fidelity,
    probeCommand: `npx socrates probe --scenario ${scenarioId}`,
  };
}

/**
 * The scenario page's headline count, each part named for what it counts: the stored conditions
 * include the persona-fidelity ones beside the benchmark's 15, so "22 conditions" and "15 of 15"
 * are both true and must say so. `storedTotal` is every condition stored for the scenario.
 */
export function conditionCountsLine(listing: ConditionListing, storedTotal: number): string {
  const benchmark = listing.benchmark.length - listing.missing;
  const fidelity = listing.fidelity.length;
  const other = storedTotal - benchmark - fidelity;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const parts = [`${benchmark} of the ${listing.benchmark.length} benchmark conditions`];
  if (fidelity > 0) parts.push(plural(fidelity, "persona-fidelity condition"));
  if (other > 0) parts.push(`${other} other`);
  return `${plural(storedTotal, "stored condition")}: ${parts.join(", ")}`;
}
