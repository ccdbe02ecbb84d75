/**
 * Prompt templates: markdown files in ./prompts with `{{placeholder}}` slots. Read with node:fs
 * at run time (never bundled), relative to this module, so the CLI under tsx and vitest both
 * find them.
 *
 * A template may split into chat messages with marker lines `<!-- system -->`,
 * `<!-- user -->` and `<!-- assistant -->`; text before the first marker is a note for
 * maintainers and is dropped. A file without markers renders as one user message.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ChatMessage } from "../../domain/llm/types.ts";

export const PROMPT_DIR = resolve(import.meta.dirname, "prompts");

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const MARKER = /^<!--\s*(system|user|assistant)\s*-->\s*$/gm;

export class PromptTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromptTemplateError";
  }
}

const cache = new Map<string, string>();

export function loadTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = join(PROMPT_DIR, `${name}.md`);
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new PromptTemplateError(`prompt template ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    cache.set(name, text);
  }
  return text;
}

/** The placeholder names a template uses, in order of first use. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

/**
 * Fills every `{{name}}` in one pass, so a value that itself contains braces (a party may say
 * anything) is never expanded again. A placeholder without a value is an error, not a blank.
 */
export function fillTemplate(template: string, values: Record<string, string | number>, source = "template"): string {
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

export function renderTemplate(name: string, values: Record<string, string | number>): string {
  return fillTemplate(loadTemplate(name), values, `prompt template ${name}.md`);
}

export function renderMessages(name: string, values: Record<string, string | number>): ChatMessage[] {
  return splitMessages(renderTemplate(name, values), `prompt template ${name}.md`);
}

/** A short hash of the named templates' text, recorded with results so a prompt change shows. */
export function templateVersion(names: readonly string[] = readdirSync(PROMPT_DIR).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort()): string {
  const hash = createHash("sha256");
  for (const name of names) hash.update(`${name}\n${loadTemplate(name)}\n`);
  return hash.digest("hex").slice(0, 12);
}
