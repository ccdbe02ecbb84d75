/**
 * Prompt templates: markdown files in ./prompts with `{{placeholder}}` slots. Read with node:fs
 * at run time (never bundled), relative to this module, so the CLI under tsx and vitest both
 * find them. Filling and splitting into chat messages is pure: app/domain/prompts/template.ts.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ChatMessage } from "../../domain/llm/types.ts";
import { fillTemplate, PromptTemplateError, splitMessages, type TemplateValues } from "../../domain/prompts/template.ts";

export const PROMPT_DIR = resolve(import.meta.dirname, "prompts");

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

export function renderTemplate(name: string, values: TemplateValues): string {
  return fillTemplate(loadTemplate(name), values, `prompt template ${name}.md`);
}

export function renderMessages(name: string, values: TemplateValues): ChatMessage[] {
  return splitMessages(renderTemplate(name, values), `prompt template ${name}.md`);
}

/** A short, stable version string for a text: the first 12 hex digits of its SHA-256. */
export function textVersion(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

const versions = new Map<string, string>();
let allNames: string[] | undefined;

/**
 * A short hash of the named templates' text (default: every template), recorded with results so a
 * prompt change shows. Kept per process like the templates themselves: the run and evaluation
 * identities ask for it once per run of a grid.
 */
export function templateVersion(names?: readonly string[]): string {
  allNames ??= readdirSync(PROMPT_DIR).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();
  const list = names ?? allNames;
  const key = list.join("\n");
  let version = versions.get(key);
  if (version === undefined) {
    version = textVersion(list.map((name) => `${name}\n${loadTemplate(name)}\n`).join(""));
    versions.set(key, version);
  }
  return version;
}
