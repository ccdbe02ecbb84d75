import { Link, useSearchParams } from "@remix-run/react";
import { pageNumbers, pageSearch } from "../domain/run-list.ts";

/**
 * Links to the previous, next and nearby pages of a paged table (`?page=n`, the filters and sort kept): plain
 * links, so paging works without script and every page is shareable. Nothing when everything fits on one page.
 */
export function Pager({ page, pages, label }: { page: number; pages: number; label: string }) {
  const [params] = useSearchParams();
  if (pages <= 1) return null;
  const to = (n: number) => pageSearch(params, n);
  return (
    <nav className="pager" aria-label={label} data-testid="pager">
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className="muted">← Previous</span>
      )}
      <ol>
        {pageNumbers(page, pages).map((n, i) =>
          n === null ? (
            // A gap has no identity but its place.
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className="pager-current">
                  <span className="visually-hidden">Page </span>
                  {n}
                </span>
              ) : (
                <Link to={to(n)} aria-label={`Page ${n}`}>
                  {n}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className="muted">Next →</span>
      )}
    </nav>
  );
}
