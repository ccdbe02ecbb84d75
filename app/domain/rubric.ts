/**
 * The 1–5 agreement rubric annotators use on each topic of a snippet. The task UI shows it on
 * hover/focus; app/task-types/consensus-snippet/guidelines.md prints the same text. The
 * anchors match the topic-localized judge's scale (app/llm-roles/evaluator/topic-judge.md),
 * so experts, crowdworkers and the evaluator rate on one scale.
 */
export type AgreementScore = 1 | 2 | 3 | 4 | 5;

export interface RubricLevel {
  score: AgreementScore;
  label: string;
  description: string;
}

export const AGREEMENT_RUBRIC: readonly RubricLevel[] = [
  {
    score: 1,
    label: "Far apart",
    description:
      "The parties want different options and neither has moved; they may be openly rejecting each other's position.",
  },
  {
    score: 2,
    label: "Apart, slight give",
    description:
      "Still wanting different options, but at least one party has shown a little flexibility: a hint of compromise, a condition under which it could move.",
  },
  {
    score: 3,
    label: "Converging",
    description:
      "Positions are moving toward each other: a middle option or a trade is being explored, though nobody has accepted it yet.",
  },
  {
    score: 4,
    label: "Close",
    description:
      "The parties broadly accept the same option; only details, conditions or a final confirmation remain open.",
  },
  {
    score: 5,
    label: "Agreed",
    description: "Every party has clearly accepted the same terms on this topic.",
  },
];
