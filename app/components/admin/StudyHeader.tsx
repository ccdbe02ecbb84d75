import { Form } from "@remix-run/react";
import { taskTypeName } from "../../task-types/registry.ts";

export interface StudyHeaderProps {
  study: { id: number; name: string; type: string; pool: string; labelsPerItem: number; status: string };
}

/** The dashboard's title line: type, pool, status, the close/reopen switch and the label exports. */
export function StudyHeader({ study }: StudyHeaderProps) {
  const base = `/admin/studies/${study.id}`;
  const open = study.status === "open";
  return (
    <header className="dash-header">
      <h1>{study.name}</h1>
      <p className="muted">
        {taskTypeName(study.type)} · {study.pool} pool · {study.labelsPerItem} labels per item ·{" "}
        <strong data-testid="study-status" className={`status-chip status-${study.status}`}>
          {study.status}
        </strong>
      </p>
      <div className="actions">
        {open ? (
          // A confirm step without script: the button that closes sits inside a disclosure.
          <details className="confirm-step">
            <summary className="button-secondary">Close study…</summary>
            <Form method="post" className="inline-form">
              <span>Annotators can no longer take items or change labels until it is reopened.</span>{" "}
              <button type="submit" name="intent" value="close" className="button-danger">
                Yes, close the study
              </button>
            </Form>
          </details>
        ) : (
          <Form method="post" className="inline-form">
            <button type="submit" name="intent" value="reopen" className="button-secondary">
              Reopen study
            </button>
          </Form>
        )}
        <a href={`${base}/labels.csv`} download>
          Export labels (CSV)
        </a>
        <a href={`${base}/labels.jsonl`} download>
          Export labels (JSONL)
        </a>
      </div>
    </header>
  );
}
