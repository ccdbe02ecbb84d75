/**
 * How a report cell reads on the page and in the files: the mean ×100 (or as it is), the count,
 * the interval; the heat-map colour of a cell within its column group; the leaderboard taken
 * from Table 3. Pure, so the page, the CLI's renderers and the tests share one wording.
 */
import { isReportCell, type ReportCell, type ReportTable, type ReportValue } from "./report-model.ts";
import { formatMean } from "./report/format.ts";

export { formatMean };

/** "95% CI 12.0 to 30.5 over scenarios", or null without an interval. */
export function describeInterval(cell: ReportCell, scale: ReportTable["scale"]): string | null {
  return cell.ci ? `95% CI ${formatMean(cell.ci[0], scale)} to ${formatMean(cell.ci[1], scale)} over scenarios` : null;
}

/** A cell's hover text: every number behind it. */
export function cellTitle(value: ReportValue, scale: ReportTable["scale"]): string {
  if (!isReportCell(value)) return value.text;
  const parts = [
    `mean ${formatMean(value.mean, scale)} over ${value.n}`,
    value.median !== null ? `median ${formatMean(value.median, scale)}` : null,
    describeInterval(value, scale),
    value.missing > 0 ? `${value.missing} without a value (incomplete or undefined), left out` : null,
  ];
  return parts.filter((p) => p !== null).join(" · ");
}

/** The column groups of a table (Table 3: IT, IE, CG), each shaded on its own range. */
function groupOf(table: ReportTable, columnKey: string): string {
  return table.columns.find((c) => c.key === columnKey)?.group ?? "";
}

/** Per column group, the lowest and highest mean among the table's cells. */
export function heatRanges(table: ReportTable): Map<string, { min: number; max: number }> {
  const ranges = new Map<string, { min: number; max: number }>();
  for (const row of table.rows) {
    for (const [key, value] of Object.entries(row.cells)) {
      if (!isReportCell(value) || value.mean === null) continue;
      const group = groupOf(table, key);
      const r = ranges.get(group);
      if (!r) ranges.set(group, { min: value.mean, max: value.mean });
      else {
        r.min = Math.min(r.min, value.mean);
        r.max = Math.max(r.max, value.mean);
      }
    }
  }
  return ranges;
}

/**
 * A cell's background on a light-to-dark blue ramp within its group's range, and a text colour
 * that keeps the number readable on it (single-hue, so it reads without colour vision too).
 */
export function heatStyle(
  table: ReportTable,
  ranges: Map<string, { min: number; max: number }>,
  columnKey: string,
  value: ReportValue | undefined,
): { background: string; color: string } | null {
  if (!isReportCell(value) || value.mean === null) return null;
  const range = ranges.get(groupOf(table, columnKey));
  if (!range) return null;
  const share = range.max > range.min ? (value.mean - range.min) / (range.max - range.min) : 0.5;
  const lightness = Math.round(95 - share * 55); // 95% (pale) … 40% (deep)
  // Both sides of the switch keep WCAG AA (4.5:1): white up to 48% lightness (4.66:1 at 48%), black
  // from 49% (4.67:1); the softer #1b1f24 fell short on 50–55%, and white from 49% up (axe found 3.69:1).
  return { background: `hsl(212 65% ${lightness}%)`, color: lightness <= 48 ? "#fff" : "#000" };
}

export interface LeaderboardRow {
  rank: number;
  mediator: string;
  group?: string;
  /** The average over domains of each metric, by metric key (IT, IE, CG). */
  cells: Record<string, ReportCell | undefined>;
}

/**
 * The leaderboard: Table 3's mediators ranked by their average consensus gain (ties share a
 * rank; a mediator with no value ranks last). `averageColumn(metric)` names Table 3's average
 * column of a metric; the row `averageRow` (all mediators pooled) is left out.
 */
export function leaderboard(
  table: ReportTable,
  metrics: readonly string[],
  averageColumn: (metric: string) => string,
  rankBy: string,
  averageRow: string,
): LeaderboardRow[] {
  const rows = table.rows
    .filter((r) => r.key !== averageRow)
    .map((r) => ({
      mediator: r.label,
      group: r.group,
      cells: Object.fromEntries(metrics.map((m) => [m, asCell(r.cells[averageColumn(m)])])) as Record<
        string,
        ReportCell | undefined
      >,
    }));
  const score = (r: (typeof rows)[number]) => r.cells[rankBy]?.mean ?? null;
  rows.sort((a, b) => (score(b) ?? -Infinity) - (score(a) ?? -Infinity) || a.mediator.localeCompare(b.mediator));
  let rank = 0;
  return rows.map((r, i) => {
    if (i === 0 || score(r) !== score(rows[i - 1])) rank = i + 1;
    return { rank, ...r };
  });
}

const asCell = (v: ReportValue | undefined): ReportCell | undefined => (isReportCell(v) ? v : undefined);

/**
 * The leaderboard with one more column taken from another table (the emotional-repair table's
 * all-conditions column), matched by mediator; a mediator the table lacks, or a missing table,
 * leaves the cell empty. The ranking stays by consensus gain.
 */
export function withLeaderboardColumn(
  rows: readonly LeaderboardRow[],
  table: ReportTable | undefined,
  metric: string,
  column: string,
): LeaderboardRow[] {
  const byMediator = new Map((table?.rows ?? []).map((r) => [r.label, asCell(r.cells[column])]));
  return rows.map((r) => ({ ...r, cells: { ...r.cells, [metric]: byMediator.get(r.mediator) } }));
}

/**
 * The leaderboard with a column read from a table of estimates stated as text with an interval
 * (the human-calibrated table): the cell of row `rowKey(mediator)`, column `column`, as a mean with
 * that interval and the count of column `countColumn`; a mediator without a value gets none.
 */
export function withIntervalColumn(
  rows: readonly LeaderboardRow[],
  table: ReportTable | undefined,
  metric: string,
  at: { rowKey: (mediator: string) => string; column: string; countColumn: string },
): LeaderboardRow[] {
  return rows.map((r) => {
    const row = table?.rows.find((x) => x.key === at.rowKey(r.mediator));
    const value = row?.cells[at.column];
    const count = row?.cells[at.countColumn];
    const cell: ReportCell | undefined =
      value && !isReportCell(value) && value.value !== null
        ? {
            mean: value.value,
            median: null,
            n: count && !isReportCell(count) ? (count.value ?? 0) : 0,
            missing: 0,
            ci: value.ci ?? null,
            runIds: [],
          }
        : undefined;
    return { ...r, cells: { ...r.cells, [metric]: cell } };
  });
}
