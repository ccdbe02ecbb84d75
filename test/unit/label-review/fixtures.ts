/** A small blinded scenario and labels on it, for the label-review tests. */
import type { ConsensusLabel } from "../../../app/task-types/consensus-snippet/label.ts";
import type { SummaryScenario } from "../../../app/domain/label-review/summary.ts";

export const SCENARIO: SummaryScenario = {
  topics: [
    {
      id: "RENT",
      name: "Monthly rent",
      options: [
        { label: "A", description: "Keep the rent where it is" },
        { label: "B", description: "Raise the rent by five percent from next spring onwards, in two steps" },
      ],
    },
    {
      id: "PETS",
      name: "Pets",
      options: [
        { label: "A", description: "No pets" },
        { label: "B", description: "Cats only" },
      ],
    },
  ],
  parties: [
    { id: "TEN", name: "Tenant Ada" },
    { id: "OWN", name: "Owner Ben" },
  ],
};

export function consensus(
  rent: { score: number; ten: string; own: string; carried?: boolean },
  petsScore = 2,
): ConsensusLabel {
  return {
    kind: "consensus-snippet",
    topics: {
      RENT: { score: rent.score, carriedForward: rent.carried ?? false, positions: { TEN: rent.ten, OWN: rent.own } },
      PETS: { score: petsScore, carriedForward: false, positions: { TEN: "unclear", OWN: "not-stated" } },
    },
  };
}
