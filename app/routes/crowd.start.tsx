import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { orResponse, orResponseWrite } from "../server/http/responses.server.ts";
import { getStudy } from "../server/annotation/studies.server.ts";
import { startSession } from "../server/auth/session.server.ts";
import { channelForEntry } from "../server/crowd/channels/registry.server.ts";
import { NO_WORK_MESSAGE, noWorkForEntrant } from "../server/crowd/entry-gate.server.ts";
import { isProlificEntry } from "../server/crowd/prolific.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Welcome · SoCRATES Studio" }];

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 403: "Forbidden" };

/**
 * Crowd entry for the channels that come in here (see app/server/crowd/channels): a signed
 * per-worker link or Prolific's parameters. MTurk's bare query parameters (a HIT linking out here)
 * are recognised only to be refused: they are unsigned, so they never start a session.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const studyId = parseId(params.get("study") ?? undefined, "study");
  const db = getDb();
  const study = orResponse(() => getStudy(db, studyId));
  if (study.pool !== "crowd") throw new Response("This study is not open to crowd workers.", { status: 403, statusText: "Forbidden" });
  if (study.status !== "open") return json({ state: "closed" as const, name: study.name, prolific: isProlificEntry(params) });

  const channel = channelForEntry(params);
  if (!channel) throw new Response("This page needs a study link with a worker id.", { status: 400, statusText: "Bad Request" });
  // Before any reading test or stored row: a full study says so at once.
  if (noWorkForEntrant(db, studyId, channel, params)) return json({ state: "no-work" as const, name: study.name, message: NO_WORK_MESSAGE, prolific: isProlificEntry(params) });
  const outcome = await orResponseWrite(() => channel.entry.enter(db, study, params));
  if (outcome.kind === "refused") return json({ state: "refused" as const, name: study.name, message: outcome.message }, { status: outcome.status });
  if (outcome.kind === "invalid") throw new Response(outcome.message, { status: outcome.status, statusText: STATUS_TEXT[outcome.status] });
  throw await startSession(request, outcome.annotatorId, outcome.next, { crowdStudy: studyId });
}

export default function CrowdStart() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="empty-state">
      <h1>{data.name}</h1>
      {data.state === "refused" ? (
        <p className="form-error" role="alert" data-testid="crowd-refused">
          {data.message}
        </p>
      ) : data.state === "no-work" ? (
        <p data-testid="crowd-no-work">
          {data.message}
          {data.prolific ? " Please return your place in the study on Prolific." : " Thank you for your interest."}
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
