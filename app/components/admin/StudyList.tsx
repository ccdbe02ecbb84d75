import { Link } from "@remix-run/react";
import type { SortState } from "../../domain/table-sort.ts";
import { TASK_TYPE_IDS, taskTypeName } from "../../task-types/registry.ts";
import { SortHeader } from "../SortHeader.tsx";
import { TableFilter } from "../TableFilter.tsx";

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

/** The list's filter: words in the name or id, the type, the status. */
function StudyFilter({ filter, sort }: { filter: StudyListFilter; sort: SortState }) {
  const types = TASK_TYPE_IDS.map((id) => ({ value: id, label: taskTypeName(id) }));
  const statuses = ["open", "closed"].map((v) => ({ value: v, label: v }));
  return (
    <TableFilter
      label="Filter studies"
      text={{ value: filter.q, placeholder: "name or id" }}
      selects={[
        { name: "type", label: "Type", value: filter.type, options: types },
        { name: "status", label: "Status", value: filter.status, options: statuses },
      ]}
      sort={sort}
    />
  );
}

function ProgressCell({ done, needed }: { done: number; needed: number }) {
  const percent = needed ? Math.round((100 * done) / needed) : 0;
  return (
    <td className="num" data-testid="study-progress">
      <progress max={needed || 1} value={done} aria-label={`${done} of ${needed} labels`} /> {done} / {needed}
      <span className="muted"> ({percent}%)</span>
    </td>
  );
}

/**
 * The admin's table of studies, sortable by each column and filtered by name, type and status (or a note on how to
 * create the first one).
 */
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
          No study yet. Create one below: a snippet consensus study samples trajectories and takes all their snippets;
          an A/B study takes reactiveness pairs.
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
      {studies.length === 0 ? <p className="empty-state">No study matches this filter.</p> : null}
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
                <Link to={`/admin/studies/${s.id}`}>{s.name}</Link> <span className="muted">#{s.id}</span>
              </td>
              <td>{taskTypeName(s.type)}</td>
              <td>{s.pool}</td>
              <td className="num">{s.items}</td>
              <td className="num">{s.labelsPerItem}</td>
              <td className="num">{s.labels}</td>
              <ProgressCell done={s.done} needed={s.needed} />
              <td>
                <span className={`status-chip status-${s.status}`}>{s.status}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
