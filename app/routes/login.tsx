import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { logIn } from "../server/auth/login.server.ts";
import { currentUser, homeFor, safeNext, startSession } from "../server/auth/session.server.ts";
import { getDb } from "../server/db.server.ts";
import { networkIdentity } from "../server/http/load-context.server.ts";
import { orUnavailable } from "../server/http/responses.server.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Log in · SoCRATES Studio" }];

/** A refused login's Retry-After reaches the page response too (Remix takes document headers from here). */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await currentUser(request);
  const url = new URL(request.url);
  if (user) throw redirect(safeNext(url.searchParams.get("next"), homeFor(user.role), url.origin));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const field = (name: string) => String(form.get(name) ?? "");
  const outcome = await logIn(await getDb(), {
    username: field("username"),
    password: field("password"),
    network: networkIdentity(context),
  });
  if (outcome.kind === "limited") {
    const minutes = Math.ceil(outcome.retryAfterSeconds / 60);
    const error = `Too many failed logins for this account or from this network. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
    return json({ error }, { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } });
  }
  if (outcome.kind === "refused")
    return json({ error: "That username and password do not match an active account." }, { status: 401 });
  // Storing the session row is the login's one write: a busy database or full disk says so on the form (503).
  return orUnavailable(() =>
    startSession(request, outcome.id, safeNext(field("next"), homeFor(outcome.role), new URL(request.url).origin)),
  );
}

export default function Login() {
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="login">
      <h1>Log in</h1>
      <p className="muted">
        Researchers and expert annotators log in here. Crowd workers arrive through their study link.
      </p>
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
