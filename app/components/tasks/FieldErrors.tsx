/** Server or client validation problems shown next to the field their path names. */
import type { FieldProblem } from "../../task-types/task-view.ts";
import { plainMessage } from "../../domain/crowd/plain-problems.ts";

/** Problems whose path is exactly `path`. */
export function problemsAt(problems: readonly FieldProblem[], path: string): FieldProblem[] {
  return problems.filter((p) => p.path === path);
}

/** Problems whose path is none of `known` (shown in the summary at the top). */
export function problemsElsewhere(problems: readonly FieldProblem[], known: ReadonlySet<string>): FieldProblem[] {
  return problems.filter((p) => !known.has(p.path));
}

/** Renders nothing when there is no problem at `path`; `id` lets a control point at it with aria-describedby. */
export function FieldErrors({ id, problems, path }: { id: string; problems: readonly FieldProblem[]; path: string }) {
  const here = problemsAt(problems, path);
  if (here.length === 0) return null;
  return (
    <div className="field-error" id={id} data-path={path}>
      {here.map((p, i) => (
        // Beside its field the message needs no field name; zod's stock wording is put plainly.
        <p key={i}>{plainMessage(p.message)}</p>
      ))}
    </div>
  );
}
