/**
 * The condition catalogue: the 15 benchmark conditions (spec: "Scenario conventions"), their
 * ids, and which persona each party gets in the persona-setting conditions (emotion, culture,
 * fidelity). One place decides both, so the expansion, the import checks and the pages agree.
 *
 * With more than two parties, the first party in the scenario's order takes the variant's first
 * letter or code and every other party the second (CR: first composed, the rest reactive;
 * US-CN: first American, the rest Chinese). Fidelity: the target at its level, the rest at the
 * reference level.
 */
import {
  CONDITION_VARIANTS,
  FIDELITY_AXIS,
  FIDELITY_VARIANT,
  type ConditionAxis,
  type Culture,
  type StoredConditionAxis,
} from "../bundle.ts";
import { COMPOSED, REACTIVE, REACTIVENESS_GRID } from "./personas.ts";

export interface ConditionKey {
  axis: ConditionAxis;
  variant: string;
}

/** The 15 conditions in the paper's order (Table 5). */
export const PROBE_CONDITIONS: readonly ConditionKey[] = (Object.keys(CONDITION_VARIANTS) as ConditionAxis[]).flatMap(
  (axis) => CONDITION_VARIANTS[axis].map((variant) => ({ axis, variant })),
);

/** A condition's id: `<scenario>:general` for the general condition, else `<scenario>:<axis>:<variant>`. */
export function conditionId(scenarioId: string, axis: StoredConditionAxis, variant: string): string {
  return axis === "general" ? `${scenarioId}:general` : `${scenarioId}:${axis}:${variant}`;
}

export interface PersonaSetting {
  reactiveness?: number;
  culture?: Culture;
}

const LEVEL_OF = { C: COMPOSED, R: REACTIVE } as const;

/** A fidelity variant's parts: the target party, its level and the others' reference level. */
export interface FidelityLevels {
  target: string;
  level: number;
  reference: number;
}

export function fidelityVariant(target: string, levelIndex: number, referenceIndex: number): string {
  return `${target}-${levelIndex}of3-ref${referenceIndex}of3`;
}

export function parseFidelityVariant(variant: string): FidelityLevels | null {
  const m = FIDELITY_VARIANT.exec(variant);
  if (!m || m[2] === m[3]) return null;
  return { target: m[1], level: REACTIVENESS_GRID[Number(m[2])], reference: REACTIVENESS_GRID[Number(m[3])] };
}

/**
 * What each party of a condition gets, by party id (in the scenario's party order), or null for
 * axes that set no persona (general, strategy, parties, history). Unknown variants give null.
 */
export function personaAssignment(
  axis: StoredConditionAxis,
  variant: string,
  partyIds: readonly string[],
): Map<string, PersonaSetting> | null {
  const pick = <T>(first: T, rest: T) => new Map(partyIds.map((id, i) => [id, i === 0 ? first : rest] as const));
  if (axis === "emotion") {
    if (!/^[CR][CR]$/.test(variant)) return null;
    const [a, b] = [variant[0], variant[1]] as ("C" | "R")[];
    return new Map([...pick(a, b)].map(([id, c]) => [id, { reactiveness: LEVEL_OF[c] }]));
  }
  if (axis === "culture") {
    const m = /^(US|CN|KR)-(US|CN|KR)$/.exec(variant);
    if (!m) return null;
    return new Map([...pick(m[1] as Culture, m[2] as Culture)].map(([id, c]) => [id, { culture: c }]));
  }
  if (axis === FIDELITY_AXIS) {
    const f = parseFidelityVariant(variant);
    if (!f || !partyIds.includes(f.target)) return null;
    return new Map(partyIds.map((id) => [id, { reactiveness: id === f.target ? f.level : f.reference }]));
  }
  return null;
}
