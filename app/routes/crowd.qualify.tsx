import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  attemptCount,
  MAX_QUALIFICATION_ATTEMPTS,
  NETWORK_LIMIT_MESSAGE,
  networkLimitReached,
  takeQualificationTest,
  type AttemptOrigin,
} from "../server/crowd/qualification.server.ts";
import { requireUser, type SessionUser } from "../server/auth/session.server.ts";
import { networkIdentity, type RequestContext } from "../server/http/load-context.server.ts";
import { channelOfWorker } from "../crowd-channels/registry.server.ts";
import { getDb } from "../server/db.server.ts";
import { orResponseWrite } from "../server/http/responses.server.ts";
import { ServiceError } from "../server/http/errors.server.ts";
import { takeNextStep } from "../server/crowd/next-step.server.ts";
import { loadQualificationTest } from "../server/templates.server.ts";
import { withoutAnswers } from "../domain/qualification.ts";
import { readForm } from "../server/http/request-body.server.ts";

export const meta: MetaFunction = () => [{ title: "Reading test · SoCRATES Studio" }];

function studyParam(request: Request): string | null {
  const study = new URL(request.url).searchParams.get("study");
  return study && /^\d+$/.test(study) ? study : null;
}

function nextPath(request: Request): string {
  const study = studyParam(request);
  return study ? `/annotate/${study}/next` : "/annotate";
}

/**
 * A worker out of attempts goes where their channel sends them (Prolific: the page that asks them to return the study).
 */
function lockedRedirect(request: Request, user: { channel: string | null }): void {
  const study = studyParam(request);
  const path = study ? channelOfWorker(user.channel)?.completion.lockedOutPath(Number(study)) : null;
  if (path) throw redirect(path);
}

/**
 * The study the attempt counts against, with the client's network: one the worker entered by its
 * link in this session (the one in the URL, else the latest), so a made-up ?study= buys no fresh
 * network quota.
 */
function attemptOrigin(request: Request, user: SessionUser, context: RequestContext): AttemptOrigin {
  const asked = Number(studyParam(request));
  const study = user.crowdStudies.includes(asked) ? asked : user.crowdStudies.at(-1);
  if (study === undefined) {
    throw new Response("Please open the study from the link you were given; the reading test is taken from there.", {
      status: 403,
      statusText: "Forbidden",
    });
  }
  return { studyId: study, network: networkIdentity(context) };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["crowd"]);
  if (user.qualifiedAt) throw redirect(nextPath(request));
  const db = await getDb();
  const test = loadQualificationTest();
  const attempts = await attemptCount(db, user.id);
  if (attempts >= MAX_QUALIFICATION_ATTEMPTS) lockedRedirect(request, user);
  const limited = await networkLimitReached(db, attemptOrigin(request, user, context));
  // The answer key never leaves the server: only the questions without it are sent.
  return json(
    {
      title: test.title,
      instructions: test.instructions,
      questions: withoutAnswers(test).questions,
      passMark: test.pass_mark,
      attemptsLeft: Math.max(0, MAX_QUALIFICATION_ATTEMPTS - attempts),
      maxAttempts: MAX_QUALIFICATION_ATTEMPTS,
      networkLimited: limited ? NETWORK_LIMIT_MESSAGE : null,
    },
    { status: limited ? 429 : 200 },
  );
}

/** The first item after a pass; null (the next page decides) when the study refuses, so the pass itself is kept. */
async function firstItemPath(
  request: Request,
  db: Awaited<ReturnType<typeof getDb>>,
  user: SessionUser,
): Promise<string | null> {
  const study = Number(studyParam(request));
  if (!user.crowdStudies.includes(study)) return null;
  try {
    return await takeNextStep(db, study, user);
  } catch (err) {
    if (err instanceof ServiceError) return null;
    throw err;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, ["crowd"]);
  const origin = attemptOrigin(request, user, context);
  const form = await readForm(request);
  const db = await getDb();
  const { reply, status, next } = await orResponseWrite(
    async (db) => {
      const outcome = await takeQualificationTest(db, user.id, form, origin);
      // A pass goes straight to the first item, leased here in the POST (the next page's GET writes nothing).
      const next = outcome.reply.passed
        ? await firstItemPath(request, db, { ...user, qualifiedAt: new Date().toISOString() })
        : null;
      return { ...outcome, next };
    },
    { db },
  );
  if (reply.passed) throw redirect(next ?? nextPath(request));
  if (reply.locked) lockedRedirect(request, user);
  return json(reply, { status });
}

export default function Qualify() {
  const { title, instructions, questions, passMark, attemptsLeft, maxAttempts, networkLimited } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const locked = result?.locked || attemptsLeft === 0;
  const limitMessage = result?.networkLimited ? result.error : networkLimited;
  return (
    <section className="qualify">
      <h1>{title}</h1>
      <p>{instructions}</p>
      <p className="muted">
        {questions.length} questions; you need {Math.ceil(passMark * questions.length - 1e-9)} correct answers to
        continue.
      </p>
      {locked ? (
        <p className="form-error" role="alert">
          You have used all {maxAttempts} attempts. Thank you for your time.
        </p>
      ) : limitMessage ? (
        <>
          {result && !result.networkLimited && !result.error ? (
            <p className="form-error" data-testid="qualify-result">
              You answered {result.correct} of {result.total} correctly, which is not enough yet.
            </p>
          ) : null}
          <p className="form-error" role="alert" data-testid="qualify-network-limit">
            {limitMessage}
          </p>
        </>
      ) : (
        <Form method="post" className="stack-form qualify-form" key={result ? `retry-${result.correct}` : "first"}>
          {questions.map((q, i) => (
            <fieldset key={q.id} className="qualify-question">
              <legend>Question {i + 1}</legend>
              <blockquote>{q.passage}</blockquote>
              <p>{q.question}</p>
              {q.options.map((o) => (
                <label key={o.id} className="qualify-option">
                  <input type="radio" name={q.id} value={o.id} required /> {o.text}
                </label>
              ))}
            </fieldset>
          ))}
          {/* Beside the button: after a submit the page is still scrolled down here. */}
          {result?.error ? (
            <p className="form-error" role="alert">
              {result.error}
            </p>
          ) : null}
          {result && !result.passed && !result.locked && !result.error ? (
            <p className="form-error" role="alert" data-testid="qualify-result">
              You answered {result.correct} of {result.total} correctly, which is not enough yet. Please read the
              passages again and retry
              {attemptsLeft > 0 ? ` (${attemptsLeft} ${attemptsLeft === 1 ? "attempt" : "attempts"} left)` : ""}.
            </p>
          ) : null}
          <button type="submit" disabled={busy}>
            Submit answers
          </button>
        </Form>
      )}
    </section>
  );
}
