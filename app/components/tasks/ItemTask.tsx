/**
 * The task for one item, whichever kind it is: a snippet (ConsensusTask) or an A/B pair (AbTask).
 * Shared by the annotator's task page and the MTurk ExternalQuestion page, which differ only in
 * where answers go and how the page around the task looks.
 */
import type { AbLabelPayload, ConsensusLabel } from "../../domain/labels.ts";
import { AbTask } from "./AbTask.tsx";
import type { AbChoice } from "./ab-task-state.ts";
import { ConsensusTask } from "./ConsensusTask.tsx";
import type { ConsensusDraft } from "./consensus-form-state.ts";
import type { FieldProblem, TaskProgressValue, TaskScenario, TaskTurn } from "../../domain/tasks/task-view.ts";

export type ItemTaskView =
  | { kind: "consensus-snippet"; scenario: TaskScenario; previousSnippet: TaskTurn[] | null; snippet: TaskTurn[] }
  | { kind: "ab-reactiveness"; conversationA: TaskTurn[]; conversationB: TaskTurn[]; targetParty: { id: string; name: string } };

export interface ItemTaskProps {
  itemId: number;
  task: ItemTaskView;
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
  /** The work in progress, for drafts: a consensus draft, or an A/B label once a side is chosen. */
  onDraftChange: (draft: unknown) => void;
  onSubmit: (payload: ConsensusLabel | AbLabelPayload) => void;
}

export function ItemTask(props: ItemTaskProps) {
  const { task } = props;
  const common = {
    progress: props.progress,
    submitting: props.submitting,
    errors: props.errors,
    guidelinesMarkdown: props.guidelinesMarkdown,
    readOnly: props.readOnly,
    submitText: props.submitText,
    onSubmit: props.onSubmit,
  };
  if (task.kind === "consensus-snippet") {
    return (
      <ConsensusTask
        key={props.itemId}
        {...common}
        scenario={task.scenario}
        previousSnippet={task.previousSnippet}
        snippet={task.snippet}
        previousLabel={props.previousLabel}
        initialLabel={props.initialLabel}
        backgroundInitiallyOpen={props.contextOpen}
        onDraftChange={props.onDraftChange}
      />
    );
  }
  return (
    <AbTask
      key={props.itemId}
      {...common}
      conversationA={task.conversationA}
      conversationB={task.conversationB}
      targetParty={task.targetParty}
      initialChoice={props.initialChoice}
      guidelinesInitiallyOpen={props.contextOpen}
      onChoiceChange={(choice) => props.onDraftChange(choice ? { kind: "ab-reactiveness", choice } : null)}
    />
  );
}
