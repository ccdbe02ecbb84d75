import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { findOrCreateCrowdWorker, type CrowdChannel } from "../server/annotation/accounts.server.ts";
import { ServiceError } from "../server/http/errors.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { getStudy } from "../server/annotation/studies.server.ts";
import { verifyCrowdLink } from "../server/auth/crowd-link.server.ts";
import { startSession } from "../server/auth/session.server.ts";
import { enterProlificSession, isProlificEntry } from "../server/crowd/prolific.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Welcome · SoCRATES Studio" }];

/** MTurk sends this assignment id while a worker only previews a HIT. */
const PREVIEW_ASSIGNMENT = "ASSIGNMENT_ID_NOT_AVAILABLE";

/**
 * Crowd entry. Three ways in: a signed per-worker link (`study`, `worker`, `sig`), Mechanical
 * Turk style parameters (`study`, `workerId`, `assignmentId`, `hitId`), or Prolific's
 * (`study`, `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const studyId = parseId(params.get("study") ?? undefined, "study");
  const db = getDb();
  const study = orResponse(() => getStudy(db, studyId));
  if (study.pool !== "crowd") throw new Response("This study is not open to crowd workers.", { status: 403, statusText: "Forbidden" });
  if (study.status !== "open") return json({ state: "closed" as const, name: study.name, prolific: isProlificEntry(params) });

  if (isProlificEntry(params)) {
    let entry;
    try {
      entry = enterProlificSession(db, studyId, params);
    } catch (err) {
      // Participants get a page in plain words (with the status), not an error screen.
      if (err instanceof ServiceError) return json({ state: "refused" as const, name: study.name, message: err.message }, { status: err.status });
      throw err;
    }
    throw await startSession(request, entry.annotatorId, entry.next, { crowdStudy: studyId });
  }

  let channel: CrowdChannel;
  let workerId: string;
  if (params.has("sig")) {
    workerId = params.get("worker") ?? "";
    if (!workerId || !verifyCrowdLink(studyId, workerId, params.get("sig") ?? "")) {
      throw new Response("This link is not valid. Please use the exact link you were given.", { status: 403, statusText: "Forbidden" });
    }
    channel = "link";
  } else if (params.has("assignmentId")) {
    if (params.get("assignmentId") === PREVIEW_ASSIGNMENT) return json({ state: "preview" as const, name: study.name });
    workerId = params.get("workerId") ?? "";
    if (!workerId || !params.get("hitId")) throw new Response("The link is missing workerId or hitId.", { status: 400, statusText: "Bad Request" });
    channel = "mturk";
  } else {
    throw new Response("This page needs a study link with a worker id.", { status: 400, statusText: "Bad Request" });
  }
  const annotatorId = orResponse(() => findOrCreateCrowdWorker(db, channel, workerId));
  const qualified = db.$client.prepare(`SELECT qualified_at AS q FROM annotators WHERE id = ?`).get(annotatorId) as { q: string | null };
  throw await startSession(request, annotatorId, qualified.q ? `/annotate/${studyId}/next` : `/crowd/qualify?study=${studyId}`, { crowdStudy: studyId });
}

export default function CrowdStart() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="empty-state">
      <h1>{data.name}</h1>
      {data.state === "preview" ? (
        <p>This is a preview. Accept the task to begin: you will read two short conversations or a short exchange and answer one question about it.</p>
      ) : data.state === "refused" ? (
        <p className="form-error" role="alert" data-testid="crowd-refused">
          {data.message}
        </p>
      ) : (
        <p>
          This study is closed and takes no more answers. Thank you for your interest.
          {data.state === "closed" && data.prolific ? " Please return your place in the study on Prolific." : ""}
        </p>
      )}
    </section>
  );
}
