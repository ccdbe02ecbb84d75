import { Form } from "@remix-run/react";
import type { SortState } from "../domain/table-sort.ts";

export interface RunFilterValues {
  q: string;
  outcome: string;
  mediated: string;
}

/** The runs page's filter: a GET form (a filtered list is a link); the sort and condition ride along. */
export function RunFilter({ filter, sort, condition, outcomes }: { filter: RunFilterValues; sort: SortState; condition: string | null; outcomes: string[] }) {
  return (
    <Form method="get" className="inline-form table-filter" role="search" aria-label="Filter runs">
      <label>
        Find <input name="q" type="search" defaultValue={filter.q} placeholder="run, scenario, condition or model" />
      </label>{" "}
      <span className="filter-field">
        <label htmlFor="run-filter-outcome">Outcome</label>{" "}
        <select name="outcome" id="run-filter-outcome" defaultValue={filter.outcome}>
          <option value="">all</option>
          {outcomes.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </span>{" "}
      <span className="filter-field">
        <label htmlFor="run-filter-mediated">Mediated</label>{" "}
        <select name="mediated" id="run-filter-mediated" defaultValue={filter.mediated}>
          <option value="">all</option>
          <option value="yes">mediated</option>
          <option value="no">unmediated</option>
        </select>
      </span>{" "}
      {condition ? <input type="hidden" name="condition" value={condition} /> : null}
      <input type="hidden" name="sort" value={sort.key} />
      <input type="hidden" name="dir" value={sort.dir} />
      <button type="submit" className="button-secondary">
        Filter
      </button>
    </Form>
  );
}
