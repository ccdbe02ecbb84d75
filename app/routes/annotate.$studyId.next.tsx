import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { needsQualification, studyForWorker } from "../server/annotation/access.server.ts";
import { nextTask } from "../server/annotation/assignment.server.ts";
import { orResponse, orResponseWrite } from "../server/http/responses.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { channelNextPath } from "../server/crowd/channels/registry.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Next task · SoCRATES Studio" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const db = getDb();
  const study = orResponse(() => studyForWorker(db, studyId, user));
  // Channels whose sessions end with a completion code (Prolific) decide the next step, not this page.
  const channelNext = await orResponseWrite(() => channelNextPath(db, studyId, user));
  if (channelNext) throw redirect(channelNext);
  if (needsQualification(user)) throw redirect(`/crowd/qualify?study=${studyId}`);
  const lease = await orResponseWrite(() => nextTask(db, studyId, user.id));
  if (lease) throw redirect(`/annotate/${studyId}/items/${lease.itemId}`);
  return json({ studyId, name: study.name });
}

export default function NoMoreTasks() {
  const { studyId, name } = useLoaderData<typeof loader>();
  return (
    <section className="empty-state">
      <h1>All done in “{name}”</h1>
      <p>There is no item left for you in this study: you have labelled everything you can, or the remaining items already have all their labels.</p>
      <p>
        <Link to={`/annotate/${studyId}/mine`}>Review or revise my labels</Link> · <Link to="/annotate">Back to my tasks</Link>
      </p>
    </section>
  );
}
