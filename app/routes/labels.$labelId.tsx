import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RevisionCard } from "../components/labels/RevisionCard.tsx";
import { labelHistory } from "../server/annotation/label-history.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Label history · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["admin", "expert", "crowd"]);
  const labelId = parseId(params.labelId, "label");
  return json(await orResponse(async () => await labelHistory(await getDb(), labelId, user)));
}

export default function LabelHistory() {
  const label = useLoaderData<typeof loader>();
  const versions = label.revisions.length;
  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        {label.own ? (
          <>
            <Link to="/annotate">My tasks</Link> · <Link to={`/annotate/${label.studyId}/mine`}>Back to My labels</Link>{" "}
            · <Link to={`/annotate/${label.studyId}/items/${label.itemId}?from=mine`}>Open this item to revise</Link>
          </>
        ) : (
          <Link to={`/admin/studies/${label.studyId}`}>Study dashboard</Link>
        )}
      </nav>
      <h1>
        {label.own ? "Your label" : `${label.author}’s label`}: {label.scenario}
      </h1>
      <p className="muted">
        {label.place} · study “{label.studyName}” · {versions} {versions === 1 ? "version" : "versions"}, newest first.
        Versions are never overwritten; the latest one counts.
      </p>
      <ol className="revision-list" data-testid="revisions" reversed>
        {label.revisions.map((r) => (
          <RevisionCard key={r.revision} revision={r} />
        ))}
      </ol>
    </>
  );
}
