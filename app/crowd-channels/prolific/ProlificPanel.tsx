/**
 * A crowd study's Prolific settings form, the study URL to paste into Prolific, and how many
 * sessions an imported Prolific export has confirmed (only their labels count).
 */
import { Form } from "@remix-run/react";
import type { ChannelPanelProps } from "../panel.ts";
import type { ProlificPanelData, ProlificPanelResult } from "./panel.ts";

function SessionCounts({ studyId, sessions }: { studyId: number; sessions: { confirmed: number; pending: number } }) {
  const sessionWord = (n: number) => (n === 1 ? "session" : "sessions");
  return (
    <p data-testid="prolific-sessions" data-confirmed={sessions.confirmed} data-pending={sessions.pending}>
      <strong>{sessions.confirmed}</strong> {sessionWord(sessions.confirmed)} confirmed by Prolific,{" "}
      <strong>{sessions.pending}</strong> pending. A pending session's labels are stored but left out of every statistic
      until Prolific's submissions export lists it:{" "}
      <code>npx socrates prolific import --study {studyId} prolific_export.csv</code>
    </p>
  );
}

export function ProlificPanel({ studyId, data, result }: ChannelPanelProps<ProlificPanelData, ProlificPanelResult>) {
  const { settings, studyUrl, sessions } = data;
  const failed = result && !result.ok ? result : null;
  const problem = (path: string) => failed?.problems.find((p) => p.path === path)?.message;
  return (
    <section className="dash-section">
      <h2>Prolific</h2>
      <div data-testid="prolific-panel">
        {settings ? (
          <>
            <p>
              Paste this URL into your Prolific study (“study URL”, with “I'll use URL parameters”). Prolific fills in
              each participant's ids.
            </p>
            <p className="link-output">
              <code data-testid="prolific-url">{studyUrl}</code>
            </p>
            <p className="muted">
              A participant takes the reading test, labels {settings.itemsPerSession}{" "}
              {settings.itemsPerSession === 1 ? "item" : "items"} (fewer if the study runs out of work for them), then
              sees the completion code <code>{settings.completionCode}</code> and returns to Prolific.
            </p>
            {sessions ? <SessionCounts studyId={studyId} sessions={sessions} /> : null}
          </>
        ) : (
          <p className="notice notice-warning" data-testid="prolific-not-set-up">
            Prolific is not set up for this study: participants who arrive from Prolific are turned away with a request
            to return the study, until you save a completion code and the number of items per session below.
          </p>
        )}
        <Form
          method="post"
          className="stack-form"
          key={settings ? `${settings.completionCode}-${settings.itemsPerSession}-${settings.rewardUsd}` : "empty"}
        >
          <input type="hidden" name="intent" value="prolific" />
          <label>
            Completion code
            <input
              name="completionCode"
              defaultValue={settings?.completionCode ?? ""}
              required
              pattern="[A-Z0-9]{4,20}"
              aria-describedby="prolific-code-help"
            />
            <span id="prolific-code-help" className="muted">
              The code from your Prolific study's completion settings: 4–20 upper-case letters or digits.
            </span>
            {problem("completionCode") ? <span className="field-error">{problem("completionCode")}</span> : null}
          </label>
          <label>
            Items per session
            <input
              name="itemsPerSession"
              type="number"
              min={1}
              max={500}
              step={1}
              defaultValue={settings?.itemsPerSession ?? ""}
              required
            />
            {problem("itemsPerSession") ? <span className="field-error">{problem("itemsPerSession")}</span> : null}
          </label>
          <label>
            Reward per session (USD, optional)
            <input
              name="rewardUsd"
              type="number"
              min={0}
              max={1000}
              step={0.01}
              defaultValue={settings?.rewardUsd ?? ""}
            />
            <span className="muted">
              What Prolific pays per completed session; used for the effective hourly pay in the Channels table.
            </span>
            {problem("rewardUsd") ? <span className="field-error">{problem("rewardUsd")}</span> : null}
          </label>
          {failed ? (
            <p className="form-error" role="alert">
              {failed.message}
              {failed.problems.length ? `: ${failed.problems.map((p) => p.message).join("; ")}` : ""}
            </p>
          ) : null}
          {result?.ok ? (
            <p className="notice" role="status">
              Prolific settings saved.
            </p>
          ) : null}
          <button type="submit">Save Prolific settings</button>
        </Form>
      </div>
    </section>
  );
}
