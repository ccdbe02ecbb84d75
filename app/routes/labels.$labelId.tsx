import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "../root.tsx";
import { orResponse } from "../server/http/responses.server.ts";
import { labelHistory } from "../server/annotation/label-history.server.ts";
import { formatUtc } from "../domain/format-time.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Label history · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["admin", "expert", "crowd"]);
  const labelId = parseId(params.labelId, "label");
  return json(orResponse(() => labelHistory(getDb(), labelId, user)));
}

export default function LabelHistory() {
  const label = useLoaderData<typeof loader>();
  const admin = useRouteLoaderData<typeof rootLoader>("root")?.user?.role === "admin";
  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        {admin ? (
          <Link to={`/admin/studies/${label.studyId}`}>Study dashboard</Link>
        ) : (
          <>
            <Link to="/annotate">My tasks</Link> · <Link to={`/annotate/${label.studyId}/mine`}>My labels</Link> ·{" "}
            <Link to={`/annotate/${label.studyId}/items/${label.itemId}`}>Open this item</Link>
          </>
        )}
      </nav>
      <h1>Label {label.id}: every revision</h1>
      <p className="muted">Revisions are never overwritten; the latest one counts.</p>
      <ol className="revision-list" data-testid="revisions">
        {label.revisions.map((r) => (
          <li key={r.revision}>
            <p className="revision-head">
              <strong>Revision {r.revision}</strong> · {formatUtc(r.createdAt)}
              {r.secondsOnTask !== null ? ` · ${Math.round(r.secondsOnTask)} s on task` : ""}
            </p>
            <pre>{JSON.stringify(r.payload, null, 2)}</pre>
          </li>
        ))}
      </ol>
    </>
  );
}
