import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData, useActionData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { orResponse, orResponseWrite } from "../server/http/responses.server.ts";
import { studyLock } from "../server/db-transaction.server.ts";
import { getStudy } from "../server/annotation/studies.server.ts";
import { currentUser, startSession, type SessionUser } from "../server/auth/session.server.ts";
import { channelForEntry } from "../crowd-channels/registry.server.ts";
import { NO_WORK_MESSAGE, noWorkForEntrant } from "../server/crowd/entry-gate.server.ts";
import {
  crowdEntryLimiter,
  EntryLimited,
  limitedEntry,
  type EntryTally,
} from "../server/crowd/entry-limiter.server.ts";
import { getDb, type Db } from "../server/db.server.ts";
import { networkIdentity } from "../server/http/load-context.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Welcome · SoCRATES Studio" }];

const STATUS_TEXT: Record<number, string> = { 400: "Bad Request", 403: "Forbidden" };

type Channel = NonNullable<ReturnType<typeof channelForEntry>>;

/** The study and the channel a /crowd/start URL names, or the page that ends the visit at once (read-only). */
async function entryOf(request: Request) {
  const params = new URL(request.url).searchParams;
  const studyId = parseId(params.get("study") ?? undefined, "study");
  const db = await getDb();
  const study = await orResponse(() => getStudy(db, studyId));
  if (study.pool !== "crowd")
    throw new Response("This study is not open to crowd workers.", { status: 403, statusText: "Forbidden" });
  const channel = channelForEntry(params);
  // What the entrant's channel asks of them when there is nothing to do here (Prolific: return their place).
  const returnNote = channel?.entry.returnNote ?? null;
  if (study.status !== "open") return { ended: json({ state: "closed" as const, name: study.name, returnNote }) };
  if (!channel)
    throw new Response("This page needs a study link with a worker id.", { status: 400, statusText: "Bad Request" });
  // Before any reading test or stored row: a full study says so at once.
  if (await noWorkForEntrant(db, studyId, channel, params)) {
    return { ended: json({ state: "no-work" as const, name: study.name, message: NO_WORK_MESSAGE, returnNote }) };
  }
  return { db, params, study, channel, returnNote };
}

/** Whether the signed-in user is the very worker this link names (a reload of their own link). */
function isSameWorker(user: SessionUser, channel: Channel, params: URLSearchParams): boolean {
  const param = channel.entry.workerParam;
  return (
    user.role === "crowd" &&
    param !== null &&
    user.channel === channel.identity.workerChannel &&
    user.externalId === params.get(param)?.trim()
  );
}

/**
 * Crowd entry for the channels that come in here (see app/crowd-channels): a signed
 * per-worker link or Prolific's parameters. MTurk's bare query parameters (a HIT linking out here)
 * are recognised only to be refused: they are unsigned, so they never start a session.
 *
 * The GET writes nothing (issue 29): it refuses a bad link at once, else shows a start button
 * that the page presses by itself — unless someone else is signed in in this browser, who is asked
 * first, so a link from another site cannot replace their session. Entering is the POST below.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const entry = await entryOf(request);
  if ("ended" in entry) return entry.ended;
  const { db, params, study, channel, returnNote } = entry;
  const refusal = await orResponse(() => channel.entry.check(db, study, params));
  if (refusal?.kind === "refused")
    return json({ state: "refused" as const, name: study.name, message: refusal.message }, { status: refusal.status });
  if (refusal) throw new Response(refusal.message, { status: refusal.status, statusText: STATUS_TEXT[refusal.status] });
  const user = await currentUser(request);
  const other = user && !isSameWorker(user, channel, params) ? user.displayName : null;
  return json({ state: "start" as const, name: study.name, returnNote, signedInAs: other });
}

/** A limited entry's Retry-After reaches the page too, not only data requests. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const entry = await entryOf(request);
  if ("ended" in entry) return entry.ended;
  const { db, params, study, channel } = entry;
  // Unsigned ids: new workers and sessions are counted per network and study, checked and counted in the write itself
  // (once per request, however often the transaction runs).
  const tally: EntryTally = { counted: false };
  const enter = async (tx: Db) => {
    if (!channel.entry.unsigned) return await channel.entry.enter(tx, study, params);
    const counted = async () => {
      const value = await channel.entry.enter(tx, study, params);
      return { value, created: value.created === true };
    };
    return await limitedEntry(crowdEntryLimiter(), study.id, networkIdentity(context), counted, tally);
  };
  let outcome: Awaited<ReturnType<typeof enter>>;
  try {
    outcome = await orResponseWrite(enter, { db, lock: studyLock(study.id) });
  } catch (err) {
    if (!(err instanceof EntryLimited)) throw err;
    return json(
      { state: "refused" as const, name: study.name, message: err.message },
      { status: 429, headers: { "Retry-After": String(err.retryAfterSeconds) } },
    );
  }
  if (outcome.kind === "refused")
    return json({ state: "refused" as const, name: study.name, message: outcome.message }, { status: outcome.status });
  if (outcome.kind === "invalid")
    throw new Response(outcome.message, { status: outcome.status, statusText: STATUS_TEXT[outcome.status] });
  throw await startSession(request, outcome.annotatorId, outcome.next, { crowdStudy: study.id });
}

export default function CrowdStart() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const data = posted ?? loaded;
  return (
    <section className="empty-state">
      <h1>{data.name}</h1>
      {data.state === "start" ? (
        <StartForm signedInAs={data.signedInAs} />
      ) : data.state === "refused" ? (
        <p className="form-error" role="alert" data-testid="crowd-refused">
          {data.message}
        </p>
      ) : data.state === "no-work" ? (
        <p data-testid="crowd-no-work">
          {data.message}
          {data.returnNote ? ` ${data.returnNote}` : " Thank you for your interest."}
        </p>
      ) : (
        <p>
          This study is closed and takes no more answers. Thank you for your interest.
          {data.state === "closed" && data.returnNote ? ` ${data.returnNote}` : ""}
        </p>
      )}
    </section>
  );
}

/** Posts the entry: at once for a newcomer, after a click when someone else is signed in here. */
function StartForm({ signedInAs }: { signedInAs: string | null }) {
  const form = useRef<HTMLFormElement>(null);
  const { search } = useLocation();
  const navigation = useNavigation();
  useEffect(() => {
    if (signedInAs === null) form.current?.requestSubmit();
  }, [signedInAs]);
  return (
    <Form method="post" action={`/crowd/start${search}`} ref={form} data-testid="crowd-start">
      {signedInAs === null ? (
        <p>Starting the study…</p>
      ) : (
        <p role="alert" data-testid="crowd-start-confirm">
          You are signed in here as <strong>{signedInAs}</strong>. Starting this study signs you out of that account in
          this browser.
        </p>
      )}
      <button type="submit" className="button-primary" autoFocus disabled={navigation.state !== "idle"}>
        {signedInAs === null ? "Start" : "Sign out and start the study"}
      </button>
    </Form>
  );
}
