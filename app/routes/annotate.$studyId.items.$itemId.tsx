import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Link,
  redirect as clientRedirect,
  useActionData,
  useLoaderData,
  useLocation,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { useMemo } from "react";
import { TaskPageShell } from "../components/tasks/TaskPageShell.tsx";
import { skipRevalidationAfterDraft } from "../components/tasks/draft-revalidation.ts";
import { GoldFeedbackNote } from "../components/tasks/GoldFeedbackNote.tsx";
import {
  actionResult,
  formJson,
  formSeconds,
  orResponse,
  orResponseWrite,
  type ActionFailure,
} from "../server/http/responses.server.ts";
import { studyLock } from "../server/db-transaction.server.ts";
import { recordItemShown } from "../server/annotation/item-shown.server.ts";
import { nextItemPage, type TaskPageData } from "../server/annotation/next-page.server.ts";
import { saveTaskWork, taskPage } from "../server/annotation/tasks.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { takeNextStep } from "../server/crowd/next-step.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";
import { readForm } from "../server/http/request-body.server.ts";
import { withFeedbackFor } from "../server/annotation/gold-feedback.server.ts";

// A title per item, so a screen reader (and the tab strip) tells one item from the next.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `Item ${data.itemId} (${data.progress.done} of ${data.progress.total} done) · ${data.study.name} · SoCRATES Studio`
      : "Task · SoCRATES Studio",
  },
];

// An autosaved draft reloads nothing: the page shows its state from the fetcher (draft-revalidation.ts).
export const shouldRevalidate = skipRevalidationAfterDraft;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const itemId = parseId(params.itemId, "item");
  const db = await getDb();
  const { firstShowing, ...page } = await orResponse(() => taskPage(db, studyId, itemId, user, new URL(request.url)));
  // From now on the item is the annotator's to answer: a submit that came before this is refused (issue 28).
  // The one write a loader makes (test/unit/architecture.test.ts): it stamps the annotator's own
  // existing assignment once and creates, leases or submits nothing.
  if (firstShowing) await orResponseWrite(async (db) => await recordItemShown(db, itemId, user.id), { db });
  // A plain object: single fetch serialises it once (json() would stringify, then parse it back, per request).
  return page;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const itemId = parseId(params.itemId, "item");
  const form = await readForm(request);
  const post = {
    intent: form.get("intent"),
    note: form.get("note"),
    comment: form.get("comment"),
    payload: formJson(form, "payload"),
    clientToken: String(form.get("clientToken") ?? ""),
    secondsOnTask: formSeconds(form),
  };
  // Opened from My labels: a submit goes back there, not on to the next unlabelled item.
  const fromMine = new URL(request.url).searchParams.get("from") === "mine";
  // A submit or skip changes the study's allocation (and leases the next item): it queues on the study's lock.
  const allocates = post.intent === "submit" || post.intent === "skip";
  return actionResult(
    async (db) => {
      const result = await saveTaskWork(db, studyId, itemId, user, post);
      switch (result.done) {
        case "draft":
        case "flagged":
          return { ok: true as const, saved: result.done };
        case "undo":
          return redirect(`/annotate/${studyId}/items/${result.itemId}`);
        // The next item is leased here, in the POST, and the browser goes straight to it.
        case "skipped":
          return redirect(await takeNextStep(db, studyId, user));
        case "label": {
          if (form.get("then") === "stay") return { ok: true as const, saved: "label" as const };
          if (fromMine) return redirect(`/annotate/${studyId}/mine`);
          // On a study that gives gold feedback, the next page names the gold item just answered.
          const next = result.goldFeedback
            ? withFeedbackFor(await takeNextStep(db, studyId, user), studyId, itemId)
            : await takeNextStep(db, studyId, user);
          // The task page in a browser takes the next item's page with this answer (clientAction below).
          const page =
            form.get("carry") === NEXT_PAGE ? await nextItemPage(db, studyId, user, next, request.url) : null;
          return page ? { ok: true as const, saved: "label" as const, next: { path: next, page } } : redirect(next);
        }
      }
    },
    { lock: allocates ? studyLock(studyId) : undefined },
  );
}

/** The field a browser's task page adds to its posts: a submit may answer with the next item's page. */
const NEXT_PAGE = "next-page";

/**
 * The next item's page as the last submit brought it, kept until the navigation to that item asks for it
 * (clientLoader): then nothing is fetched. Anything else — a reload, a link, a skip — fetches as usual.
 */
let carried: { path: string; page: TaskPageData } | null = null;

export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  const result = await serverAction<typeof action>();
  if (result && "next" in result && result.next) {
    carried = result.next;
    return clientRedirect(result.next.path);
  }
  return result;
}

export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const url = new URL(request.url);
  const page = carried?.path === url.pathname + url.search ? carried.page : null;
  carried = null;
  return page ?? (await serverLoader<typeof loader>());
}

function newClientToken(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID().replace(/-/g, "")
    : `${Date.now()}${Math.random().toString(36).slice(2)}`;
}

export default function TaskPage() {
  const data = useLoaderData<typeof clientLoader>();
  const result = useActionData<typeof clientAction>();
  // One token per page load: a double click or a resent form is stored once.
  const clientToken = useMemo(() => newClientToken(), [data.itemId, data.submitted?.revision]);
  const fields = useMemo(() => ({ clientToken, carry: NEXT_PAGE }), [clientToken]);
  // Every post names its item explicitly, so work on one item can never land on another;
  // `?from=mine` rides along so the action knows where to go after the submit.
  const fromMine = new URLSearchParams(useLocation().search).get("from") === "mine";
  const itemPath = `/annotate/${data.study.id}/items/${data.itemId}${fromMine ? "?from=mine" : ""}`;
  const open = data.study.open && !data.skipped;
  const itemActions = useMemo(
    () => ({
      action: itemPath,
      fields,
      allowed: { skip: open && !data.submitted, flag: data.study.open, undo: data.study.open && data.canUndo },
    }),
    [itemPath, fields, open, data.submitted, data.study.open, data.canUndo],
  );
  return (
    <TaskPageShell
      testId="task-page"
      item={data}
      progress={data.progress}
      posting={{ action: itemPath, draftsEnabled: open, fields }}
      loadsNextItem
      itemActions={itemActions}
      sessionKey={String(data.study.id)}
      commentField
      readOnly={data.skipped}
      failure={result && !result.ok ? (result as ActionFailure) : null}
      header={
        <>
          <nav className="muted task-crumbs" aria-label="Task">
            <Link to="/annotate">My tasks</Link> · {data.study.name} ·{" "}
            <Link to={`/annotate/${data.study.id}/mine`}>My labels</Link> ·{" "}
            <Link to="/annotate/settings">Settings{data.autoAdvance ? " (auto-advance on)" : ""}</Link>
            {data.submitted ? (
              <span className="badge"> Submitted (revision {data.submitted.revision}) — you can revise it</span>
            ) : null}
            {!data.study.open ? (
              <span className="badge"> This study is closed: your answers can be read but not changed</span>
            ) : null}
            {data.skipped ? (
              <span className="badge"> You skipped this item: it has gone to other annotators</span>
            ) : null}
          </nav>
          <GoldFeedbackNote feedback={data.goldFeedback} itemId={data.itemId} />
        </>
      }
    />
  );
}
