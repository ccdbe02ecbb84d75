import { useEffect, useRef } from "react";

export interface FormFailure {
  message: string;
  problems: { path: string; message: string }[];
}

/**
 * A refused form's summary at its top: the message and one line per field, each a link to the
 * field (`#field-<name>`). Focus moves here when it appears, so keyboard and screen-reader users
 * start from what is wrong.
 */
export function FormErrorSummary({ failure, labels }: { failure: FormFailure; labels: Record<string, string> }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [failure]);
  return (
    <div className="form-error error-summary" role="alert" tabIndex={-1} ref={ref} data-testid="error-summary">
      <p>
        <strong>{failure.message}</strong>
      </p>
      {failure.problems.length ? (
        <ul>
          {failure.problems.map((p, i) => (
            <li key={`${p.path}-${i}`}>
              {labels[p.path] ? (
                <a href={`#field-${p.path}`}>{labels[p.path]}</a>
              ) : p.path ? (
                <code>{p.path}</code>
              ) : null}
              {labels[p.path] || p.path ? ": " : ""}
              {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
