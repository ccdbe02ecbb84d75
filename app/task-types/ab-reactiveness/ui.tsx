/** What an A/B study shows in the browser: its task, New-study fields, dashboard section and answer words. */
import type { TaskTypeUi } from "../task-ui.tsx";
import { AbTask } from "./AbTask.tsx";
import { AbAnswerSummary } from "./AnswerSummary.tsx";
import type { AbChoice } from "./ab-task-state.ts";
import { AbDashboardSection } from "./DashboardSection.tsx";
import { AB_REACTIVENESS } from "./label.ts";
import type { AbSummary } from "./review.ts";
import { AbFields } from "./StudyFields.tsx";
import type { AbTaskView } from "./view.ts";

export const abReactivenessUi: TaskTypeUi<typeof AB_REACTIVENESS, AbTaskView, AbSummary> = {
  id: AB_REACTIVENESS,
  Task: ({ task, ...props }) => (
    <AbTask
      {...props}
      initialChoice={props.initialChoice as AbChoice | null}
      conversationA={task.conversationA}
      conversationB={task.conversationB}
      targetParty={task.targetParty}
      guidelinesInitiallyOpen={props.contextOpen}
      autoAdvance={props.autoAdvance}
      onChoiceChange={(choice) => props.onDraftChange(choice ? { kind: AB_REACTIVENESS, choice } : null)}
    />
  ),
  studyForm: {
    availability: (n) => `${n} pairs available`,
    fieldLabels: { backbones: "Simulator backbones", bundle: "Bundle", pairIds: "Pair ids" },
    Fields: AbFields,
  },
  DashboardSection: AbDashboardSection,
  AnswerSummary: AbAnswerSummary,
};
