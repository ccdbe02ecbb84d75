/**
 * The task-type registry: every task type's definition, keyed by its id. Code that differs by
 * task type looks the definition up here (or in the per-type maps below, all keyed by id and
 * typed so that a missing entry does not compile) instead of branching on the type's name.
 *
 * Adding a task type `x`:
 * - app/domain/tasks/ids.ts: its id constant, and the id in TASK_TYPE_IDS;
 * - app/domain/labels.ts: its payload schema in labelPayloadSchema; app/domain/tasks/task-view.ts:
 *   its blinded view in TaskView (with a builder in app/server/annotation/task-view.server.ts);
 * - app/domain/tasks/x.ts: its definition (label check, MTurk spec, resume, dashboard wording),
 *   and one line in TASK_TYPES below;
 * - app/server/annotation/task-types/x.server.ts: its server handlers (view, study creation and
 *   form fields, dashboard figures and view, export columns, task-page part), and one line in
 *   TASK_SERVERS (task-types/registry.server.ts);
 * - app/components/tasks/registry.tsx: its task component (TASK_COMPONENTS);
 *   app/components/admin/StudyTypeFields.tsx: its New-study fields (STUDY_TYPE_FORMS);
 *   app/components/dashboard/TypeFiguresSection.tsx: its dashboard section (TYPE_SECTIONS);
 * - annotation-templates/guidelines/x.md and annotation-templates/mturk/x.html.
 */
import { abReactiveness } from "./ab-reactiveness.ts";
import { consensusSnippet } from "./consensus-snippet.ts";
import { TASK_TYPE_IDS, isTaskTypeId, type TaskTypeId } from "./ids.ts";
import type { LabelPayload, LabelProblem } from "../labels.ts";
import type { LabelCheckContext, TaskTypeDefinition } from "./task-type.ts";
import type { TaskView } from "./task-view.ts";

export { TASK_TYPE_IDS, isTaskTypeId, type TaskTypeId };

export const TASK_TYPES: { readonly [Id in TaskTypeId]: TaskTypeDefinition<Id> } = {
  [consensusSnippet.id]: consensusSnippet,
  [abReactiveness.id]: abReactiveness,
};

export class UnknownTaskTypeError extends Error {
  constructor(readonly id: string) {
    super(`unknown task type "${id}" (known: ${TASK_TYPE_IDS.join(", ")})`);
    this.name = "UnknownTaskTypeError";
  }
}

/** The definition of a task type by id; throws UnknownTaskTypeError for any other string. */
export function taskType<Id extends TaskTypeId>(id: Id): TaskTypeDefinition<Id>;
export function taskType(id: string): TaskTypeDefinition;
export function taskType(id: string): TaskTypeDefinition {
  if (!isTaskTypeId(id)) throw new UnknownTaskTypeError(id);
  return TASK_TYPES[id] as unknown as TaskTypeDefinition;
}

/** The display name of a task type, or the raw string for one this build does not know. */
export function taskTypeName(id: string): string {
  return isTaskTypeId(id) ? TASK_TYPES[id].displayName : id;
}

/** Checks a label with its own type's check (the payload's kind names its type). */
export function checkLabel(label: LabelPayload, context: LabelCheckContext<TaskTypeId>): LabelProblem[] {
  return taskType(label.kind).checkLabel(label, context);
}

/** One HIT's input-CSV values for a blinded task view, by the view's task type. */
export function hitValues(view: TaskView, ids: { studyId: number; itemId: number }): Record<string, string> {
  return taskType(view.kind).mturk.hitValues({ ...view, ...ids });
}
