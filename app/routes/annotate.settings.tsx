import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { HotkeyForm } from "../components/settings/HotkeyForm.tsx";
import {
  hotkeyTables,
  keyFields,
  resetHotkeys,
  saveHotkeys,
  saveTaskSettings,
  taskSettings,
} from "../server/annotation/annotator-settings.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { actionResult, type ActionFailure } from "../server/http/responses.server.ts";
import { readForm } from "../server/http/request-body.server.ts";
import { taskTypeName } from "../task-types/registry.ts";

export const meta: MetaFunction = () => [{ title: "Task settings · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const settings = await taskSettings(await getDb(), user);
  return json({ autoAdvance: settings.autoAdvance, tables: hotkeyTables(settings) });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, ["expert", "crowd"]);
  const form = await readForm(request);
  const intent = form.get("intent");
  return actionResult(async (db) => {
    if (intent === "hotkeys") {
      const fields = { taskType: form.get("taskType"), fields: keyFields(form) };
      return { ok: true as const, saved: "hotkeys" as const, ...(await saveHotkeys(db, user, fields)) };
    }
    if (intent === "resetHotkeys")
      return { ok: true as const, saved: "reset" as const, ...(await resetHotkeys(db, user, form.get("taskType"))) };
    return {
      ok: true as const,
      saved: "general" as const,
      ...(await saveTaskSettings(db, user, { autoAdvance: form.get("autoAdvance") })),
    };
  });
}

export default function TaskSettingsPage() {
  const stored = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "general";
  const failure = reply && !reply.ok ? (reply as unknown as ActionFailure) : null;
  return (
    <>
      <nav className="muted task-crumbs" aria-label="Settings">
        <Link to="/annotate">My tasks</Link>
      </nav>
      <h1>Task settings</h1>
      <Form method="post" className="settings-form">
        <input type="hidden" name="intent" value="general" />
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
        {reply?.ok ? savedText(reply, stored.autoAdvance) : null}
      </p>
      {failure ? (
        <p className="form-error" role="alert" data-testid="settings-error">
          {failure.message}
        </p>
      ) : null}
      <h2>Keyboard shortcuts</h2>
      <p className="hotkey-help">
        Your own keys for the task pages, per task type. Write a command&rsquo;s keys separated by spaces: a letter or
        character (<kbd>j</kbd>, <kbd>?</kbd>), a key name (<kbd>Enter</kbd>, <kbd>Space</kbd>, <kbd>ArrowDown</kbd>),
        or a combination (<kbd>Ctrl+Enter</kbd>, <kbd>Shift+x</kbd>, <kbd>Alt+j</kbd>); Ctrl means Ctrl or ⌘. A key does
        one thing only, and keys the browser keeps (Tab, Ctrl+W, F5…) cannot be used.
      </p>
      {stored.tables.map((table) => (
        <HotkeyForm key={table.id} table={table} problems={failure?.problems ?? []} />
      ))}
    </>
  );
}

function savedText(reply: { saved: "general" | "hotkeys" | "reset"; taskType?: string }, autoAdvance: boolean) {
  if (reply.saved === "hotkeys") return `Saved: your keys for ${taskTypeName(reply.taskType ?? "")}.`;
  if (reply.saved === "reset") return `Saved: ${taskTypeName(reply.taskType ?? "")} is back to the default keys.`;
  return `Saved: auto-advance is ${autoAdvance ? "on" : "off"}.`;
}
