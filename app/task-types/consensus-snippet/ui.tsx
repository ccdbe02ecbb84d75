/** What a consensus study shows in the browser: its task, New-study fields, dashboard section and answer words. */
import type { TaskTypeUi } from "../task-ui.tsx";
import { ConsensusAnswerSummary } from "./AnswerSummary.tsx";
import { ConsensusTask } from "./ConsensusTask.tsx";
import type { ConsensusDraft } from "./consensus-form-state.ts";
import { ConsensusDashboardSection } from "./DashboardSection.tsx";
import { CONSENSUS_SNIPPET, type ConsensusLabel } from "./label.ts";
import type { ConsensusSummary } from "./review.ts";
import { ConsensusFields } from "./StudyFields.tsx";
import type { ConsensusTaskView } from "./view.ts";

export const consensusSnippetUi: TaskTypeUi<typeof CONSENSUS_SNIPPET, ConsensusTaskView, ConsensusSummary> = {
  id: CONSENSUS_SNIPPET,
  Task: ({ task, ...props }) => (
    <ConsensusTask
      {...props}
      previousLabel={props.previousLabel as ConsensusLabel | null}
      initialLabel={props.initialLabel as ConsensusDraft | null}
      scenario={task.scenario}
      previousSnippet={task.previousSnippet}
      snippet={task.snippet}
      backgroundInitiallyOpen={props.contextOpen}
    />
  ),
  studyForm: {
    availability: (n) => `${n} evaluated trajectories available`,
    fieldLabels: {
      trajectories: "Trajectories to sample",
      goldFromStudyId: "Gold snippets from",
      allocation: "How trajectories are chosen",
      judgeBackbones: "Judge",
    },
    Fields: ConsensusFields,
  },
  DashboardSection: ConsensusDashboardSection,
  AnswerSummary: ConsensusAnswerSummary,
};
