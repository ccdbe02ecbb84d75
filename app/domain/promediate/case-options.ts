/**
 * A case's issues and their options. ProMediate writes both as numbered prose: an issue starts a
 * line with its number ("1.", "2)", "## Issue 3:"), and options are labelled in one of four styles,
 * "(a)", "(A):", "(1)." or "Option 1A:" (several may share a line, as "(a) Open; (b) Dual").
 * Whatever the style, the options become A, B, C… in the order written.
 */
import { flatten } from "./case-schema.ts";

/** One numbered block of text: its number's heading line and what follows until the next block. */
export interface NumberedBlock {
  heading: string;
  body: string;
}

const ISSUE_HEADING = /^\s*(?:#+\s*)?(?:issue\s+)?(\d+)\s*[.):]/i;

/**
 * Splits text into blocks headed by lines numbered 1, 2, 3… in turn; a line with any other
 * number (an option's "(1)." or a figure) stays in the block it is in. Text before "1" is dropped.
 */
export function numberedBlocks(text: string): NumberedBlock[] {
  const blocks: { heading: string; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = ISSUE_HEADING.exec(line);
    if (m && Number(m[1]) === blocks.length + 1) blocks.push({ heading: line.trim(), lines: [] });
    else blocks.at(-1)?.lines.push(line);
  }
  return blocks.map((b) => ({ heading: b.heading, body: b.lines.join("\n") }));
}

/** An issue's title: its heading without the number, cut at the first ":" or " – " that follows it. */
export function issueTitle(heading: string): string {
  const rest = heading.replace(ISSUE_HEADING, "").trim();
  const cut = rest.search(/:\s|:$| [–—-] /);
  return flatten(cut > 0 ? rest.slice(0, cut) : rest);
}

/** An issue's description: its heading's text and body, flattened, without the number. */
export function issueDescription(block: NumberedBlock): string {
  return flatten(`${block.heading.replace(ISSUE_HEADING, "")}\n${block.body}`);
}

interface LabelStyle {
  name: string;
  pattern: RegExp;
  /** The label's position in the list (0 for the first option) if `m` is the one expected next. */
  ordinal: (m: RegExpExecArray, issue: number) => number | null;
}

const letterOrdinal = (letter: string) => letter.toUpperCase().charCodeAt(0) - 65;

const LABEL_STYLES: readonly LabelStyle[] = [
  { name: "(a) / (A):", pattern: /\(([A-Za-z])\)\s*:?/g, ordinal: (m) => letterOrdinal(m[1]) },
  { name: "(1).", pattern: /\((\d{1,2})\)\s*\.?/g, ordinal: (m) => Number(m[1]) - 1 },
  {
    name: "Option 1A",
    pattern: /\bOption\s+(\d+)([A-Z])\s*:?/g,
    ordinal: (m, issue) => (Number(m[1]) === issue ? letterOrdinal(m[2]) : null),
  },
];

export interface ParsedOptions {
  /** Text before the first label (an issue's own explanation), flattened; "" when none. */
  preamble: string;
  descriptions: string[];
}

/** Trims a description's edges: list dashes, separators and white space around it. */
function cleanDescription(text: string): string {
  return flatten(text)
    .replace(/^[\s:;,-]+/, "")
    .replace(/[\s;,-]+$/, "")
    .trim();
}

function parseWithStyle(body: string, issue: number, style: LabelStyle): ParsedOptions | null {
  const starts: { at: number; end: number }[] = [];
  for (const m of body.matchAll(style.pattern)) {
    // Only the label expected next counts; a stray "(b)" inside a description stays text.
    if (style.ordinal(m as RegExpExecArray, issue) === starts.length)
      starts.push({ at: m.index, end: m.index + m[0].length });
  }
  if (starts.length < 2) return null;
  const descriptions = starts.map((s, i) => cleanDescription(body.slice(s.end, starts[i + 1]?.at ?? body.length)));
  if (descriptions.some((d) => d === "")) return null;
  return { preamble: cleanDescription(body.slice(0, starts[0].at)), descriptions };
}

/**
 * The options of issue `issue` (1-based) in the first label style that yields at least two
 * labels in order from the first; null when no style does.
 */
export function parseOptions(body: string, issue: number): ParsedOptions | null {
  for (const style of LABEL_STYLES) {
    const parsed = parseWithStyle(body, issue, style);
    if (parsed) return parsed;
  }
  return null;
}

export const LABEL_STYLE_NAMES = LABEL_STYLES.map((s) => s.name);
