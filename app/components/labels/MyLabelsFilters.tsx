/** The My labels filters: a plain GET form, so a filtered list is a link that can be shared or bookmarked. */
import { Form, Link } from "@remix-run/react";
import { myLabelsQuery, type MyLabelsFilter } from "../../domain/label-review/my-labels.ts";

export function MyLabelsFilters({
  filter,
  scenarios,
  listPath,
}: {
  filter: MyLabelsFilter;
  scenarios: string[];
  listPath: string;
}) {
  const filtering = filter.scenario !== null || filter.revised !== null;
  return (
    // Keyed by the filter, so the choices follow the URL after a client-side navigation (back, "Show all").
    <Form key={myLabelsQuery(filter)} method="get" className="my-labels-filters" aria-label="Filter my labels">
      <label>
        Scenario{" "}
        <select name="scenario" defaultValue={filter.scenario ?? ""}>
          <option value="">All scenarios</option>
          {scenarios.map((title) => (
            <option key={title} value={title}>
              {title}
            </option>
          ))}
        </select>
      </label>
      <label>
        Revised{" "}
        <select name="revised" defaultValue={filter.revised ?? ""}>
          <option value="">Revised or not</option>
          <option value="yes">Revised only</option>
          <option value="no">Never revised</option>
        </select>
      </label>
      <button type="submit">Filter</button>
      {filtering ? <Link to={listPath}>Show all</Link> : null}
    </Form>
  );
}
