/**
 * Condition expansion (SoCRATES §3.3, Appendix D): each axis applied to a fresh copy of the
 * general scenario body. The template axes (strategy, emotion, culture) are fixed texts and are
 * built here, with no LLM; the writer axes (parties, history) are assembled from the writer's
 * checked replies (three-party.ts, history.ts). Nothing here carries a timestamp, so the same
 * scenario always expands to the same bytes.
 */
import type { Condition, ConditionAxis, ConditionProvenance, Party, ScenarioBody, Topic } from "../bundle.ts";
import { conditionId, personaAssignment } from "./conditions.ts";
import { cultureStatement, reactivenessStatement, withPersona } from "./personas.ts";
import { isStrategyMode, STRATEGY_INSTRUCTIONS } from "./strategy.ts";

/** The part of a stored scenario every condition starts from. */
export interface BaseScenario {
  id: string;
  background: string;
  topics: Topic[];
  parties: Party[];
}

/** A rule a writer reply broke, named so a repair request and a rejection say exactly what was wrong. */
export interface ProbeProblem {
  rule: string;
  message: string;
}

export const TEMPLATE_AXES = ["strategy", "emotion", "culture"] as const;
export type TemplateAxis = (typeof TEMPLATE_AXES)[number];
export const WRITER_AXES = ["parties", "history"] as const;
export type WriterAxis = (typeof WRITER_AXES)[number];

export const isTemplateAxis = (axis: ConditionAxis): axis is TemplateAxis =>
  (TEMPLATE_AXES as readonly string[]).includes(axis);
export const isWriterAxis = (axis: ConditionAxis): axis is WriterAxis =>
  (WRITER_AXES as readonly string[]).includes(axis);

/** A fresh copy of the general body: no condition can change the stored scenario or another condition. */
export function generalBody(base: BaseScenario): ScenarioBody {
  return structuredClone({ background: base.background, topics: base.topics, parties: base.parties });
}

/** The general condition: the base scenario as it is (no expanded body, no provenance). */
export function generalCondition(scenarioId: string): Condition {
  return {
    id: conditionId(scenarioId, "general", "default"),
    scenario_id: scenarioId,
    axis: "general",
    variant: "default",
  };
}

function assignment(base: BaseScenario, axis: TemplateAxis, variant: string) {
  const set = personaAssignment(
    axis,
    variant,
    base.parties.map((p) => p.id),
  );
  if (!set) throw new RangeError(`axis "${axis}" has no variant "${variant}"`);
  return set;
}

/** The fixed texts a template condition adds (hashed into its prompt_version), in party order without repeats. */
export function templateTexts(base: BaseScenario, axis: TemplateAxis, variant: string): string[] {
  if (axis === "strategy") {
    if (!isStrategyMode(variant)) throw new RangeError(`axis "strategy" has no variant "${variant}"`);
    return [STRATEGY_INSTRUCTIONS[variant]];
  }
  const texts = [...assignment(base, axis, variant).values()].map((s) =>
    s.culture !== undefined ? cultureStatement(s.culture) : reactivenessStatement(s.reactiveness ?? 0),
  );
  return [...new Set(texts)];
}

/** The body of a template condition: strategy appends its paragraph; emotion and culture set each party's persona. */
export function templateBody(base: BaseScenario, axis: TemplateAxis, variant: string): ScenarioBody {
  const body = generalBody(base);
  if (axis === "strategy") {
    const [instruction] = templateTexts(base, axis, variant);
    return { ...body, background: `${body.background}\n\n${instruction}` };
  }
  const set = assignment(base, axis, variant);
  return { ...body, parties: body.parties.map((p) => withPersona(p, set.get(p.id) ?? {})) };
}

/** A template condition, ready to store; `promptVersion` is a short hash of templateTexts (hashing is I/O-side). */
export function templateCondition(
  base: BaseScenario,
  axis: TemplateAxis,
  variant: string,
  promptVersion: string,
): Condition {
  return expandedCondition(base.id, axis, variant, templateBody(base, axis, variant), {
    method: "template",
    prompt_version: promptVersion,
  });
}

export function expandedCondition(
  scenarioId: string,
  axis: ConditionAxis,
  variant: string,
  expanded: ScenarioBody,
  provenance: ConditionProvenance,
): Condition {
  return { id: conditionId(scenarioId, axis, variant), scenario_id: scenarioId, axis, variant, expanded, provenance };
}
