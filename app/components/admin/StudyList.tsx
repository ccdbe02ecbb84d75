import { Link } from "@remix-run/react";
import { taskTypeName } from "../../domain/tasks/registry.ts";

export interface StudyListRow {
  id: number;
  name: string;
  type: string;
  pool: string;
  items: number;
  labelsPerItem: number;
  labels: number;
  status: string;
}

/** The admin's table of studies (or a note on how to create the first one). */
export function StudyList({ studies }: { studies: readonly StudyListRow[] }) {
  if (studies.length === 0) {
    return (
      <section className="empty-state">
        <p>No study yet. Create one below: a snippet consensus study samples trajectories and takes all their snippets; an A/B study takes reactiveness pairs.</p>
      </section>
    );
  }
  return (
    <table className="data-table" data-testid="study-list">
      <thead>
        <tr>
          <th>Study</th>
          <th>Type</th>
          <th>Pool</th>
          <th className="num">Items</th>
          <th className="num">Labels per item</th>
          <th className="num">Labels</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {studies.map((s) => (
          <tr key={s.id}>
            <td>
              <Link to={`/admin/studies/${s.id}`}>{s.name}</Link>
            </td>
            <td>{taskTypeName(s.type)}</td>
            <td>{s.pool}</td>
            <td className="num">{s.items}</td>
            <td className="num">{s.labelsPerItem}</td>
            <td className="num">{s.labels}</td>
            <td>
              <span className={`status-chip status-${s.status}`}>{s.status}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
