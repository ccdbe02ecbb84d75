/**
 * Each task type's server handlers, keyed by task-type id (app/domain/tasks): the blinded view,
 * study creation, dashboard figures, label-export columns and the task page's typed part. The mapped type makes
 * a new task type a compile error here until its handlers are added.
 */
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../../../domain/tasks/ids.ts";
import type { TaskView } from "../../../domain/tasks/task-view.ts";
import type { Db } from "../../db.server.ts";
import type { ItemRow } from "../../models/study.server.ts";
import { abReactivenessServer } from "./ab-reactiveness.server.ts";
import { consensusSnippetServer } from "./consensus-snippet.server.ts";
import type { TaskTypeServer } from "./handler.server.ts";

export const TASK_SERVERS = {
  [CONSENSUS_SNIPPET]: consensusSnippetServer,
  [AB_REACTIVENESS]: abReactivenessServer,
} satisfies { [Id in TaskTypeId]: TaskTypeServer<Id> };

type Servers = typeof TASK_SERVERS;

/** One type's dashboard figures; the union over all types is discriminated by `kind`. */
export type DashboardFigures = { [Id in TaskTypeId]: ReturnType<Servers[Id]["dashboard"]> }[TaskTypeId];
export type DashboardView = { [Id in TaskTypeId]: ReturnType<Servers[Id]["dashboardView"]> }[TaskTypeId];
export type TaskPart = { [Id in TaskTypeId]: ReturnType<Servers[Id]["taskPart"]> }[TaskTypeId];

/** The blinded view of an item, whichever its task type. */
export function taskView(db: Db, item: ItemRow): TaskView {
  return TASK_SERVERS[item.kind].view(db, item);
}
