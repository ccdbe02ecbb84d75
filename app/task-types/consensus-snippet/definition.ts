/** Snippet consensus: per snippet of a conversation, each party's position and a 1–5 agreement score per topic. */
import { ITEM_ID_FIELD } from "../../domain/crowd/answer-fields.ts";
import { ofKind } from "../resume.ts";
import type { TaskTypeDefinition } from "../task-type.ts";
import { consensusGold, type ConsensusGoldItem } from "./gold.ts";
import { consensusPayloadFromAnswers } from "./answer-fields.ts";
import { CONSENSUS_SHORTCUTS, type ConsensusCommand } from "./consensus-form-state.ts";
import { CONSENSUS_VARIABLES, consensusHitValues } from "./hit-values.ts";
import { CONSENSUS_SNIPPET, checkConsensusLabel, consensusLabelSchema, type ConsensusLabel } from "./label.ts";
import { consensusChanges, consensusPlaces, summariseConsensus, type ConsensusSummary } from "./review.ts";
import type { ConsensusTaskView } from "./view.ts";

export const consensusSnippet: TaskTypeDefinition<
  typeof CONSENSUS_SNIPPET,
  ConsensusLabel,
  ConsensusTaskView,
  ConsensusSummary,
  ConsensusGoldItem
> = {
  id: CONSENSUS_SNIPPET,
  displayName: "Snippet consensus",
  shortName: "Snippet",
  labelSchema: consensusLabelSchema,
  checkLabel: async (label, context) =>
    checkConsensusLabel(label, await context.scenario(), await context.previousLabel()),
  defaultSecondsPerItem: 120,
  templateName: CONSENSUS_SNIPPET,
  mturk: {
    variables: CONSENSUS_VARIABLES,
    requiredVariables: ["item_id", "questions_html"],
    requiredFields: [`name="${ITEM_ID_FIELD}"`],
    texts: {
      title: "Read a short negotiation excerpt and rate how close the parties are",
      description:
        "Read a few turns of a negotiation, say where each party stands on each topic, and rate their agreement from 1 to 5.",
      keywords: ["negotiation", "dialogue", "rating", "reading", "research"],
    },
    hitValues: consensusHitValues,
    payloadFromAnswers: async (answers, scenario) => consensusPayloadFromAnswers(answers, await scenario()),
  },
  resume: (draft, latest) =>
    ofKind<ConsensusLabel>(CONSENSUS_SNIPPET, draft) ?? ofKind<ConsensusLabel>(CONSENSUS_SNIPPET, latest),
  dashboard: {
    flaggedExcludedFrom: "alignment",
    agreementUnits: (pool) => `Units: (snippet, topic) pairs; raters: the ${pool ?? ""} pool. `,
  },
  keys: {
    shortcuts: CONSENSUS_SHORTCUTS,
    queue: [
      "nextTopic",
      "prevTopic",
      "nextParty",
      "prevParty",
      "toggleBackground",
      "toggleGuidelines",
      "toggleCheatSheet",
      "closeOverlay",
    ] satisfies ConsensusCommand[],
  },
  review: {
    summarise: (label, scenario) => summariseConsensus(label, scenario),
    changes: consensusChanges,
    places: consensusPlaces,
  },
  gold: consensusGold,
};
