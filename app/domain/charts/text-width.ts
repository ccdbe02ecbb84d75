/**
 * Text width without a canvas, for drawing charts on the server. Vega's own fallback counts 0.8 em for every
 * character, about 1.5× what a browser draws: phone titles were cut far too soon, and axes kept room for labels half
 * again as long as their text.
 *
 * The estimate adds up per-character advance widths of DejaVu Sans, regular and bold: the face Debian's Chromium
 * draws the charts' font stack (system-ui, sans-serif) with, and wider than Arial, Helvetica, Segoe UI or San
 * Francisco, so on other systems a label has a little room to spare rather than too little. Kerning is left out,
 * which errs the same way, and 2 % more covers hinting at small sizes (measured in Chromium before the margin: 0.997
 * to 1.009 times the drawn width of every label tried; test/e2e/chart-text-width.test.ts keeps it above 1).
 */
const MARGIN = 1.02;

/** The charts' font stack (render.server.ts draws every chart with it). */
export const CHART_FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/** Advance widths, thousandths of an em, of the printable ASCII characters from space (32) to tilde (126). */
// biome-ignore format: one row per 16 characters reads as a table
const REGULAR = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
  636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
  1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
  603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
  500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
  635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];
// biome-ignore format: as above
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
  696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580,
  1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
  733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500,
  500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687,
  716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
];

/** Other characters the charts use: [regular, bold]. An accented Latin letter counts as its base letter. */
const OTHER: Record<string, [number, number]> = {
  "…": [1000, 1000],
  "–": [500, 500],
  "—": [1000, 1000],
  "‘": [318, 380],
  "’": [318, 380],
  "“": [518, 657],
  "”": [518, 657],
  "·": [318, 380],
  "•": [590, 639],
  "×": [838, 838],
  "÷": [838, 838],
  "±": [838, 838],
  "≤": [838, 838],
  "≥": [838, 838],
  "≠": [838, 838],
  "−": [838, 838],
  "°": [500, 500],
  α: [659, 687],
  β: [638, 716],
  κ: [589, 710],
  ρ: [635, 716],
  σ: [634, 779],
  "→": [838, 838],
  "←": [838, 838],
};

/** One character's advance, thousandths of an em. */
function charWidth(ch: string, bold: boolean): number {
  const ascii = bold ? BOLD : REGULAR;
  const code = ch.codePointAt(0) ?? 0;
  if (code >= 32 && code <= 126) return ascii[code - 32];
  const known = OTHER[ch];
  if (known !== undefined) return known[bold ? 1 : 0];
  const base = ch.normalize("NFD").charCodeAt(0);
  if (base >= 32 && base <= 126) return ascii[base - 32];
  // CJK, kana, hangul and emoji take a full em; anything else a wide capital's width.
  return code >= 0x1100 ? 1000 : 850;
}

/** The estimated drawn width, px, of `text` at `fontSize` px (bold when fontWeight says so). */
export function estimateTextWidth(text: string, fontSize: number, fontWeight?: string | number | null): number {
  if (!(fontSize > 0) || text.length === 0) return 0;
  const bold = fontWeight === "bold" || fontWeight === "bolder" || Number(fontWeight) >= 600;
  let units = 0;
  for (const ch of text) units += charWidth(ch, bold);
  return (units / 1000) * fontSize * MARGIN;
}

/** The parts of a Vega scenegraph text item the estimate reads. */
export interface TextItemLike {
  fontSize?: number | string | null;
  fontWeight?: string | number | null;
  limit?: number | string | null;
}

/**
 * A replacement for Vega's `textMetrics.width` (item, text). Vega calls it both for a whole line (to bound the item)
 * and, while truncating a line to the item's `limit`, for its prefixes; capping the answer at the limit keeps both
 * right: truncation compares against the limit, where the cap changes no decision, and a truncated line's bounds are
 * at most the limit wide (Vega's own measures apply the truncation first).
 */
export function vegaTextWidth(item: TextItemLike, text: unknown): number {
  const line = text == null ? "" : String(text).trim();
  const fontSize = item.fontSize == null ? 11 : Number(item.fontSize) || 0;
  const width = estimateTextWidth(line, fontSize, item.fontWeight);
  const limit = Number(item.limit);
  return limit > 0 ? Math.min(width, limit) : width;
}
