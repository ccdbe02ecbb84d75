import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { saveTaskSettings, taskSettings } from "../server/annotation/annotator-settings.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { actionResult, type ActionFailure } from "../server/http/responses.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Task settings · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  return json(taskSettings(getDb(), user));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const form = await readForm(request);
  const db = getDb();
  return actionResult(() => ({
    ok: true as const,
    ...saveTaskSettings(db, user, { autoAdvance: form.get("autoAdvance") }),
  }));
}

export default function TaskSettingsPage() {
  const stored = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const saving = useNavigation().state === "submitting";
  const failure = reply && !reply.ok ? (reply as unknown as ActionFailure) : null;
  return (
    <>
      <nav className="muted task-crumbs" aria-label="Settings">
        <Link to="/annotate">My tasks</Link>
      </nav>
      <h1>Task settings</h1>
      <Form method="post" className="settings-form">
        <label className="settings-check">
          <input type="checkbox" name="autoAdvance" defaultChecked={stored.autoAdvance} />
          Submit as soon as I choose (auto-advance): on tasks with one answer (A/B), choosing it submits and opens the
          next item. Tasks with several answers still wait for Submit.
        </label>
        <button type="submit" className="button-primary" disabled={saving}>
          {saving ? "Saving…" : "Save settings"}
        </button>
      </Form>
      <p role="status" data-testid="settings-status">
        {reply?.ok ? `Saved: auto-advance is ${stored.autoAdvance ? "on" : "off"}.` : null}
      </p>
      {failure ? (
        <p className="form-error" role="alert">
          {failure.message}
        </p>
      ) : null}
    </>
  );
}
