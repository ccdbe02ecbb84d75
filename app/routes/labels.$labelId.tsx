import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { orResponse } from "~/server/annotation/http.server";
import { labelHistory } from "~/server/annotation/labels.server";
import { requireUser } from "~/server/auth/session.server";
import { getDb } from "~/server/db.server";
import { parseId } from "~/server/route-params";

export const meta: MetaFunction = () => [{ title: "Label history · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["admin", "expert", "crowd"]);
  const labelId = parseId(params.labelId, "label");
  return json(orResponse(() => labelHistory(getDb(), labelId, user)));
}

export default function LabelHistory() {
  const label = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Label {label.id}: every revision</h1>
      <p className="muted">Revisions are never overwritten; the latest one counts.</p>
      <ol className="revision-list" data-testid="revisions">
        {label.revisions.map((r) => (
          <li key={r.revision}>
            <strong>Revision {r.revision}</strong> · {new Date(r.createdAt).toLocaleString()}
            {r.secondsOnTask !== null ? ` · ${Math.round(r.secondsOnTask)} s on task` : ""}
            <pre>{JSON.stringify(r.payload, null, 2)}</pre>
          </li>
        ))}
      </ol>
    </>
  );
}
