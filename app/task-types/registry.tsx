/**
 * Each task type's browser side (its folder's ui.tsx), keyed by task-type id: its task component,
 * its New-study fields, its dashboard section and its answer summary. The mapped type makes a new
 * task type a compile error here until its entry is added.
 */
import { abReactivenessUi } from "./ab-reactiveness/ui.tsx";
import { consensusSnippetUi } from "./consensus-snippet/ui.tsx";
import type { AnswerSummary, TaskTypeId, ViewOf } from "./registry.ts";
import type { StudyTypeForm, TaskComponentProps, TaskTypeUi } from "./task-ui.tsx";

export type { TaskComponentProps };

export const TASK_UIS: { [Id in TaskTypeId]: TaskTypeUi<Id, ViewOf<Id>, Extract<AnswerSummary, { kind: Id }>> } = {
  [consensusSnippetUi.id]: consensusSnippetUi,
  [abReactivenessUi.id]: abReactivenessUi,
};

const byType = <T,>(pick: (ui: TaskTypeUi<TaskTypeId, never, never>) => T) =>
  Object.fromEntries(
    Object.entries(TASK_UIS).map(([id, ui]) => [id, pick(ui as TaskTypeUi<TaskTypeId, never, never>)]),
  ) as Record<TaskTypeId, T>;

/** Each type's task component. */
export const TASK_COMPONENTS = byType((ui) => ui.Task);
/** Each type's New-study form part: what its choice says is available, and its own fields. */
export const STUDY_TYPE_FORMS: Record<TaskTypeId, StudyTypeForm> = byType((ui) => ui.studyForm);
/** Each type's dashboard section. */
export const TYPE_SECTIONS = byType((ui) => ui.DashboardSection);
