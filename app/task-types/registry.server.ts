/**
 * Each task type's server handlers (its folder's handlers.server.ts), keyed by task-type id: the
 * blinded view, study creation, dashboard figures, label-export columns, the task page's typed
 * part and any check a submit needs beyond the label's own. The mapped type makes a new task
 * type a compile error here until its handlers are added.
 */
import type { Db } from "../server/db.server.ts";
import type { ItemRow } from "../server/models/study.server.ts";
import { abReactivenessServer } from "./ab-reactiveness/handlers.server.ts";
import { consensusSnippetServer } from "./consensus-snippet/handlers.server.ts";
import type { TaskTypeServer } from "./handler.server.ts";
import type { LabelPayload, TaskTypeId, TaskView } from "./registry.ts";
import type { SnippetContext } from "../server/annotation/task-view.server.ts";
import type { DashboardCharts } from "../domain/charts/chart-data.ts";

export const TASK_SERVERS = {
  [consensusSnippetServer.id]: consensusSnippetServer,
  [abReactivenessServer.id]: abReactivenessServer,
} satisfies { [Id in TaskTypeId]: TaskTypeServer<Id> };

type Servers = typeof TASK_SERVERS;

/** One type's dashboard figures; the union over all types is discriminated by `kind`. */
export type DashboardFigures = { [Id in TaskTypeId]: Awaited<ReturnType<Servers[Id]["dashboard"]>> }[TaskTypeId];
export type DashboardView = { [Id in TaskTypeId]: ReturnType<Servers[Id]["dashboardView"]> }[TaskTypeId];
export type TaskPart = { [Id in TaskTypeId]: Awaited<ReturnType<Servers[Id]["taskPart"]>> }[TaskTypeId];

/** The blinded view of an item, whichever its task type. */
export async function taskView(db: Db, item: ItemRow): Promise<TaskView> {
  return await TASK_SERVERS[item.kind].view(db, item);
}

/** What a type checks on a submit beyond the label's own check (nothing for most types). */
export async function refuseOnSubmit(
  item: ItemRow,
  label: LabelPayload,
  snippet: () => Promise<SnippetContext>,
): Promise<void> {
  const server = TASK_SERVERS[label.kind] as Pick<TaskTypeServer<TaskTypeId>, "refuseOnSubmit">;
  await server.refuseOnSubmit?.(item, label as never, snippet);
}

/** The dashboard's drawn figures for a type's view (none for a type without any). */
export function dashboardCharts(view: Pick<DashboardView, "kind">): Promise<DashboardCharts> {
  const server = TASK_SERVERS[view.kind] as Pick<TaskTypeServer<TaskTypeId>, "dashboardCharts">;
  return server.dashboardCharts ? server.dashboardCharts(view as never) : Promise.resolve({});
}
