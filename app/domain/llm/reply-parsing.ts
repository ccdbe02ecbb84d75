/**
 * Turning a model's reply text into a validated value, or a short description of what is wrong.
 *
 * Real providers wrap the JSON they were asked for: in prose ("Sure — here it is: {…} Let me
 * know…"), in ``` fences, or after a `<think>…</think>` block of reasoning (DeepSeek-R1, Qwen3
 * without a reasoning parser). The reasoning is dropped first, so braces in it cannot be taken
 * for the answer; the rest is searched for JSON objects with a scanner that balances braces
 * outside JSON strings. When a reply holds several objects, the first one (fenced blocks before
 * bare prose, then in reading order) that satisfies the schema wins; when none does, the first
 * one's problems are reported.
 */
import type { ZodType } from "zod";
import { formatJsonPath } from "../judge-problems.ts";
import type { ReplyForm } from "./types.ts";

export type ParsedReply<T> = { ok: true; value: T; form: ReplyForm } | { ok: false; error: string };

/** A piece of the reply that parses as JSON, and how it was found. */
export interface JsonCandidate {
  value: unknown;
  form: ReplyForm;
}

const FENCE = /```[A-Za-z0-9_-]*[ \t]*\n?([\s\S]*?)```/g;
const THINK_OPEN = /^<think>/i;
const THINK_CLOSE = /<\/think>/i;

/**
 * The reply without its leading reasoning: everything after the first `</think>` (a model emits
 * it once, as one token), whether the reply opens with `<think>` or the server put `<think>` in
 * the prompt and the reply only closes it.
 * `unclosed` is set when the reply opens a `<think>` block that never ends.
 */
export function stripThinking(reply: string): { text: string; thinking: boolean; unclosed: boolean } {
  const text = reply.trim();
  const close = THINK_CLOSE.exec(text);
  if (!close)
    return THINK_OPEN.test(text)
      ? { text: "", thinking: true, unclosed: true }
      : { text, thinking: false, unclosed: false };
  return { text: text.slice(close.index + close[0].length).trim(), thinking: true, unclosed: false };
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The end index (exclusive) of the balanced {…} starting at `start`, or -1; braces inside JSON strings do not count.
 */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

/** Opening braces tried at most, so a long reply full of stray braces cannot take quadratic time. */
const MAX_STARTS = 1000;

/** Every top-level {…} in the text that parses as JSON, in reading order. */
export function scanJsonObjects(text: string): unknown[] {
  const found: unknown[] = [];
  let i = text.indexOf("{");
  for (let starts = 0; i !== -1 && starts < MAX_STARTS; starts++) {
    const end = balancedEnd(text, i);
    const parsed = end === -1 ? { ok: false as const } : tryJson(text.slice(i, end));
    if (parsed.ok) found.push(parsed.value);
    // After an object, go on after it; after a stray brace, from the next one.
    i = text.indexOf("{", parsed.ok ? end : i + 1);
  }
  return found;
}

/** The JSON values in an answer (reasoning already removed), best first. */
function candidatesIn(text: string, form?: ReplyForm): JsonCandidate[] {
  const whole = tryJson(text);
  if (whole.ok) return [{ value: whole.value, form: form ?? "json" }];
  const fenced: JsonCandidate[] = [];
  for (const match of text.matchAll(FENCE)) {
    const inner = match[1].trim();
    const parsed = tryJson(inner);
    if (parsed.ok) fenced.push({ value: parsed.value, form: form ?? "fenced" });
    else fenced.push(...scanJsonObjects(inner).map((value) => ({ value, form: form ?? ("fenced" as const) })));
  }
  const prose = scanJsonObjects(text.replace(FENCE, " ")).map((value) => ({ value, form: form ?? ("prose" as const) }));
  return [...fenced, ...prose];
}

/**
 * The JSON values a reply holds, best first, or why there are none. `structured` marks a reply
 * to a structured-output request, whose form is recorded as such.
 */
export function extractJson(
  reply: string,
  structured = false,
): { ok: true; candidates: JsonCandidate[] } | { ok: false; error: string } {
  const { text, thinking, unclosed } = stripThinking(reply);
  if (unclosed)
    return {
      ok: false,
      error: "$: the reply is not valid JSON (it is an unfinished <think> block with no answer after it)",
    };
  const candidates = candidatesIn(text, structured ? "structured" : thinking ? "think" : undefined);
  if (candidates.length > 0) return { ok: true, candidates };
  const bare = text.startsWith("{") || text.startsWith("[");
  const detail = bare ? parseErrorOf(text) : text === "" ? "the reply is empty" : "no complete JSON object found in it";
  return { ok: false, error: `$: the reply is not valid JSON (${detail})` };
}

function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
    return "unknown problem";
  } catch (err) {
    return (err as Error).message;
  }
}

const MAX_ISSUES = 5;

export function parseReply<T>(reply: string, schema: ZodType<T>, structured = false): ParsedReply<T> {
  const extracted = extractJson(reply, structured);
  if (!extracted.ok) return extracted;
  let firstError: string | undefined;
  for (const candidate of extracted.candidates) {
    const result = schema.safeParse(candidate.value);
    if (result.success) return { ok: true, value: result.data, form: candidate.form };
    firstError ??= describeIssues(result.error.issues);
  }
  return { ok: false, error: firstError! };
}

function describeIssues(issues: { path: (string | number)[]; message: string }[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => `${formatJsonPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_ISSUES) shown.push(`… and ${issues.length - MAX_ISSUES} more`);
  return shown.join("; ");
}

/** The follow-up user message of the one repair attempt: what was wrong, and what to send instead. */
export function repairMessage(error: string): string {
  return [
    "Your last reply could not be used because it does not match the required JSON format.",
    `Problems found: ${error}`,
    "Send the corrected reply now: one JSON object only, with no commentary and no code fence.",
  ].join("\n");
}
