import { Link, useSearchParams } from "@remix-run/react";
import { sortSearch, type SortState } from "../domain/table-sort.ts";

/** A column header that sorts the table by its column (a link: the server sorts, no JavaScript needed). */
export function SortHeader({
  label,
  sortKey,
  sort,
  numeric = false,
}: {
  label: string;
  sortKey: string;
  sort: SortState;
  numeric?: boolean;
}) {
  const [params] = useSearchParams();
  const active = sort.key === sortKey;
  return (
    <th
      className={numeric ? "num" : undefined}
      aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      <Link to={sortSearch(params, sort, sortKey)} className="sort-link" preventScrollReset>
        {label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}
        </span>
      </Link>
    </th>
  );
}
