/** The gold items of a study, by task type, in the shapes goldAccuracy expects (each type's own gold rules). */
import { TASK_TYPE_IDS, taskType, type TaskTypeId } from "../../task-types/registry.ts";
import type { GoldItemSource } from "../../task-types/task-type.ts";
import type { GoldSet } from "./gold.ts";

export type { GoldItemSource };

export function goldFor(items: readonly GoldItemSource[]): GoldSet {
  const gold = items.filter((i) => i.isGold);
  return Object.fromEntries(
    TASK_TYPE_IDS.map((kind: TaskTypeId) => [
      kind,
      gold.filter((i) => i.kind === kind).map((i) => taskType(kind as string).gold.fromItem(i)),
    ]),
  ) as GoldSet;
}
