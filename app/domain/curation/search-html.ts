/**
 * Pages the searcher cites, reduced to readable text for the model: scripts, styles and page
 * furniture dropped, block elements turned into line breaks, entities decoded, blank runs
 * collapsed, and the result cut to a character budget at a paragraph or sentence boundary.
 * Pure: the fetching (timeout, size cap) is app/server/curation/search/fetch-page.server.ts.
 */

/** Elements whose content is never text a reader sees. */
const HIDDEN = ["script", "style", "noscript", "svg", "template", "iframe", "head", "nav", "footer", "form"];
const BLOCK =
  /<\/?(?:p|div|section|article|main|header|aside|h[1-6]|li|ul|ol|tr|table|blockquote|pre|br|hr|dd|dt|figcaption)\b[^>]*>/gi;

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  copy: "©",
  euro: "€",
  pound: "£",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/** The document's <title>, if any. */
export function htmlTitle(html: string): string | undefined {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = match ? decodeEntities(match[1]).replace(/\s+/g, " ").trim() : "";
  return title || undefined;
}

/** The visible text of an HTML page, one paragraph a line. */
export function htmlToText(html: string): string {
  let text = html.replace(/<!--[\s\S]*?-->/g, " ");
  for (const tag of HIDDEN) text = text.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?</${tag}\\s*>`, "gi"), " ");
  text = text.replace(BLOCK, "\n").replace(/<[^>]*>/g, ""); // inline tags join their text, as a browser shows it
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

export const CUT_MARK = " […]";

/**
 * At most `maxChars` characters (the cut mark included): cut at the last paragraph break, else
 * the last sentence end, else the last space in the second half of the budget, else mid-word.
 */
export function cutToBudget(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - CUT_MARK.length);
  const head = text.slice(0, room);
  const half = Math.floor(room / 2);
  const paragraph = head.lastIndexOf("\n");
  const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf("! "), head.lastIndexOf("? "));
  const space = head.lastIndexOf(" ");
  const end = paragraph >= half ? paragraph : sentence >= half ? sentence + 1 : space >= half ? space : room;
  return head.slice(0, end).trimEnd() + CUT_MARK;
}
