/**
 * My labels as a table (cards on phones): scenario, place, answer, when, revised; each row opens the item or its
 * history.
 */
import { Link } from "@remix-run/react";
import { formatUtc } from "../../domain/format-time.ts";
import { isRevised, type MyLabelRow } from "../../domain/label-review/my-labels.ts";
import { AnswerSummary } from "./AnswerSummary.tsx";

export function MyLabelsTable({ studyId, rows }: { studyId: number; rows: MyLabelRow[] }) {
  return (
    <table className="data-table my-labels-table" data-testid="my-labels">
      <thead>
        <tr>
          <th>Item</th>
          <th>Your answer</th>
          <th>Last saved</th>
          <th>
            <span className="visually-hidden">Links</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.labelId} data-label={row.labelId}>
            <td>
              <div className="my-label-scenario">{row.scenario}</div>
              <div className="muted">{row.place}</div>
            </td>
            <td>
              <AnswerSummary summary={row.summary} />
            </td>
            <td>
              Saved {formatUtc(row.updatedAt)}
              <div className="muted">{isRevised(row) ? `Revised (${row.revisions} versions)` : "Not revised"}</div>
            </td>
            <td className="row-links">
              <Link to={`/annotate/${studyId}/items/${row.itemId}?from=mine`}>Open to revise</Link> ·{" "}
              <Link to={`/labels/${row.labelId}`}>History</Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
