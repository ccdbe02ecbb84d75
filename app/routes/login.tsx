import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { authenticate } from "../server/annotation/accounts.server.ts";
import { currentUser, homeFor, safeNext, startSession } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";

export const meta: MetaFunction = () => [{ title: "Log in · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await currentUser(request);
  if (user) throw redirect(safeNext(new URL(request.url).searchParams.get("next"), homeFor(user.role)));
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const username = String(form.get("username") ?? "");
  const password = String(form.get("password") ?? "");
  const db = getDb();
  const account = username && password ? await authenticate(db, username, password) : null;
  if (!account) return json({ error: "That username and password do not match an active account." }, { status: 401 });
  return startSession(request, account.id, safeNext(String(form.get("next") ?? ""), homeFor(account.role)));
}

export default function Login() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="login">
      <h1>Log in</h1>
      <p className="muted">Researchers and expert annotators log in here. Crowd workers arrive through their study link.</p>
      <Form method="post" className="stack-form">
        <input type="hidden" name="next" value={params.get("next") ?? ""} />
        <label>
          Username
          <input name="username" autoComplete="username" required autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {result?.error ? (
          <p className="form-error" role="alert">
            {result.error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
      </Form>
    </section>
  );
}
