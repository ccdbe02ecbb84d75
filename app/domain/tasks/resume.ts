/** Reading back what an annotator left on an item: a stored draft or label, if it is of the given type. */
import type { TaskTypeId } from "./ids.ts";
import type { LabelOf } from "./task-type.ts";

/** The value as a payload of task type `id` when its `kind` says so (its fields are not checked), else null. */
export function ofKind<Id extends TaskTypeId>(id: Id, value: unknown): LabelOf<Id> | null {
  return value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === id ? (value as LabelOf<Id>) : null;
}
