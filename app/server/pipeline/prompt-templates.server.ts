/**
 * Prompt templates: markdown files with `{{placeholder}}` slots, each in its role's folder
 * (app/llm-roles/<role>/<name>.md), named by the file name alone (unique across roles). Read with
 * node:fs at run time (never bundled), relative to this module, so the CLI under tsx and vitest
 * both find them (the server build and the CLI bundle rewrite import.meta.dirname to this source
 * folder). Filling and splitting into chat messages is pure: app/domain/prompts/template.ts.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ChatMessage, LLM_ROLES } from "../../domain/llm/types.ts";
import {
  fillTemplate,
  PromptTemplateError,
  splitMessages,
  type TemplateValues,
} from "../../domain/prompts/template.ts";

/** The folder of the role folders, each holding its role's templates. */
export const ROLES_DIR = resolve(import.meta.dirname, "../../llm-roles");

let files: Map<string, string> | undefined;

/** Every template's file by name, from the registered roles' folders; a name in two folders is an error. */
function templateFiles(): Map<string, string> {
  if (files) return files;
  const found = new Map<string, string>();
  for (const role of LLM_ROLES) {
    for (const file of readdirSync(join(ROLES_DIR, role)).filter((f) => f.endsWith(".md"))) {
      const name = file.slice(0, -3);
      const other = found.get(name);
      if (other)
        throw new PromptTemplateError(`prompt template ${name}.md is in two role folders: ${other} and ${role}`);
      found.set(name, join(ROLES_DIR, role, file));
    }
  }
  files = found;
  return found;
}

const cache = new Map<string, string>();

export function loadTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const file = templateFiles().get(name);
    if (file === undefined) {
      throw new PromptTemplateError(
        `prompt template ${name}.md: cannot read (ENOENT): no role folder in ${ROLES_DIR} holds it`,
      );
    }
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new PromptTemplateError(
        `prompt template ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
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
  // By name, whichever folder holds each: the hash is the same as when they shared one folder.
  allNames ??= [...templateFiles().keys()].sort();
  const list = names ?? allNames;
  const key = list.join("\n");
  let version = versions.get(key);
  if (version === undefined) {
    version = textVersion(list.map((name) => `${name}\n${loadTemplate(name)}\n`).join(""));
    versions.set(key, version);
  }
  return version;
}
