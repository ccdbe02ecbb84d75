/**
 * The optional comment stored with the label (a column of its revision): a labelled text box under the task. Typing in
 * it leaves the task's keys alone; Ctrl/⌘+Enter still submits, with the comment.
 */
import { useId } from "react";
import { LABEL_COMMENT_MAX } from "../../domain/label-comment.ts";
import type { FieldProblem } from "../../task-types/task-view.ts";

export function LabelComment({
  value,
  onChange,
  problems,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  problems: readonly FieldProblem[];
  disabled: boolean;
}) {
  const id = useId();
  const own = problems.filter((p) => p.path === "comment");
  return (
    <div className="label-comment">
      <label htmlFor={id}>
        Comment for the researchers <span className="muted">(optional, stored with your answer)</span>
      </label>
      <textarea
        id={id}
        value={value}
        rows={2}
        maxLength={LABEL_COMMENT_MAX}
        disabled={disabled}
        aria-invalid={own.length > 0 || undefined}
        aria-describedby={own.length > 0 ? `${id}-problem` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {own.length > 0 ? (
        <p id={`${id}-problem`} className="field-error">
          {own.map((p) => p.message).join("; ")}
        </p>
      ) : null}
    </div>
  );
}
