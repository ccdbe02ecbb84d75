/**
 * One writer call whose reply is judged by rules of our own: a reply with problems gets one
 * repair request naming them (the template's `{{problems}}`), and a reply still broken after
 * that is reported with the rules it breaks. The scenario writer (curation) and the condition
 * writer (probing) both call through here.
 */
import type { ZodType } from "zod";
import { describeProblems } from "../../domain/curation/writer-checks.ts";
import type { ChatMessage, Llm } from "../../domain/llm/types.ts";
import { renderMessages } from "../pipeline/prompt-templates.server.ts";

/** A broken rule: its name and what exactly was wrong. */
export interface RuleProblem {
  rule: string;
  message: string;
}

export type CheckedStep<T> =
  | { ok: true; value: T; model: string; repaired: boolean }
  /** invalid: the output broke a rule (or was no usable JSON) after the repair; else the call itself failed. */
  | { ok: false; invalid: boolean; reason: string; value?: T };

export interface CheckedCall<T> {
  /** What the call produces, for the reason text ("scenario", "weights", …). */
  what: string;
  /** Recorded with the call for accounting (a seed or scenario id). */
  subject: string;
  messages: ChatMessage[];
  /** The template the messages come from (named with the request; the repair keeps it). */
  template: string;
  schema: ZodType<T>;
  check: (value: T) => RuleProblem[];
  /** The repair prompt's template; it has a `{{problems}}` slot. */
  repairTemplate: string;
}

/** A reply that is not JSON of the expected shape even after the LLM layer's own repair counts as invalid output. */
const isInvalidReply = (error: string) => /invalid reply/i.test(error);

/** One writer call, checked; with problems, one repair request naming them. */
export async function checkedCall<T>(llm: Llm, call: CheckedCall<T>): Promise<CheckedStep<T>> {
  const { what, subject, messages, template, schema, check } = call;
  const first = await llm.call({ role: "writer", messages, template, schema, subject });
  if (!first.ok) return { ok: false, invalid: isInvalidReply(first.error), reason: `${what}: ${first.error}` };
  const problems = check(first.value);
  if (problems.length === 0) return { ok: true, value: first.value, model: first.model, repaired: false };

  const repairPrompt = renderMessages(call.repairTemplate, {
    problems: problems.map((p) => `- rule ${p.rule}: ${p.message}`).join("\n"),
  });
  const retry = [...messages, { role: "assistant" as const, content: JSON.stringify(first.value) }, ...repairPrompt];
  const second = await llm.call({ role: "writer", messages: retry, template, schema, subject });
  if (!second.ok)
    return {
      ok: false,
      invalid: isInvalidReply(second.error),
      reason: `${what} (repair): ${second.error}`,
      value: first.value,
    };
  const left = check(second.value);
  if (left.length === 0) return { ok: true, value: second.value, model: second.model, repaired: true };
  return {
    ok: false,
    invalid: true,
    reason: `${what} after one repair: ${describeProblems(left)}`,
    value: second.value,
  };
}
