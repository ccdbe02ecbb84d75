/**
 * A party from its ProMediate brief (the case's `names` entry): its code, its role (the brief's
 * "Role:" line), its stance on each topic (the brief's own words under that heading in
 * its opinions) and its relation to the others (the brief's sentences that name another party).
 */
import { flatten } from "./case-schema.ts";

/** The brief's "Role:" line, without the label; null when it has none. */
export function briefRole(brief: string): string | null {
  const m = /^\s*Role\s*:\s*(.+)$/im.exec(brief);
  return m ? flatten(m[1]) || null : null;
}

/** The brief's opinions: from its "Opinion(s)" heading to the next heading of level one or two. */
export function opinionsSection(brief: string): string | null {
  const lines = brief.split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{1,3}\s*Opinions?\b/i.test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && /^#{1,2}\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"];
const STOP_WORDS = new Set([
  "with",
  "from",
  "that",
  "this",
  "should",
  "what",
  "will",
  "your",
  "their",
  "issue",
  "option",
]);

/** The words a heading and a topic name are compared by: lower case, four letters or more. */
export function significantWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 4 && !STOP_WORDS.has(w));
}

/** How many of `words` a line shares with them, a word matching another it begins ("audit", "auditing"). */
function overlap(line: string, words: readonly string[]): number {
  const own = significantWords(line);
  return words.filter((w) => own.some((o) => o.startsWith(w) || w.startsWith(o))).length;
}

/** Whether a line opens with topic number `k` (1-based) as "2.", "B.", "II:", "ISSUE 2:" or "### 2)". */
function numberedAs(line: string, k: number): boolean {
  const m = /^\s*(?:#+\s*)?(?:issue\s+)?([0-9]+|[IVX]+|[A-H])\s*[.):]/i.exec(line);
  if (!m) return false;
  const mark = m[1].toUpperCase();
  return mark === String(k) || mark === ROMAN[k - 1] || mark === String.fromCharCode(64 + k);
}

export interface OpinionSections {
  /** The opinions' text before the first topic's heading (stated priorities, if any). */
  preamble: string;
  /** Per topic in order, the text under its heading. */
  sections: string[];
}

/**
 * The opinions split by topic. Topic k's heading is, after topic k-1's, the line numbered k that
 * shares the most words with the topic's name words (`topicWords[k-1]`); a numbered line sharing
 * none (an option "B. $800 million…", a priority list) is never a heading. Returns the index of
 * the first topic with no heading when one is missing.
 */
export function splitOpinions(
  opinions: string,
  topicWords: readonly string[][],
): OpinionSections | { missing: number } {
  const lines = opinions.split(/\r?\n/);
  const headings: number[] = [];
  for (let k = 1; k <= topicWords.length; k++) {
    let best = -1;
    let bestScore = 0;
    for (let i = (headings.at(-1) ?? -1) + 1; i < lines.length; i++) {
      if (!numberedAs(lines[i], k)) continue;
      const score = overlap(lines[i], topicWords[k - 1]);
      if (score > bestScore) [best, bestScore] = [i, score];
    }
    if (best < 0) return { missing: k - 1 };
    headings.push(best);
  }
  return {
    preamble: flatten(lines.slice(0, headings[0]).join("\n")),
    sections: headings.map((h, k) => flatten(lines.slice(h + 1, headings[k + 1] ?? lines.length).join("\n"))),
  };
}

/** The brief without its opinions and strategy: background and identity. */
function backgroundPart(brief: string): string {
  const cut = brief.search(/^#{1,3}\s*(Opinions?|Strategy)\b/im);
  return cut < 0 ? brief : brief.slice(0, cut);
}

/**
 * The party's relation to the others: up to two sentences of its background that name another
 * party (as the case spells it, any case); when none does, a sentence naming who else is at the table.
 */
export function partyRelation(brief: string, others: readonly string[]): string {
  const text = flatten(backgroundPart(brief).replace(/^#+.*$/gm, ""));
  // A full stop after an initial or a title ("L. Ross", "Dr. Fein") does not end a sentence.
  const sentences = text.split(/(?<=[.!?])(?<!\b(?:[A-Z]|Dr|Mr|Ms|Mrs|St)\.)\s+(?=[A-Z"“(])/);
  const named = sentences.filter((s) =>
    others.some((o) => new RegExp(`\\b${o.replace(/[^A-Za-z0-9]/g, ".")}\\b`, "i").test(s)),
  );
  if (named.length > 0) return named.slice(0, 2).join(" ");
  return `At the table with ${others.join(", ")} (the brief does not name them).`;
}
