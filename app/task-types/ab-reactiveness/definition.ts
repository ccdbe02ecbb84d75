/** A/B reactiveness: two versions of one negotiation; which one shows the target party reacting more emotionally. */
import { ITEM_ID_FIELD } from "../../domain/crowd/answer-fields.ts";
import { ofKind } from "../resume.ts";
import type { TaskTypeDefinition } from "../task-type.ts";
import { abGold, type AbGoldItem } from "./gold.ts";
import { AB_SHORTCUTS, type AbCommand } from "./ab-task-state.ts";
import { abPayloadFromAnswers, choiceField } from "./answer-fields.ts";
import { AB_VARIABLES, abHitValues } from "./hit-values.ts";
import { AB_REACTIVENESS, abLabelSchema, type AbLabelPayload } from "./label.ts";
import { abChanges, abPlaces, summariseAb, type AbSummary } from "./review.ts";
import type { AbTaskView } from "./view.ts";

export const abReactiveness: TaskTypeDefinition<
  typeof AB_REACTIVENESS,
  AbLabelPayload,
  AbTaskView,
  AbSummary,
  AbGoldItem
> = {
  id: AB_REACTIVENESS,
  displayName: "A/B reactiveness",
  shortName: "A/B",
  labelSchema: abLabelSchema,
  // The schema is the whole check: a choice of A or B needs nothing from the item.
  checkLabel: async () => [],
  defaultSecondsPerItem: 240,
  templateName: AB_REACTIVENESS,
  mturk: {
    variables: AB_VARIABLES,
    requiredVariables: ["item_id", "conversation_a_html", "conversation_b_html"],
    requiredFields: [`name="${ITEM_ID_FIELD}"`, `name="${choiceField("A")}"`, `name="${choiceField("B")}"`],
    texts: {
      title: "Compare two negotiations: who reacts more emotionally?",
      description:
        "Read two versions of the same negotiation and choose the one where the highlighted person reacts more emotionally.",
      keywords: ["negotiation", "dialogue", "comparison", "emotion", "research"],
    },
    hitValues: abHitValues,
    payloadFromAnswers: async (answers) => abPayloadFromAnswers(answers),
  },
  // An A/B draft is read by its choice alone (a choice of A or B is the whole answer).
  resume: (draft, latest) => {
    const choice = draft !== null && typeof draft === "object" ? (draft as { choice?: unknown }).choice : undefined;
    return choice === "A" || choice === "B"
      ? { kind: AB_REACTIVENESS, choice }
      : ofKind<AbLabelPayload>(AB_REACTIVENESS, latest);
  },
  dashboard: {
    flaggedExcludedFrom: "fidelity",
    agreementUnits: () => "Units: A/B pairs; choices compared as categories. ",
  },
  keys: {
    shortcuts: AB_SHORTCUTS,
    queue: ["toggleGuidelines", "toggleCheatSheet", "closeOverlay"] satisfies AbCommand[],
  },
  review: {
    summarise: (label, _scenario, targetParty) => summariseAb(label, targetParty),
    changes: abChanges,
    places: abPlaces,
  },
  gold: abGold,
};
