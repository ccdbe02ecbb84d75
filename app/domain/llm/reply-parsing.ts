/** Turning a model's reply text into a validated value, or a short description of what is wrong. */
import type { ZodType } from "zod";
import { formatJsonPath } from "../judge-problems.ts";

export type ParsedReply<T> = { ok: true; value: T } | { ok: false; error: string };

const WHOLE_FENCE = /^```[A-Za-z]*\s*\n([\s\S]*?)\n?\s*```$/;
const INNER_FENCE = /```(?:json|JSON)?\s*\n([\s\S]*?)\n?\s*```/;

/** The JSON text inside a reply: the reply itself, or the first ``` fenced block in it. */
export function extractJsonText(reply: string): string {
  const text = reply.trim();
  const whole = WHOLE_FENCE.exec(text);
  if (whole) return whole[1].trim();
  if (text.startsWith("{") || text.startsWith("[")) return text;
  const inner = INNER_FENCE.exec(text);
  return inner ? inner[1].trim() : text;
}

const MAX_ISSUES = 5;

export function parseReply<T>(reply: string, schema: ZodType<T>): ParsedReply<T> {
  let json: unknown;
  try {
    json = JSON.parse(extractJsonText(reply));
  } catch (err) {
    return { ok: false, error: `$: the reply is not valid JSON (${(err as Error).message})` };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues;
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${formatJsonPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_ISSUES) shown.push(`… and ${issues.length - MAX_ISSUES} more`);
  return { ok: false, error: shown.join("; ") };
}

/** The follow-up user message of the one repair attempt: what was wrong, and what to send instead. */
export function repairMessage(error: string): string {
  return [
    "Your last reply could not be used because it does not match the required JSON format.",
    `Problems found: ${error}`,
    "Send the corrected reply now: one JSON object only, with no commentary and no code fence.",
  ].join("\n");
}
