import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { TaskPageShell } from "../components/tasks/TaskPageShell.tsx";
import { actionResult, formJson, formSeconds, orResponse, type ActionFailure } from "../server/http/responses.server.ts";
import { saveTaskWork, taskPage } from "../server/annotation/tasks.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.study.name ?? "Task"} · SoCRATES Studio` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const itemId = parseId(params.itemId, "item");
  return json(orResponse(() => taskPage(getDb(), studyId, itemId, user)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const studyId = parseId(params.studyId, "study");
  const itemId = parseId(params.itemId, "item");
  const form = await readForm(request);
  const post = { intent: form.get("intent"), payload: formJson(form, "payload"), clientToken: String(form.get("clientToken") ?? ""), secondsOnTask: formSeconds(form) };
  return actionResult(() => {
    const saved = saveTaskWork(getDb(), studyId, itemId, user, post);
    if (saved === "draft") return json({ ok: true as const, saved: "draft" as const });
    return form.get("then") === "stay" ? json({ ok: true as const, saved: "label" as const }) : redirect(`/annotate/${studyId}/next`);
  });
}

function newClientToken(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID().replace(/-/g, "") : `${Date.now()}${Math.random().toString(36).slice(2)}`;
}

export default function TaskPage() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // One token per page load: a double click or a resent form is stored once.
  const clientToken = useMemo(() => newClientToken(), [data.itemId, data.submitted?.revision]);
  const fields = useMemo(() => ({ clientToken }), [clientToken]);
  // Every post names its item explicitly, so work on one item can never land on another.
  const itemPath = `/annotate/${data.study.id}/items/${data.itemId}`;
  return (
    <TaskPageShell
      testId="task-page"
      item={data}
      progress={data.progress}
      posting={{ action: itemPath, draftsEnabled: data.study.open, fields }}
      failure={result && !result.ok ? (result as ActionFailure) : null}
      header={
        <nav className="muted task-crumbs" aria-label="Task">
          <Link to="/annotate">My tasks</Link> · {data.study.name} · <Link to={`/annotate/${data.study.id}/mine`}>My labels</Link>
          {data.submitted ? <span className="badge"> Submitted (revision {data.submitted.revision}) — you can revise it</span> : null}
          {!data.study.open ? <span className="badge"> This study is closed: your answers can be read but not changed</span> : null}
        </nav>
      }
    />
  );
}
