import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { studyForWorker } from "../server/annotation/access.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { ownLabels } from "../server/models/label.server.ts";
import { formatUtc } from "../domain/format-time.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "My labels · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const db = getDb();
  const study = orResponse(() => studyForWorker(db, studyId, user));
  return json({ study: { id: study.id, name: study.name, open: study.status === "open" }, labels: ownLabels(db, studyId, user.id) });
}

export default function MyLabels() {
  const { study, labels } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>My labels in “{study.name}”</h1>
      <p className="muted">
        Open any item to look at your answer or revise it; every revision is kept and the latest one counts.{" "}
        {study.open ? <Link to={`/annotate/${study.id}/next`}>Continue labelling</Link> : "This study is closed."}
      </p>
      {labels.length === 0 ? (
        <section className="empty-state">
          <p>You have not submitted a label in this study yet.</p>
        </section>
      ) : (
        <table className="data-table" data-testid="my-labels">
          <thead>
            <tr>
              <th>Item</th>
              <th className="num">Revisions</th>
              <th>Last saved</th>
              <th>
                <span className="visually-hidden">Links</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {labels.map((l, i) => (
              <tr key={l.labelId}>
                <td>#{i + 1}</td>
                <td className="num">{l.revisions}</td>
                <td>{formatUtc(l.updatedAt)}</td>
                <td className="row-links">
                  <Link to={`/annotate/${study.id}/items/${l.itemId}`}>Open</Link> · <Link to={`/labels/${l.labelId}`}>History</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
