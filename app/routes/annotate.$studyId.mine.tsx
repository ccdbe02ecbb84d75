import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { MyLabelsFilters } from "../components/labels/MyLabelsFilters.tsx";
import { MyLabelsTable } from "../components/labels/MyLabelsTable.tsx";
import { parseMyLabelsFilter } from "../domain/label-review/my-labels.ts";
import { myLabels } from "../server/annotation/my-labels.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "My labels · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const filter = parseMyLabelsFilter(new URL(request.url).searchParams);
  return json(await orResponse(async () => await myLabels(await getDb(), studyId, user, filter)));
}

export default function MyLabels() {
  const { study, filter, scenarios, total, rows } = useLoaderData<typeof loader>();
  const listPath = `/annotate/${study.id}/mine`;
  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/annotate">My tasks</Link>
      </nav>
      <h1>My labels in “{study.name}”</h1>
      <p className="muted">
        {
          "Newest first. Open an item to look at your answer or revise it; every version is kept and the latest one counts. "
        }
        {study.open ? <Link to={`/annotate/${study.id}/next`}>Continue labelling</Link> : "This study is closed."}
      </p>
      {total === 0 ? (
        <section className="empty-state">
          <p>You have not submitted a label in this study yet.</p>
          {study.open ? (
            <p>
              <Link to={`/annotate/${study.id}/next`}>Start labelling</Link>: each label you submit appears here, where
              you can look at it again or revise it.
            </p>
          ) : null}
        </section>
      ) : (
        <>
          <MyLabelsFilters filter={filter} scenarios={scenarios} listPath={listPath} />
          <p className="muted" aria-live="polite">
            {rows.length === total
              ? `${total} ${total === 1 ? "label" : "labels"}`
              : `${rows.length} of ${total} labels match`}
          </p>
          {rows.length === 0 ? (
            <section className="empty-state">
              <p>
                None of your labels match these filters. <Link to={listPath}>Show all your labels</Link>.
              </p>
            </section>
          ) : (
            <MyLabelsTable studyId={study.id} rows={rows} />
          )}
        </>
      )}
    </>
  );
}
