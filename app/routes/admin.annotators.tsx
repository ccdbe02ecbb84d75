import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { accountAction, listAnnotators } from "../server/annotation/accounts.server.ts";
import { actionResult } from "../server/http/responses.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Annotators · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireUser(request, ["admin"]);
  return json({ annotators: await listAnnotators(await getDb()), selfId: admin.id });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireUser(request, ["admin"]);
  const form = await readForm(request);
  // Each account change writes in its own transaction, after hashing any password outside it.
  return actionResult(async (db) => json({ ok: true as const, message: await accountAction(db, admin.id, form) }), {
    transaction: false,
  });
}

/**
 * Activate at once; deactivate only after a confirm step, which works without script (a disclosure holding the real
 * button).
 */
function ActiveSwitch({ id, username, active }: { id: number; username: string; active: boolean }) {
  const form = (intent: string, label: string, className: string) => (
    <Form method="post" className="inline-form">
      <input type="hidden" name="id" value={id} />
      <button type="submit" name="intent" value={intent} className={className}>
        {label}
      </button>
    </Form>
  );
  if (!active) return form("activate", "Activate", "link-button");
  return (
    <details className="confirm-step">
      <summary className="link-button">Deactivate…</summary>
      <span>{username} is signed out and cannot sign in until reactivated.</span>{" "}
      {form("deactivate", `Yes, deactivate ${username}`, "button-danger")}
    </details>
  );
}

export default function Annotators() {
  const { annotators, selfId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as
    | { ok: boolean; message: string; problems?: { path: string; message: string }[] }
    | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <>
      <h1>Annotators</h1>
      {result ? (
        <p className={result.ok ? "notice" : "form-error"} role="status">
          {result.message}
          {result.problems?.length ? `: ${result.problems.map((p) => `${p.path} ${p.message}`).join("; ")}` : ""}
        </p>
      ) : null}
      <table className="data-table">
        <thead>
          <tr>
            <th>Username</th>
            <th>Name</th>
            <th>Role</th>
            <th>Channel</th>
            <th>Qualified</th>
            <th>Status</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {annotators.map((a) => (
            <tr key={a.id} className={a.active ? undefined : "inactive-row"}>
              <td>{a.username}</td>
              <td>{a.displayName}</td>
              <td>{a.role}</td>
              <td>{a.channel ?? "—"}</td>
              <td>{a.role === "crowd" ? (a.qualifiedAt ? "yes" : "no") : "—"}</td>
              <td>
                <span className={`status-chip status-${a.active ? "active" : "inactive"}`}>
                  {a.active ? "active" : "inactive"}
                </span>
              </td>
              <td>
                {a.id === selfId ? (
                  <span className="muted">you</span>
                ) : (
                  <ActiveSwitch id={a.id} username={a.username} active={a.active} />
                )}
                {a.role !== "crowd" ? (
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="id" value={a.id} />
                    <input type="hidden" name="intent" value="password" />
                    <input
                      name="password"
                      type="password"
                      minLength={10}
                      required
                      placeholder="new password"
                      aria-label={`New password for ${a.username}`}
                      autoComplete="new-password"
                    />
                    <button type="submit" className="button-secondary">
                      Set
                    </button>
                  </Form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>New account</h2>
      <Form method="post" className="stack-form">
        <input type="hidden" name="intent" value="create" />
        <label>
          Username <input name="username" required pattern="[a-z0-9][a-z0-9._\-]{1,31}" />
        </label>
        <label>
          Display name <input name="displayName" required />
        </label>
        <label>
          Role
          <select name="role" defaultValue="expert">
            <option value="expert">Expert annotator</option>
            <option value="admin">Admin (researcher)</option>
          </select>
        </label>
        <label>
          Password (at least 10 characters){" "}
          <input name="password" type="password" minLength={10} required autoComplete="new-password" />
        </label>
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </Form>
    </>
  );
}
