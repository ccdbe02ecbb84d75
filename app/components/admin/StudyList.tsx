import { Form, Link } from "@remix-run/react";
import type { SortState } from "../../domain/table-sort.ts";
import { TASK_TYPE_IDS } from "../../domain/tasks/ids.ts";
import { taskTypeName } from "../../domain/tasks/registry.ts";
import { SortHeader } from "../SortHeader.tsx";

export interface StudyListRow {
  id: number;
  name: string;
  type: string;
  pool: string;
  items: number;
  labelsPerItem: number;
  labels: number;
  /** Counted labels, and how many the items need (items × labels per item). */
  done: number;
  needed: number;
  status: string;
}

export interface StudyListFilter {
  q: string;
  type: string;
  status: string;
}

/** The list's filter: a GET form, so the filtered list is a link; the sort rides along. */
function StudyFilter({
  filter,
  sort,
}: {
  filter: StudyListFilter;
  sort: SortState;
}) {
  return (
    <Form
      method="get"
      className="inline-form table-filter"
      role="search"
      aria-label="Filter studies"
    >
      <label>
        Find{" "}
        <input
          name="q"
          type="search"
          defaultValue={filter.q}
          placeholder="name or id"
        />
      </label>{" "}
      <span className="filter-field">
        <label htmlFor="study-filter-type">Type</label>{" "}
        <select name="type" id="study-filter-type" defaultValue={filter.type}>
          <option value="">all</option>
          {TASK_TYPE_IDS.map((id) => (
            <option key={id} value={id}>
              {taskTypeName(id)}
            </option>
          ))}
        </select>
      </span>{" "}
      <span className="filter-field">
        <label htmlFor="study-filter-status">Status</label>{" "}
        <select name="status" id="study-filter-status" defaultValue={filter.status}>
          <option value="">all</option>
          <option value="open">open</option>
          <option value="closed">closed</option>
        </select>
      </span>{" "}
      <input type="hidden" name="sort" value={sort.key} />
      <input type="hidden" name="dir" value={sort.dir} />
      <button type="submit" className="button-secondary">
        Filter
      </button>
    </Form>
  );
}

function ProgressCell({ done, needed }: { done: number; needed: number }) {
  const percent = needed ? Math.round((100 * done) / needed) : 0;
  return (
    <td className="num" data-testid="study-progress">
      <progress
        max={needed || 1}
        value={done}
        aria-label={`${done} of ${needed} labels`}
      />{" "}
      {done} / {needed}
      <span className="muted"> ({percent}%)</span>
    </td>
  );
}

/** The admin's table of studies, sortable by each column and filtered by name, type and status (or a note on how to create the first one). */
export function StudyList({
  studies,
  sort,
  filter,
}: {
  studies: readonly StudyListRow[];
  sort: SortState;
  filter: StudyListFilter;
}) {
  const filtering = Boolean(filter.q || filter.type || filter.status);
  if (studies.length === 0 && !filtering) {
    return (
      <section className="empty-state">
        <p>
          No study yet. Create one below: a snippet consensus study samples
          trajectories and takes all their snippets; an A/B study takes
          reactiveness pairs.
        </p>
      </section>
    );
  }
  const header = (label: string, key: string, numeric = false) => (
    <SortHeader label={label} sortKey={key} sort={sort} numeric={numeric} />
  );
  return (
    <>
      <StudyFilter filter={filter} sort={sort} />
      {studies.length === 0 ? (
        <p className="empty-state">No study matches this filter.</p>
      ) : null}
      <table className="data-table" data-testid="study-list">
        <thead>
          <tr>
            {header("Study", "name")}
            {header("Type", "type")}
            {header("Pool", "pool")}
            {header("Items", "items", true)}
            {header("Labels per item", "labelsPerItem", true)}
            {header("Labels", "labels", true)}
            {header("Progress", "progress", true)}
            {header("Status", "status")}
          </tr>
        </thead>
        <tbody>
          {studies.map((s) => (
            <tr key={s.id}>
              <td>
                <Link to={`/admin/studies/${s.id}`}>{s.name}</Link>{" "}
                <span className="muted">#{s.id}</span>
              </td>
              <td>{taskTypeName(s.type)}</td>
              <td>{s.pool}</td>
              <td className="num">{s.items}</td>
              <td className="num">{s.labelsPerItem}</td>
              <td className="num">{s.labels}</td>
              <ProgressCell done={s.done} needed={s.needed} />
              <td>
                <span className={`status-chip status-${s.status}`}>
                  {s.status}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
