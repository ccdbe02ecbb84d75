/**
 * Prompt templates as text: `{{placeholder}}` slots and chat-message marker lines. Reading the
 * files is the server's job (app/server/pipeline/prompt-templates.server.ts); filling and
 * splitting them is pure, so the prompts sent (and the LLM cache keys) are a function of the
 * template text and the values alone.
 *
 * A template may split into chat messages with marker lines `<!-- system -->`,
 * `<!-- user -->` and `<!-- assistant -->`; text before the first marker is a note for
 * maintainers and is dropped. A text without markers is one user message.
 */
import type { ChatMessage } from "../llm/types.ts";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const MARKER = /^<!--\s*(system|user|assistant)\s*-->\s*$/gm;

export type TemplateValues = Record<string, string | number>;

export class PromptTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptTemplateError";
  }
}

/** The placeholder names a template uses, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * Fills every `{{name}}` in one pass, so a value that itself contains braces (a party may say
 * anything) is never expanded again. A placeholder without a value is an error, not a blank.
 */
export function fillTemplate(template: string, values: TemplateValues, source = "template"): string {
  const missing = placeholders(template).filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new PromptTemplateError(`${source}: no value for ${missing.map((m) => `{{${m}}}`).join(", ")}`);
  }
  return template.replace(PLACEHOLDER, (_all, name: string) => String(values[name]));
}

/** Splits a filled template into chat messages at its marker lines. */
export function splitMessages(text: string, source = "template"): ChatMessage[] {
  const markers = [...text.matchAll(MARKER)];
  if (markers.length === 0) return [{ role: "user", content: text.trim() }];
  return markers.map((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < markers.length ? markers[i + 1].index! : text.length;
    const content = text.slice(start, end).trim();
    if (!content) throw new PromptTemplateError(`${source}: the <!-- ${m[1]} --> section is empty`);
    return { role: m[1] as ChatMessage["role"], content };
  });
}
