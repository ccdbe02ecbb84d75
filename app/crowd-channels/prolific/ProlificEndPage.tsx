/**
 * Prolific's end page (/crowd/done): the completion code and a countdown back to Prolific, or —
 * after failing the reading test — a request to return the study.
 */
import { useEffect, useState } from "react";
import type { EndPageData } from "../panel.ts";

/** Seconds before the completion page sends the participant back to Prolific. */
const REDIRECT_SECONDS = 5;

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
      {left > 0
        ? `Taking you back to Prolific in ${left} ${left === 1 ? "second" : "seconds"}…`
        : "Taking you back to Prolific…"}
    </p>
  );
}

/** The end of a Prolific session: the completion code and the way back, or a request to return the study. */
export function ProlificEndPage({ data }: { data: EndPageData }) {
  if (data.state === "not-qualified") {
    return (
      <section className="empty-state" data-testid="prolific-not-qualified">
        <h1>Thank you for your time</h1>
        <p>
          You have used all {data.attempts} attempts at the reading test, so this study cannot go on for you, and there
          is no completion code to enter.
        </p>
        <p>
          Please go back to Prolific and <strong>return your place in the study</strong> (Prolific offers this as
          returning the submission). That frees the place for someone else and is not counted against you.
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
