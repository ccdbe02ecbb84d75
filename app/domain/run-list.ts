/**
 * The runs page's paging, condition filter and readable run titles. Pure: the loader parses the
 * query string with these and the table and pager render with them.
 */

/** Runs per page: a screenful or two, and a query that stays fast at any offset the benchmark reaches. */
export const RUN_PAGE_SIZE = 50;

/** The page a query string asks for (`?page=n`, 1-based); 1 for anything that is not a positive whole number. */
export function parsePage(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** How many pages `total` rows fill (at least one, so an empty result still has a page to show). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * The page numbers a pager shows: the first, the last and two either side of the current one, with `null` for
 * each gap ("…"), so 100 pages never make 100 links.
 */
export function pageNumbers(page: number, pages: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1] > 1 ? [null, n] : [n]));
}

/** The query string of another page: every filter and the sort kept; page 1 is the bare URL. */
export function pageSearch(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  if (page <= 1) next.delete("page");
  else next.set("page", String(page));
  const search = next.toString();
  return search ? `?${search}` : "?";
}

/** A condition as readers name it: its axis, and its variant unless it is the only one ("general"). */
export function conditionLabel(axis: string, variant: string): string {
  return variant === "default" ? axis : `${axis} ${variant}`;
}

/**
 * The value of the condition filter's choices (`<axis>:<variant>`, across scenarios), and back. Axes are names
 * without a colon (app/domain/bundle.ts), so the first colon splits; anything else is no filter.
 */
export function conditionKey(axis: string, variant: string): string {
  return `${axis}:${variant}`;
}
export function parseConditionKey(value: string): { axis: string; variant: string } | undefined {
  const at = value.indexOf(":");
  if (at <= 0 || at === value.length - 1) return undefined;
  return { axis: value.slice(0, at), variant: value.slice(at + 1) };
}

/** The mediator filter's value for unmediated runs (no backbone is named "none": the bundle's own word for it). */
export const NO_MEDIATOR = "none";

/** A run's readable title: "scenario · condition · mediator" (the run id is shown beside it, secondary). */
export function runTitle(run: {
  scenarioTitle: string;
  axis: string;
  variant: string;
  mediated: boolean;
  mediatorBackbone: string | null;
}): string {
  const mediator = run.mediated ? (run.mediatorBackbone ?? "mediated") : "no mediator";
  return `${run.scenarioTitle} · ${conditionLabel(run.axis, run.variant)} · ${mediator}`;
}
