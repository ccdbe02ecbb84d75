/**
 * The baseline judge's stand-in (ProMediate's per-turn baseline): attitudes per topic at each turn
 * (template baseline-attitude; `sabotage.attitudeTurns` drops them at chosen turns), and the
 * agreement between two parties, rising with the turn number (template baseline-agreement).
 * Every reply is derived from the request alone.
 */
import { listAfter, round2, user } from "../judge-text.ts";
import {
  type EvaluationSabotage,
  hash32 as hashOf,
  type LlmRoleDefinition,
  type MockChatRequest,
  templateOf,
} from "../stand-in-request.ts";

function attitudeReply(request: MockChatRequest, sabotage: EvaluationSabotage): object {
  const text = user(request);
  const newest = /^\[(\d+)\] ([A-Z][A-Z0-9_]*): /m.exec(text.slice(text.indexOf("## The newest turn")));
  const turn = Number(newest?.[1] ?? 0);
  if (sabotage.attitudeTurns?.includes(turn)) return { note: "mock: no attitudes here" };
  const topics = listAfter(text, /on each of these topics: (.+)$/m);
  return {
    attitudes: Object.fromEntries(
      topics.map((topic) => {
        const h = hashOf(`${topic}:${turn}:${newest?.[2]}`);
        return [topic, h % 2 === 0 ? `leans toward option ${String.fromCharCode(65 + ((h >>> 4) % 3))}` : "No Mention"];
      }),
    ),
  };
}

function agreementReply(request: MockChatRequest): object {
  const text = user(request);
  const turn = Number(/^## Positions after turn (\d+)/m.exec(text)?.[1] ?? 0);
  const topics = listAfter(text, /on each of these topics: (.+)$/m);
  const pair = /Rate the agreement between (.+) on each/.exec(text)?.[1] ?? "";
  return {
    topics: Object.fromEntries(
      topics.map((topic) => {
        const base = Math.min(0.9, 0.1 + 0.03 * turn);
        const wobble = ((hashOf(`${pair}:${topic}:${turn}`) % 11) - 5) / 100;
        const dims = {
          shared_goals: round2(base + 0.08 + wobble),
          common_understanding: round2(base + 0.04),
          agreement_on_terms: round2(base - 0.05 + wobble),
          tone_and_willingness: round2(base + 0.06),
          shared_decision_making: round2(base),
        };
        for (const [k, v] of Object.entries(dims)) dims[k as keyof typeof dims] = Math.min(1, Math.max(0, v));
        return [topic, { reason: `mock: agreement after turn ${turn}`, ...dims }];
      }),
    ),
  };
}

export const baselineJudge = {
  id: "baseline-judge",
  standIn: (request, options) =>
    templateOf(request, ["baseline-attitude", "baseline-agreement"]) === "baseline-attitude"
      ? attitudeReply(request, options.sabotage ?? {})
      : agreementReply(request),
} as const satisfies LlmRoleDefinition;
