/** One revision in a label's history: who saved it and when, the answer, and what changed from the revision before. */
import { formatUtc } from "../../domain/format-time.ts";
import type { RevisionView } from "../../domain/label-review/history.ts";
import { AnswerSummary } from "./AnswerSummary.tsx";

export function RevisionCard({ revision }: { revision: RevisionView }) {
  const changed = revision.changes.map((c) => c.path);
  return (
    <li className="revision-card" data-revision={revision.revision}>
      <p className="revision-head">
        <strong>Version {revision.revision}</strong>
        {revision.latest ? <span className="chip">counts now</span> : null} · {revision.who} ·{" "}
        {formatUtc(revision.createdAt)}
        {revision.secondsOnTask !== null ? ` · ${Math.round(revision.secondsOnTask)} s on task` : ""}
      </p>
      {revision.revision > 1 ? <Changes revision={revision} /> : null}
      <AnswerSummary summary={revision.summary} changed={changed} full />
    </li>
  );
}

function Changes({ revision }: { revision: RevisionView }) {
  if (revision.changes.length === 0) return <p className="muted">Saved again without changes.</p>;
  return (
    <div className="revision-changes">
      <p>Changed from version {revision.revision - 1}:</p>
      <ul>
        {revision.changes.map((change) => (
          <li key={change.path || change.text}>{change.text}</li>
        ))}
      </ul>
    </div>
  );
}
