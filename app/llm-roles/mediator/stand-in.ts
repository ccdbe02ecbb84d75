/**
 * The mediator's stand-in: whether to step in (mediator-when templates: yes after two or more party
 * turns since the last intervention, one time in three by a hash of the request) and what to say
 * (mediator-how templates: a package naming one option per topic). Deterministic, never a model.
 */
import { dialogueLines, hashOf, text, topicsOf, type ChatRequestBody } from "../simulation-text.ts";
import { type LlmRoleDefinition, templateOf } from "../stand-in-request.ts";

const TEMPLATES = ["mediator-when", "mediator-how", "mediator-when-social", "mediator-how-social"] as const;

function mediatorWhen(body: ChatRequestBody): object {
  const user = text(body, "user");
  const lines = dialogueLines(user);
  const sinceMediator = lines.length - 1 - lines.map((l) => /^\[\d+\] Mediator: /.test(l)).lastIndexOf(true);
  const engage = lines.length >= 2 && sinceMediator >= 2 && hashOf(body) % 3 === 0;
  return {
    should_engage: engage,
    thought: engage
      ? "Positions are hardening; a concrete package could help."
      : "They are still exchanging proposals; I stay out.",
  };
}

function mediatorHow(body: ChatRequestBody): object {
  const topics = topicsOf(text(body, "system"));
  const h = hashOf(body);
  const proposal = topics
    .map((t, i) => `${t.name}: option ${t.options[(h >>> (i * 3)) % Math.max(1, t.options.length)] ?? "A"}`)
    .join("; ");
  return {
    utterance: `Let me suggest a package you can both test against your needs: ${proposal || "take each point in turn"}.`,
  };
}

export const mediator = {
  id: "mediator",
  standIn: (request) =>
    templateOf(request, TEMPLATES).startsWith("mediator-when") ? mediatorWhen(request) : mediatorHow(request),
} as const satisfies LlmRoleDefinition;
