/**
 * Seed reports a researcher collected by hand, one file each (Markdown or text), for the `files`
 * source. The format (docs/curation-search.md):
 *
 *   ---
 *   domain: healthcare            (or put the file in a folder named after the domain)
 *   title: Harbour hospital closure
 *   ---
 *   ## Summary        one paragraph
 *   ## Parties        "- Name: description" lines (at least two)
 *   ## Issues         "- issue" lines
 *   ## Timeline       "- date: event" lines
 *   ## Tensions       "- tension" lines
 *   ## Status         one line or paragraph
 *   ## Sources        "- https://…" or "- [title](https://…)" lines
 *
 * The title may instead be the file's "# " heading. A file without a "## Parties" section is
 * free text: the searcher's model turns it into a report. Pure: reading the folder is
 * app/server/curation/seed-files.server.ts.
 */
import { DOMAINS, type Domain } from "../bundle.ts";
import { seedReportSchema, type SeedReport } from "./seed.ts";

export type SeedFile =
  | { kind: "report"; domain?: Domain; report: SeedReport }
  | { kind: "free-text"; domain?: Domain; title?: string; text: string }
  | { kind: "invalid"; domain?: Domain; errors: string[] };

const SECTION_NAMES: Record<string, keyof SeedReport> = {
  summary: "summary",
  background: "summary",
  parties: "parties",
  stakeholders: "parties",
  issues: "issues",
  "contested issues": "issues",
  "core issues": "issues",
  timeline: "timeline",
  history: "timeline",
  tensions: "tensions",
  "institutional tensions": "tensions",
  status: "status",
  "current status": "status",
  sources: "sources",
  references: "sources",
};

/** `key: value` lines between `---` fences at the very top, and the rest of the file. */
export function splitFrontMatter(text: string): { fields: Record<string, string>; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z][A-Za-z _-]*):\s*(.*)$/.exec(line.trim());
    if (kv) fields[kv[1].trim().toLowerCase()] = kv[2].trim().replace(/^["']|["']$/g, "");
  }
  return { fields, body: text.slice(match[0].length) };
}

/** "## Heading" sections (level 2) by lower-cased heading, and the "# " title if any. */
function sections(body: string): { title?: string; byName: Map<string, string> } {
  const byName = new Map<string, string>();
  const title = /^#\s+(.+)$/m.exec(body)?.[1].trim();
  const parts = body.split(/^##\s+/m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf("\n");
    const heading = (newline < 0 ? part : part.slice(0, newline))
      .trim()
      .toLowerCase()
      .replace(/[:#]+$/, "")
      .trim();
    byName.set(heading, newline < 0 ? "" : part.slice(newline + 1).trim());
  }
  return { title, byName };
}

function bullets(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line)?.[1].trim())
    .filter((item): item is string => !!item);
}

/** "a: b", "a — b", "a – b" or "a - b" → [a, b]; markdown bold around a is dropped. */
function pair(item: string): [string, string] {
  const m = /^(.+?)(?::\s+|\s+[—–-]\s+)(.+)$/.exec(item);
  const [left, right] = m ? [m[1], m[2]] : [item, ""];
  return [left.replace(/^\*\*(.*)\*\*$/, "$1").trim(), right.trim()];
}

function source(item: string): { url: string; title?: string } {
  const link = /\[([^\]]+)\]\((\S+?)\)/.exec(item);
  if (link) return { url: link[2], title: link[1] };
  const url = /\S+:\/\/\S+/.exec(item)?.[0] ?? item;
  const title = item.replace(url, "").replace(/^[\s:—–-]+|[\s:—–-]+$/g, "");
  return title ? { url, title } : { url };
}

function paragraph(text: string | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

function domainOf(value: string | undefined, folder: string | undefined): Domain | undefined {
  const found = [value, folder]
    .map((v) => v?.trim().toLowerCase())
    .find((v) => v && (DOMAINS as readonly string[]).includes(v));
  return found as Domain | undefined;
}

/** Parses one seed file; `folder` is the name of the folder it sits in (a domain, perhaps). */
export function parseSeedFile(text: string, folder?: string): SeedFile {
  const { fields, body } = splitFrontMatter(text);
  const domain = domainOf(fields.domain, folder);
  const { title, byName } = sections(body);
  const named = new Map(
    [...byName].flatMap(([heading, content]) =>
      SECTION_NAMES[heading] ? [[SECTION_NAMES[heading], content] as const] : [],
    ),
  );
  const reportTitle = fields.title || title;
  if (!named.has("parties")) return { kind: "free-text", domain, title: reportTitle, text: body.trim() };
  const candidate = {
    title: reportTitle ?? "",
    summary: paragraph(named.get("summary")),
    parties: bullets(named.get("parties") ?? "").map((item) => {
      const [name, description] = pair(item);
      return { name, description: description || name };
    }),
    issues: bullets(named.get("issues") ?? ""),
    timeline: bullets(named.get("timeline") ?? "").map((item) => {
      const [date, event] = pair(item);
      return { date, event };
    }),
    tensions: bullets(named.get("tensions") ?? ""),
    status: fields.status || paragraph(named.get("status")),
    sources: bullets(named.get("sources") ?? "").map(source),
  };
  const parsed = seedReportSchema.safeParse(candidate);
  if (!parsed.success)
    return {
      kind: "invalid",
      domain,
      errors: parsed.error.issues.map((i) => `${i.path.join(".") || "report"}: ${i.message}`),
    };
  return { kind: "report", domain, report: parsed.data };
}
