/** A label's answer in words, as its task type words it (the type's AnswerSummary from the registry). */
import type { AnswerSummary as Summary } from "../../task-types/registry.ts";
import { TASK_UIS } from "../../task-types/registry.tsx";
import type { AnswerSummaryProps } from "../../task-types/task-ui.tsx";

/**
 * `changed` holds the payload paths that differ from the revision before; those answers are marked.
 * `full` shows each option's whole text instead of its shortened form.
 */
export function AnswerSummary({
  summary,
  changed = [],
  full = false,
}: {
  summary: Summary;
  changed?: readonly string[];
  full?: boolean;
}) {
  const Words = TASK_UIS[summary.kind].AnswerSummary as (props: AnswerSummaryProps<Summary>) => JSX.Element;
  return <Words summary={summary} changed={changed} full={full} />;
}
