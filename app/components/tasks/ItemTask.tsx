/**
 * The task for one item, whichever its type: the type's component from the registry. Shared by
 * the annotator's task page and the MTurk ExternalQuestion page (through TaskPageShell).
 */
import type { TaskView } from "../../task-types/registry.ts";
import { TASK_COMPONENTS, type TaskComponentProps } from "../../task-types/registry.tsx";

export type ItemTaskProps = TaskComponentProps<TaskView>;

export function ItemTask(props: ItemTaskProps) {
  const Component = TASK_COMPONENTS[props.task.kind] as (props: ItemTaskProps) => JSX.Element;
  // Keyed by item, so a new item starts from fresh state.
  return <Component key={props.itemId} {...props} />;
}
