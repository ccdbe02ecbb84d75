/** A small fictional scenario and turns shared by the task UI tests. */
import type { ConsensusLabel } from "../../../app/task-types/consensus-snippet/label.ts";
import type { TaskScenario, TaskTurn } from "../../../app/task-types/task-view.ts";

export const scenario: TaskScenario = {
  title: "Orchard lease renewal",
  background: "A family orchard is leased to a cider cooperative; the lease ends this autumn.",
  topics: [
    {
      id: "RENT",
      name: "Annual rent",
      description: "What the cooperative pays per year.",
      options: [
        { label: "A", description: "Keep the current rent" },
        { label: "B", description: "Raise it by a tenth" },
        { label: "C", description: "Rent tied to the harvest" },
      ],
    },
    {
      id: "TERM",
      name: "Lease length",
      description: "How many years the new lease runs.",
      options: [
        { label: "A", description: "Three years" },
        { label: "B", description: "Ten years" },
      ],
    },
  ],
  parties: [
    { id: "OWNER", name: "Wren Halloway", role: "Orchard owner" },
    { id: "COOP", name: "Cider cooperative", role: "Tenant" },
  ],
};

export const threeParties: TaskScenario = {
  ...scenario,
  parties: [...scenario.parties, { id: "TOWN", name: "Parish council", role: "Neighbour" }],
};

export const previousSnippet: TaskTurn[] = [
  {
    turnId: 1,
    speakerId: "OWNER",
    speakerName: "Wren Halloway",
    isMediator: false,
    utterance: "Costs have risen; the rent has to go up.",
  },
  {
    turnId: 2,
    speakerId: "COOP",
    speakerName: "Cider cooperative",
    isMediator: false,
    utterance: "A bad harvest would ruin us at a higher rent.",
  },
];

export const snippet: TaskTurn[] = [
  {
    turnId: 3,
    speakerId: "OWNER",
    speakerName: "Wren Halloway",
    isMediator: false,
    utterance: "Then tie part of it to the harvest.",
  },
  {
    turnId: 4,
    speakerId: "MEDIATOR",
    speakerName: "Mediator",
    isMediator: true,
    utterance: "That sounds like common ground worth exploring.",
  },
  {
    turnId: 5,
    speakerId: "COOP",
    speakerName: "Cider cooperative",
    isMediator: false,
    utterance: "We could live with a harvest-linked rent.",
  },
];

export const previousLabel: ConsensusLabel = {
  kind: "consensus-snippet",
  topics: {
    RENT: { score: 2, carriedForward: false, positions: { OWNER: "B", COOP: "A" } },
    TERM: { score: 4, carriedForward: false, positions: { OWNER: "B", COOP: "not-stated" } },
  },
};
