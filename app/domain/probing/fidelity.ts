/**
 * Persona-fidelity conditions: the general body with the target party at one grid level and
 * every other party at the reference level (personaAssignment decides who gets what; withPersona
 * writes the structured field and the statement). No LLM call: the same inputs give the same bytes.
 */
import { FIDELITY_AXIS, type Condition, type ConditionProvenance, type ScenarioBody } from "../bundle.ts";
import { conditionId, fidelityVariant, personaAssignment } from "./conditions.ts";
import { withPersona } from "./personas.ts";

export interface FidelitySide {
  scenarioId: string;
  /** The general body: the scenario row's background, topics and parties. */
  body: ScenarioBody;
  target: string;
  /** Grid indices (k for k/3). */
  levelIndex: number;
  referenceIndex: number;
}

/**
 * The fidelity condition one side of a pair plays. `promptVersion` is a hash of the statements' template (computed by
 * the caller).
 */
export function fidelityCondition(side: FidelitySide, promptVersion: string): Condition {
  const variant = fidelityVariant(side.target, side.levelIndex, side.referenceIndex);
  const assignment = personaAssignment(
    FIDELITY_AXIS,
    variant,
    side.body.parties.map((p) => p.id),
  );
  if (!assignment) throw new Error(`"${side.target}" is not a party of scenario "${side.scenarioId}"`);
  const provenance: ConditionProvenance = { method: "template", prompt_version: promptVersion };
  return {
    id: conditionId(side.scenarioId, FIDELITY_AXIS, variant),
    scenario_id: side.scenarioId,
    axis: FIDELITY_AXIS,
    variant,
    expanded: {
      background: side.body.background,
      topics: side.body.topics,
      parties: side.body.parties.map((p) => withPersona(p, assignment.get(p.id)!)),
    },
    provenance,
  };
}
