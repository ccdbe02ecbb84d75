import { Form, Link, useSearchParams } from "@remix-run/react";
import type { FlagsPanelData, FlagView } from "../../domain/flag-view.ts";
import { ScrollX } from "../ScrollX.tsx";

/** "2026-11-24 12:03" from a stored ISO time (UTC, as stored: the same on server and browser). */
const when = (iso: string) => iso.slice(0, 16).replace("T", " ");

function FlagRow({ flag }: { flag: FlagView }) {
  return (
    <tr data-testid="flag-row" className={flag.resolvedAt ? "inactive-row" : undefined}>
      <td>
        item {flag.position}
        {flag.links.map((l) => (
          <span key={l.href}>
            {" · "}
            <Link to={l.href}>{l.text}</Link>
          </span>
        ))}
      </td>
      <td>{flag.annotatorName}</td>
      <td className="flag-comment">{flag.comment}</td>
      <td>
        <time dateTime={flag.createdAt}>{when(flag.createdAt)}</time>
      </td>
      <td>
        {flag.resolvedAt ? (
          <span className="muted">resolved {when(flag.resolvedAt)}</span>
        ) : (
          <Form method="post" className="inline-form" preventScrollReset>
            <input type="hidden" name="intent" value="resolve-flag" />
            <input type="hidden" name="flagId" value={flag.id} />
            <button type="submit" className="button-secondary">
              Mark resolved
            </button>
          </Form>
        )}
      </td>
    </tr>
  );
}

/** Annotators' flags on items, newest first: open ones, and resolved ones on request (`?flags=all`). */
export function FlagsPanel({ data, error }: { data: FlagsPanelData; error: string | null }) {
  const [params] = useSearchParams();
  const toggled = new URLSearchParams(params);
  if (data.showResolved) toggled.delete("flags");
  else toggled.set("flags", "all");
  return (
    <section className="dash-section" data-testid="flags-panel">
      <h2>Flags</h2>
      <p className="muted">
        {data.open} open · {data.resolved} resolved
        {data.resolved ? (
          <>
            {" · "}
            <Link to={`?${toggled.toString()}`} preventScrollReset>
              {data.showResolved ? "hide resolved" : "show resolved"}
            </Link>
          </>
        ) : null}
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {data.flags.length ? (
        <ScrollX label="Flags">
          <table className="data-table">
            <thead>
              <tr>
                <th>Item</th>
                <th>Annotator</th>
                <th>Comment</th>
                <th>When (UTC)</th>
                <th>
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.flags.map((f) => (
                <FlagRow key={f.id} flag={f} />
              ))}
            </tbody>
          </table>
        </ScrollX>
      ) : (
        <p className="empty-state">
          No open flags: annotators flag an item with a comment when it is broken or unclear.
        </p>
      )}
    </section>
  );
}
