import { Form } from "@remix-run/react";
import { useRef } from "react";
import { CopyButton } from "../../components/admin/CopyButton.tsx";
import { WORKER_ID_FORMAT, WORKER_ID_PATTERN } from "../../domain/crowd/worker-id.ts";
import type { ChannelPanelProps } from "../panel.ts";
import type { LinkPanelResult } from "./panel.ts";

/** Crowd studies: how to reach MTurk workers, and a form that makes one worker's signed link. */
export function CrowdLinkSection({ studyId, result }: ChannelPanelProps<unknown, LinkPanelResult>) {
  const link = result?.link ?? null;
  const error = result?.error ?? null;
  const linkRef = useRef<HTMLElement>(null);
  return (
    <section className="dash-section">
      <h2>Crowd links</h2>
      <p className="muted">
        A signed link lets one worker into this study. For Mechanical Turk, export a batch for the requester site with{" "}
        <code>npx socrates mturk export --study {studyId}</code>, or publish HITs that frame this app with{" "}
        <code>npx socrates mturk publish --study {studyId} --base-url https://…</code>; <code>docs/crowd.md</code> walks
        through both.
      </p>
      <Form method="post" className="inline-form link-form">
        <input type="hidden" name="intent" value="link" />
        <label>
          Worker id{" "}
          <input
            name="workerId"
            required
            pattern={WORKER_ID_PATTERN}
            title={`A worker id is ${WORKER_ID_FORMAT}`}
            // The browser's own bubble says only "match the requested format"; say which.
            onInvalid={(e) =>
              e.currentTarget.setCustomValidity(
                e.currentTarget.validity.valueMissing
                  ? "Enter the worker's id."
                  : `A worker id is ${WORKER_ID_FORMAT}.`,
              )
            }
            onInput={(e) => e.currentTarget.setCustomValidity("")}
          />
        </label>{" "}
        <button type="submit">Make link</button>
      </Form>
      {link ? (
        <p className="link-output">
          <code data-testid="crowd-link" ref={linkRef} className="selectable">
            {link}
          </code>{" "}
          <CopyButton target={linkRef} label="Copy link" />
        </p>
      ) : null}
      {error ? <p className="form-error">{error}</p> : null}
    </section>
  );
}
