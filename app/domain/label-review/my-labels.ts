/**
 * My labels: the rows an annotator sees of their own labels in a study, and the filters that
 * narrow them. Filters travel as query parameters (`?scenario=<title>&revised=yes`) so a filtered
 * list can be linked to.
 */
import type { AnswerSummary } from "./summary.ts";

export interface MyLabelRow {
  labelId: number;
  itemId: number;
  scenario: string;
  /** Where the item sits: "Trajectory 2 · snippet 3 of 6", "Pair 4 of 20 · about Bob". */
  place: string;
  summary: AnswerSummary;
  /** When the latest revision was saved (ISO). */
  updatedAt: string;
  revisions: number;
}

export const REVISED_FILTERS = ["yes", "no"] as const;
export type RevisedFilter = (typeof REVISED_FILTERS)[number];

export interface MyLabelsFilter {
  scenario: string | null;
  revised: RevisedFilter | null;
}

/** The filter in the query; unknown or empty values mean "any". */
export function parseMyLabelsFilter(params: URLSearchParams): MyLabelsFilter {
  const scenario = params.get("scenario")?.trim() || null;
  const revised = params.get("revised");
  return {
    scenario,
    revised: (REVISED_FILTERS as readonly (string | null)[]).includes(revised) ? (revised as RevisedFilter) : null,
  };
}

/** The query string of a filter ("" when it filters nothing), for links back to the same view. */
export function myLabelsQuery(filter: MyLabelsFilter): string {
  const params = new URLSearchParams();
  if (filter.scenario) params.set("scenario", filter.scenario);
  if (filter.revised) params.set("revised", filter.revised);
  const query = params.toString();
  return query ? `?${query}` : "";
}

export const isRevised = (row: Pick<MyLabelRow, "revisions">) => row.revisions > 1;

/** The rows the filter keeps, in the order given (the service gives them newest first). */
export function filterMyLabels<Row extends Pick<MyLabelRow, "scenario" | "revisions">>(
  rows: readonly Row[],
  filter: MyLabelsFilter,
): Row[] {
  return rows.filter(
    (row) =>
      (filter.scenario === null || row.scenario === filter.scenario) &&
      (filter.revised === null || isRevised(row) === (filter.revised === "yes")),
  );
}

/** The distinct scenario titles of the rows, alphabetically: the scenario filter's choices. */
export function scenarioChoices(rows: readonly Pick<MyLabelRow, "scenario">[]): string[] {
  return [...new Set(rows.map((r) => r.scenario))].sort((a, b) => a.localeCompare(b));
}
