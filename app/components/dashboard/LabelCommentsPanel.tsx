/** The study dashboard's comments stored with labels: item, annotator, revision, comment and when, newest first. */
import { Link } from "@remix-run/react";
import { ScrollX } from "../ScrollX.tsx";

export interface LabelCommentRow {
  labelId: number;
  position: number;
  annotatorName: string;
  revision: number;
  comment: string;
  createdAt: string;
}

export function LabelCommentsPanel({
  studyId,
  data,
}: {
  studyId: number;
  data: { rows: readonly LabelCommentRow[]; more: boolean };
}) {
  return (
    <section className="dash-section" data-testid="label-comments">
      <h2>Comments with labels</h2>
      {data.rows.length === 0 ? (
        <p className="muted">No annotator has written a comment with a label yet.</p>
      ) : (
        <ScrollX label="Comments with labels">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Annotator</th>
                <th scope="col">Comment</th>
                <th scope="col">Stored (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={r.labelId} data-testid="label-comment-row">
                  <td>
                    item {r.position} · <Link to={`/labels/${r.labelId}`}>revision {r.revision}</Link>
                  </td>
                  <td>{r.annotatorName}</td>
                  <td className="flag-comment">{r.comment}</td>
                  <td>
                    <time dateTime={r.createdAt}>{r.createdAt.slice(0, 16).replace("T", " ")}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      {data.more ? (
        <p className="muted">
          Only the newest 200 are listed; the <a href={`/admin/studies/${studyId}/labels.csv`}>labels CSV</a> has every
          comment.
        </p>
      ) : null}
    </section>
  );
}
