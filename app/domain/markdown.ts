/**
 * A deliberately small Markdown subset for study guidelines, parsed to a plain AST that the UI
 * turns into React elements (never into HTML strings), so guideline text can never inject markup.
 *
 * Blocks: ATX headings (`#`…`######`), paragraphs (lines joined by a space), bullet lists
 * (`-`, `*`, `+`) and numbered lists (`1.` or `1)`), one level deep; a non-blank line right after
 * a list item continues that item. Inline: `code`, **bold**, *italic* / _italic_, [text](url)
 * with http(s) URLs only (any other link keeps its text and loses the link), `\` escapes.
 * Everything else, including raw HTML, stays literal text.
 */

export type MdInline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: MdInline[] }
  | { type: "em"; children: MdInline[] }
  | { type: "link"; href: string; children: MdInline[] };

export type MdBlock =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: MdInline[] }
  | { type: "paragraph"; children: MdInline[] }
  | { type: "list"; ordered: boolean; start: number; items: MdInline[][] };

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;
const NUMBERED = /^[ \t]*(\d{1,9})[.)][ \t]+(.*)$/;
const ESCAPABLE = "\\`*_[]()#+-.!<>";

interface OpenList {
  ordered: boolean;
  start: number;
  items: string[][];
}

/** Parses guideline Markdown into blocks. Pure; never throws. */
export function parseMarkdown(source: string): MdBlock[] {
  const blocks: MdBlock[] = [];
  const open: { paragraph: string[]; list: OpenList | null } = { paragraph: [], list: null };

  const close = () => {
    if (open.paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(open.paragraph.join(" ")) });
    if (open.list) {
      const { ordered, start, items } = open.list;
      blocks.push({ type: "list", ordered, start, items: items.map((lines) => parseInline(lines.join(" "))) });
    }
    open.paragraph = [];
    open.list = null;
  };

  for (const rawLine of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    if (line === "") {
      close();
      continue;
    }
    const heading = HEADING.exec(rawLine);
    if (heading) {
      close();
      blocks.push({
        type: "heading",
        level: heading[1].length as 1 | 2 | 3 | 4 | 5 | 6,
        children: parseInline((heading[2] ?? "").trim()),
      });
      continue;
    }
    const bullet = BULLET.exec(rawLine);
    const numbered = bullet ? null : NUMBERED.exec(rawLine);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      if (open.paragraph.length > 0 || open.list?.ordered !== ordered) {
        close();
        open.list = { ordered, start: numbered ? Number(numbered[1]) : 1, items: [] };
      }
      open.list!.items.push([(bullet ? bullet[1] : numbered![2]).trim()]);
      continue;
    }
    // A line straight after a list item continues that item.
    if (open.list) open.list.items[open.list.items.length - 1].push(line);
    else open.paragraph.push(line);
  }
  close();
  return blocks;
}

/** Only absolute http(s) URLs become links; returns the normalised href or null. */
export function safeHref(raw: string): string | null {
  const candidate = raw.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!/^https?:\/\//i.test(candidate) || /[\s\u0000-\u001f]/.test(candidate)) return null;
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Parses one block's inline text. */
export function parseInline(text: string): MdInline[] {
  // Remembers, per delimiter, a position from which no closer exists, so unclosed runs stay linear.
  const noCloser = new Map<string, number>();
  const out: MdInline[] = [];
  let buffer = "";
  const pushText = (t: string) => {
    buffer += t;
  };
  const flush = () => {
    if (buffer) out.push({ type: "text", text: buffer });
    buffer = "";
  };
  const closerFrom = (delimiter: string, from: number, find: () => number): number => {
    const known = noCloser.get(delimiter);
    if (known !== undefined && from >= known) return -1;
    const at = find();
    if (at < 0) noCloser.set(delimiter, from);
    return at;
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < text.length && ESCAPABLE.includes(text[i + 1])) {
      pushText(text[i + 1]);
      i += 2;
      continue;
    }
    if (ch === "`") {
      const end = closerFrom("`", i + 1, () => text.indexOf("`", i + 1));
      if (end > i + 1) {
        flush();
        out.push({ type: "code", text: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (ch === "*" && text[i + 1] === "*") {
      let end = closerFrom("**", i + 2, () => text.indexOf("**", i + 2));
      // In a closing run "***" the last two stars close the bold, so an inner italic keeps its star.
      if (end > 0 && text[end + 2] === "*" && text[end + 3] !== "*") end += 1;
      if (end > i + 2 && hasWords(text.slice(i + 2, end))) {
        flush();
        out.push({ type: "strong", children: parseInline(text.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
      pushText("**");
      i += 2;
      continue;
    }
    if ((ch === "*" || ch === "_") && opensEmphasis(text, i)) {
      const end = closerFrom(ch, i + 1, () => findEmphasisCloser(text, i + 1, ch));
      if (end > i + 1 && hasWords(text.slice(i + 1, end))) {
        flush();
        out.push({ type: "em", children: parseInline(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === "[") {
      const link = readLink(text, i, closerFrom);
      if (link) {
        flush();
        const children = parseInline(link.label);
        const href = safeHref(link.url);
        if (href) out.push({ type: "link", href, children });
        else out.push(...children); // unsafe or relative link: keep the words, drop the link
        i = link.end;
        continue;
      }
    }
    pushText(ch);
    i += 1;
  }
  flush();
  return mergeText(out);
}

/** Emphasis needs something besides markers and spaces inside ("*****" stays text). */
function hasWords(inner: string): boolean {
  return /[^*_\s]/.test(inner);
}

/** `_` inside a word (snake_case) is not emphasis; `*` needs a non-space after it. */
function opensEmphasis(text: string, i: number): boolean {
  const next = text[i + 1];
  if (next === undefined || /\s/.test(next)) return false;
  return text[i] === "*" || i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]);
}

function findEmphasisCloser(text: string, from: number, ch: string): number {
  for (let j = from; j < text.length; j++) {
    if (text[j] === "\\") {
      j += 1;
      continue;
    }
    if (ch === "*" && text[j] === "*" && text[j + 1] === "*") {
      j += 1; // a ** pair inside italics is bold, not our closer
      continue;
    }
    if (text[j] !== ch || /\s/.test(text[j - 1])) continue;
    if (ch === "_" && j + 1 < text.length && /[\p{L}\p{N}]/u.test(text[j + 1])) continue;
    return j;
  }
  return -1;
}

function readLink(
  text: string,
  start: number,
  closerFrom: (delimiter: string, from: number, find: () => number) => number,
): { label: string; url: string; end: number } | null {
  const close = closerFrom("]", start + 1, () => text.indexOf("]", start + 1));
  if (close < 0 || text[close + 1] !== "(") return null;
  // The destination runs to the ")" that balances its parentheses and may not contain spaces,
  // so "javascript:alert(1)" is read whole (and then refused).
  let depth = 0;
  for (let j = close + 2; j < text.length; j++) {
    const c = text[j];
    if (/\s/.test(c)) return null;
    if (c === "(") depth += 1;
    else if (c === ")") {
      if (depth === 0) return { label: text.slice(start + 1, close), url: text.slice(close + 2, j), end: j + 1 };
      depth -= 1;
    }
  }
  return null;
}

function mergeText(nodes: MdInline[]): MdInline[] {
  const merged: MdInline[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (node.type === "text" && last?.type === "text")
      merged[merged.length - 1] = { type: "text", text: last.text + node.text };
    else merged.push(node);
  }
  return merged;
}
