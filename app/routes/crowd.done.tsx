import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { studyForWorker } from "../server/annotation/access.server.ts";
import { orResponse } from "../server/http/responses.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { channelOfWorker } from "../crowd-channels/registry.server.ts";
import { MAX_QUALIFICATION_ATTEMPTS } from "../server/crowd/qualification.server.ts";
import { getDb } from "../server/db.server.ts";
import { parseId } from "../server/http/route-params.server.ts";

export const meta: MetaFunction = () => [{ title: "Thank you · SoCRATES Studio" }];

/** Seconds before the completion page sends the participant back to Prolific. */
const REDIRECT_SECONDS = 5;

/**
 * The end of a session on a channel with a completion code (Prolific): the code and the way back, or — after
 * failing the reading test — a request to return the study. Anyone whose session goes on is sent to the next page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, ["crowd"]);
  const studyId = parseId(new URL(request.url).searchParams.get("study") ?? undefined, "study");
  // Channels without a completion code end on the usual page.
  const endView = channelOfWorker(user.channel)?.completion.endView;
  if (!endView) throw redirect(`/annotate/${studyId}/next`);
  const db = getDb();
  const study = orResponse(() => studyForWorker(db, studyId, user));
  // Read-only (issue 29): a session still going is completed, or given its next item, by the next page's POST.
  const step = orResponse(() => endView(db, studyId, user.id));
  if (step === null) throw redirect(`/annotate/${studyId}/next`);
  if (step.kind === "not-qualified") return json({ state: "not-qualified" as const, name: study.name, attempts: MAX_QUALIFICATION_ATTEMPTS });
  const { code, url, labels } = step;
  return json({ state: "complete" as const, name: study.name, code, url, labels });
}

function Countdown({ url }: { url: string }) {
  const [left, setLeft] = useState(REDIRECT_SECONDS);
  useEffect(() => {
    if (left <= 0) {
      window.location.assign(url);
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, url]);
  return (
    <p className="muted" role="status" data-testid="prolific-countdown">
      {left > 0 ? `Taking you back to Prolific in ${left} ${left === 1 ? "second" : "seconds"}…` : "Taking you back to Prolific…"}
    </p>
  );
}

export default function CrowdDone() {
  const data = useLoaderData<typeof loader>();
  if (data.state === "not-qualified") {
    return (
      <section className="empty-state" data-testid="prolific-not-qualified">
        <h1>Thank you for your time</h1>
        <p>
          You have used all {data.attempts} attempts at the reading test, so this study cannot go on for you, and there is no completion code to enter.
        </p>
        <p>
          Please go back to Prolific and <strong>return your place in the study</strong> (Prolific offers this as returning the submission). That frees the
          place for someone else and is not counted against you.
        </p>
      </section>
    );
  }
  return (
    <section className="empty-state" data-testid="prolific-complete">
      <h1>Thank you — you have finished “{data.name}”</h1>
      <p>
        {data.labels === 0
          ? "Every item in this study already has all the answers it needs, so there is nothing left for you to do. "
          : `You labelled ${data.labels} ${data.labels === 1 ? "item" : "items"}. `}
        Your completion code is{" "}
        <strong>
          <code data-testid="completion-code">{data.code}</code>
        </strong>
        .
      </p>
      <p>
        <a className="button" href={data.url} data-testid="prolific-return">
          Go back to Prolific now
        </a>
      </p>
      <Countdown url={data.url} />
      <p className="muted">If nothing happens, use the link above, or enter the code on Prolific yourself.</p>
    </section>
  );
}
