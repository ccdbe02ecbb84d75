/**
 * Sorting a table by a column header: the state is in the query string (`?sort=<key>&dir=asc|desc`),
 * so a sorted page is a link and works without JavaScript. Pure: the pages' loaders parse it and
 * the tables build their header links with it.
 */

export type SortDir = "asc" | "desc";

export interface SortState<K extends string = string> {
  key: K;
  dir: SortDir;
}

/** The sort a query string asks for; the fallback for a missing or unknown key. */
export function parseSort<K extends string>(
  params: URLSearchParams,
  keys: readonly K[],
  fallback: SortState<K>,
): SortState<K> {
  const key = params.get("sort");
  if (!key || !(keys as readonly string[]).includes(key)) return fallback;
  return { key: key as K, dir: params.get("dir") === "desc" ? "desc" : "asc" };
}

/**
 * The query string a column header links to: that column ascending, or reversed when it is already the sort. Other
 * parameters (filters) stay; the page goes.
 */
export function sortSearch(params: URLSearchParams, current: SortState, key: string): string {
  const next = new URLSearchParams(params);
  next.set("sort", key);
  next.set("dir", current.key === key && current.dir === "asc" ? "desc" : "asc");
  // A new order starts at its first page.
  next.delete("page");
  return `?${next.toString()}`;
}

type Sortable = string | number | boolean | null | undefined;

const isEmpty = (v: Sortable) => v === null || v === undefined || v === "";

/** Empty values sort last in either direction. */
function compareValues(a: Sortable, b: Sortable, sign: number): number {
  if (isEmpty(a) || isEmpty(b)) return Number(isEmpty(a)) - Number(isEmpty(b));
  return sign * compareFilled(a, b);
}

function compareFilled(a: Sortable, b: Sortable): number {
  if (typeof a === "string" && typeof b === "string")
    return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });
  return Number(a) - Number(b);
}

/** The rows ordered by `value(row, key)`, ties kept in their given order. */
export function sortRows<T, K extends string>(
  rows: readonly T[],
  sort: SortState<K>,
  value: (row: T, key: K) => Sortable,
): T[] {
  const sign = sort.dir === "desc" ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => compareValues(value(x.row, sort.key), value(y.row, sort.key), sign) || x.index - y.index)
    .map(({ row }) => row);
}

/** Whether `text` contains the filter words (case-insensitive); an empty filter matches everything. */
export function matchesText(filter: string, ...texts: (string | null | undefined)[]): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = texts.filter(Boolean).join(" ").toLowerCase();
  return words.every((w) => haystack.includes(w));
}
