/** An A/B label's answer in words: the chosen conversation. */
import type { AnswerSummaryProps } from "../task-ui.tsx";
import type { AbSummary } from "./review.ts";

export function AbAnswerSummary({ summary, changed }: AnswerSummaryProps<AbSummary>) {
  return <p className={`answer-summary${changed.includes("choice") ? " changed" : ""}`}>{summary.text}</p>;
}
