/**
 * Each task type's component, keyed by task-type id (app/domain/tasks). The mapped type makes a
 * new task type a compile error here until its component is added.
 */
import type { ReactElement } from "react";
import type { AbLabelPayload, ConsensusLabel } from "../../domain/labels.ts";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET } from "../../domain/tasks/ids.ts";
import type { TaskTypeId } from "../../domain/tasks/registry.ts";
import type { FieldProblem, TaskProgressValue, TaskView } from "../../domain/tasks/task-view.ts";
import type { PageShortcut } from "./shortcuts.ts";
import { AbTask } from "./AbTask.tsx";
import type { AbChoice } from "./ab-task-state.ts";
import { ConsensusTask } from "./ConsensusTask.tsx";
import type { ConsensusDraft } from "./consensus-form-state.ts";

/** What every task component gets from the page, whatever its type. */
export interface TaskComponentProps<View extends TaskView = TaskView> {
  itemId: number;
  task: View;
  previousLabel: ConsensusLabel | null;
  initialLabel: ConsensusDraft | null;
  initialChoice: AbChoice | null;
  guidelinesMarkdown: string;
  progress: TaskProgressValue;
  submitting: boolean;
  errors: FieldProblem[];
  /** Background and guidelines open at first (otherwise the components decide). */
  contextOpen?: boolean;
  readOnly?: boolean;
  submitText?: string;
  /** The page's shortcuts (skip, flag, undo), added to the task's keys and cheat sheet. */
  pageShortcuts?: readonly PageShortcut[];
  /** The work in progress, for drafts: a consensus draft, or an A/B label once a side is chosen. */
  onDraftChange: (draft: unknown) => void;
  onSubmit: (payload: ConsensusLabel | AbLabelPayload) => void;
}

type TaskComponents = { [Id in TaskTypeId]: (props: TaskComponentProps<Extract<TaskView, { kind: Id }>>) => ReactElement };

export const TASK_COMPONENTS: TaskComponents = {
  [CONSENSUS_SNIPPET]: ({ task, ...props }) => (
    <ConsensusTask
      {...props}
      scenario={task.scenario}
      previousSnippet={task.previousSnippet}
      snippet={task.snippet}
      backgroundInitiallyOpen={props.contextOpen}
    />
  ),
  [AB_REACTIVENESS]: ({ task, ...props }) => (
    <AbTask
      {...props}
      conversationA={task.conversationA}
      conversationB={task.conversationB}
      targetParty={task.targetParty}
      guidelinesInitiallyOpen={props.contextOpen}
      onChoiceChange={(choice) => props.onDraftChange(choice ? { kind: AB_REACTIVENESS, choice } : null)}
    />
  ),
};
