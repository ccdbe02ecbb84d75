/**
 * The task-type registry: every task type's definition, keyed by its id. Code that differs by
 * task type looks the definition up here instead of branching on the type's name. Adding a task
 * type = its id in ids.ts, its definition file, one line below, its component line in
 * app/components/tasks/registry.ts, and its templates in annotation-templates/.
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
