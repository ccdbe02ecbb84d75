/**
 * The MI judge's stand-in (template mi-judge): four scores for one mediator intervention, derived
 * from its turn number; `sabotage.miTurns` makes perception alignment 9 (out of range) at chosen turns.
 */
import { user } from "../judge-text.ts";
import {
  type EvaluationSabotage,
  type LlmRoleDefinition,
  type MockChatRequest,
  templateOf,
} from "../stand-in-request.ts";

function miReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const turn = Number(/^\[(\d+)\] MEDIATOR: /m.exec(text.slice(text.indexOf("## The intervention")))?.[1] ?? 0);
  return {
    reason: `mock: intervention at turn ${turn}`,
    perception_alignment: sabotage.miTurns?.includes(turn) ? 9 : 1 + (turn % 5),
    emotional_dynamics: turn % 3 === 0 ? -1 : 2 + (turn % 4),
    cognitive_challenges: 3,
    communication_breakdowns: turn % 2 === 1 ? 4 : -1,
  };
}

export const miJudge = {
  id: "mi-judge",
  standIn: (request, options) => {
    templateOf(request, ["mi-judge"]);
    return miReply(request, options.sabotage ?? {});
  },
} as const satisfies LlmRoleDefinition;
