/**
 * MTurk ExternalQuestion page: `/mturk/task?study=…&item=…` plus the parameters MTurk appends.
 * MTurk frames it cross-site, so it works without the login session: the loader signs the
 * assignment into a token and the action checks it. Preview (ASSIGNMENT_ID_NOT_AVAILABLE) shows
 * the task read-only; after accept the worker answers (the page itself stores nothing), the action stores the label
 * once, and the page posts the assignment id and label to `<turkSubmitTo>/mturk/externalSubmit`.
 */
import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { TaskPageShell } from "../components/tasks/TaskPageShell.tsx";
import {
  actionResult,
  formJson,
  formSeconds,
  orResponse,
  type ActionFailure,
} from "../server/http/responses.server.ts";
import { crowdEntryLimiter, EntryLimited } from "../server/crowd/entry-limiter.server.ts";
import { networkIdentity } from "../server/http/load-context.server.ts";
import { mturkExternalChannel as channel } from "../crowd-channels/mturk/external.server.ts";
import type { ExternalSubmitForm } from "../crowd-channels/mturk/external-question.server.ts";
import { getDb } from "../server/db.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && "study" in data ? data.study.name : "Task"} · SoCRATES Studio` },
];

/** Inside MTurk's frame the worker needs the task only, not the site's navigation. */
export const handle = { framed: true };

/** MTurk's and our parameters: with none of them, someone opened the bare URL (not a HIT). */
const TASK_PARAMS = ["study", "item", "assignmentId", "hitId", "workerId", "turkSubmitTo"];

// The page only reads: the worker, the lease and the showing are written when the worker posts (issue 29).
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  if (!TASK_PARAMS.some((p) => params.has(p))) return json({ mode: "about" as const }, { status: 400 });
  const db = await getDb();
  return json(await orResponse(() => channel.page(db, params)));
}

/** A limited entry's Retry-After reaches the page too, not only data requests. */
export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has("Retry-After") ? actionHeaders : loaderHeaders;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const token = String(form.get("token") ?? "");
  // Made once per request: a new worker or assignment counts once, however often the transaction runs.
  const options = {
    entries: { limiter: crowdEntryLimiter(), network: networkIdentity(context), tally: { counted: false } },
  };
  return actionResult(async (db) => {
    const payload = formJson(form, "payload");
    try {
      if (intent === "draft") {
        await channel.saveDraft(db, token, payload, options);
        return json({ ok: true as const, saved: "draft" as const });
      }
      if (intent !== "submit")
        return json<ActionFailure>(
          { ok: false, message: `Unknown action "${String(intent)}"`, problems: [] },
          { status: 400 },
        );
      if (payload === undefined)
        return json<ActionFailure>(
          { ok: false, message: "The label is not valid JSON", problems: [{ path: "payload", message: "not JSON" }] },
          { status: 400 },
        );
      const result = await channel.submit(
        db,
        { token, payload, secondsOnTask: formSeconds(form) },
        new Date(),
        options,
      );
      return json({ ok: true as const, saved: "label" as const, ...result });
    } catch (err) {
      if (err instanceof EntryLimited)
        return json<ActionFailure>(
          { ok: false, message: err.message, problems: [] },
          { status: 429, headers: { "Retry-After": String(err.retryAfterSeconds) } },
        );
      throw err;
    }
  });
}

/** The form MTurk expects; sent at once after a submit (`auto`), else on the worker's click. */
function HandOff({ handoff, auto }: { handoff: ExternalSubmitForm; auto: boolean }) {
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (auto) formRef.current?.submit();
  }, [auto, handoff.labelId]);
  return (
    <section className="notice" data-testid="mturk-handoff">
      {auto ? (
        <p>Your answer is saved. Sending it to Mechanical Turk…</p>
      ) : (
        <p>
          <strong>You have already submitted this assignment.</strong> Your answer is saved. If Mechanical Turk still
          shows the HIT as open, send it again:
        </p>
      )}
      <form ref={formRef} method="post" action={handoff.action} className="notice-action">
        <input type="hidden" name="assignmentId" value={handoff.assignmentId} />
        <input type="hidden" name="labelId" value={handoff.labelId} />
        <input type="hidden" name="label" value={handoff.label} />
        <button type="submit" className="button-primary">
          Send to Mechanical Turk
        </button>
      </form>
    </section>
  );
}

/** What this URL is for, for whoever opens it without a HIT's parameters. */
function AboutTaskPage() {
  return (
    <section className="empty-state" data-testid="mturk-task-about">
      <h1>Mechanical Turk task page</h1>
      <p>
        This page shows one annotation task inside a Mechanical Turk HIT. MTurk opens it with the HIT&apos;s details in
        the address (study, item, assignment and worker), so on its own it has nothing to show.
      </p>
      <p>
        <strong>Workers:</strong> open the task from the HIT on Mechanical Turk.
      </p>
      <p>
        <strong>Researchers:</strong> HITs that show this page are created with{" "}
        <code>npx socrates mturk publish --study &lt;id&gt; --base-url https://…</code>; see <code>docs/crowd.md</code>.
      </p>
    </section>
  );
}

export default function MturkTask() {
  const data = useLoaderData<typeof loader>();
  if (data.mode === "about") return <AboutTaskPage />;
  return <MturkTaskPage data={data} />;
}

function MturkTaskPage({
  data,
}: {
  data: Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { mode: "about" }>;
}) {
  const result = useActionData<typeof action>();
  const location = useLocation();
  const token = data.mode === "preview" ? "" : data.token;
  const fields = useMemo(() => ({ token }), [token]);
  const justStored = result?.ok && "handoff" in result ? result.handoff : null;
  const handoff = justStored ?? (data.mode === "submitted" ? data.handoff : null);
  const readOnly = data.mode !== "work";
  return (
    <TaskPageShell
      testId="mturk-task"
      item={data}
      mode={handoff ? "submitted" : data.mode}
      progress={{ done: handoff ? 1 : 0, total: 1 }}
      // Posts name this page with its MTurk parameters; the token inside says which assignment it is.
      posting={{ action: `/mturk/task${location.search}`, draftsEnabled: !readOnly, fields }}
      failure={result && !result.ok ? (result as ActionFailure) : null}
      listProblems
      header={data.mode === "preview" ? <PreviewNotice /> : null}
      replacement={handoff ? <HandOff handoff={handoff} auto={justStored !== null} /> : undefined}
      contextOpen
      readOnly={readOnly}
      submitText="Submit to Mechanical Turk"
    />
  );
}

function PreviewNotice() {
  return (
    <div className="notice notice-warning" role="note" data-testid="mturk-preview">
      <p>
        <strong>Preview.</strong> Accept the HIT to start: you can read the task now, but not answer it.
      </p>
    </div>
  );
}
