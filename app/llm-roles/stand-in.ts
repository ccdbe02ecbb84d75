/**
 * The stand-in's one responder (what `socrates mock-llm`, the benchmarks and the tests serve): it
 * answers a request by the role the client names in its x-socrates-role header, with that role's
 * responder from the registry (app/llm-roles/<role>/stand-in.ts), which picks its prompt by the
 * x-socrates-template header. Nothing is guessed from prompt text: a request without the role
 * header gets HTTP 400. Every reply is a deterministic function of the request, never a model.
 */
import { CHECK_TEMPLATE } from "../domain/llm/types.ts";
import { LLM_ROLE_DEFINITIONS, LLM_ROLES, type LlmRole } from "./registry.ts";
import { type Responder, type StandInOptions, StandInRequestError } from "./stand-in-request.ts";

export type { EvaluationSabotage, StandInOptions } from "./stand-in-request.ts";

/** The simulation's roles, and the evaluation judges': what the pipeline tests serve. */
export const SIMULATION_ROLES: readonly LlmRole[] = ["party", "mediator"];
export const JUDGE_ROLES: readonly LlmRole[] = ["evaluator", "baseline-judge", "mi-judge", "emotion-judge"];

/**
 * The responder for the given roles (default: every registered role); a request for another role,
 * or naming none, is answered HTTP 400 with what was expected.
 */
export function standInResponder(options: StandInOptions & { roles?: readonly LlmRole[] } = {}): Responder {
  const answered = new Set<string>(options.roles ?? LLM_ROLES);
  return (request) => {
    const role = request.llmRole;
    if (role === undefined) {
      const expected = LLM_ROLES.join(" | ");
      throw new StandInRequestError(`stand-in: the request names no role (header x-socrates-role: ${expected})`);
    }
    const definition = LLM_ROLE_DEFINITIONS.find((d) => d.id === role);
    if (!definition || !answered.has(role)) {
      const served = [...answered].join(", ");
      throw new StandInRequestError(`stand-in: no responder for role "${role}" here (it answers ${served})`);
    }
    // `socrates llm check` (app/server/llm/check.server.ts) asks every role for one word.
    if (request.template === CHECK_TEMPLATE) return "ok";
    return definition.standIn(request, options);
  };
}
