/**
 * The admin's study list and its "New study" form: the overview it shows, and turning the posted
 * form into a new study (each type reads its own fields: task-types/<id>.server.ts).
 */
import { TASK_TYPE_IDS, isTaskTypeId, type TaskTypeId } from "../../domain/tasks/ids.ts";
import type { StudyFormChoices } from "../../domain/tasks/study-form.ts";
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { labelCountsByStudy } from "../models/label.server.ts";
import { defaultGuidelines } from "../templates.server.ts";
import { listStudies } from "./studies.server.ts";
import { formNumber } from "./task-types/new-study.server.ts";
import type { TaskTypeServer } from "./task-types/handler.server.ts";
import { TASK_SERVERS } from "./task-types/registry.server.ts";

function formChoicesOf(db: Db, id: TaskTypeId): StudyFormChoices {
  const server: TaskTypeServer<TaskTypeId> = TASK_SERVERS[id];
  return server.formChoices?.(db) ?? {};
}

/** Every study with its label count, what new studies of each type can draw on, and the default guidelines per type. */
export function studiesOverview(db: Db) {
  const labels = labelCountsByStudy(db);
  return {
    studies: listStudies(db).map((s) => ({ ...s, labels: labels.get(s.id) ?? 0 })),
    available: Object.fromEntries(TASK_TYPE_IDS.map((id) => [id, TASK_SERVERS[id].available(db)])) as Record<TaskTypeId, number>,
    choices: Object.fromEntries(TASK_TYPE_IDS.map((id) => [id, formChoicesOf(db, id)])) as Record<TaskTypeId, StudyFormChoices>,
    defaultGuidelines: defaultGuidelines(),
  };
}

/** The fields every study type shares. */
function commonFields(form: FormData) {
  const num = (name: string) => formNumber(form, name);
  return {
    name: String(form.get("name") ?? ""),
    pool: String(form.get("pool") ?? "") as "expert" | "crowd",
    labelsPerItem: num("labelsPerItem"),
    guidelines: String(form.get("guidelines") ?? ""),
    config: {
      ...(num("seed") !== undefined ? { seed: num("seed") } : {}),
      ...(num("goldRate") !== undefined ? { goldRate: num("goldRate") } : {}),
      ...(num("leaseMinutes") !== undefined ? { leaseMinutes: num("leaseMinutes") } : {}),
    },
  };
}

/** Creates the study the "New study" form describes; returns its id or throws a 400 naming the field. */
export async function createStudyFromForm(db: Db, form: FormData): Promise<number> {
  const type = form.get("type");
  const common = commonFields(form);
  if (!isTaskTypeId(type)) throw badInput("Choose a study type", [{ path: "type", message: "required" }]);
  return TASK_SERVERS[type].createFromForm(db, form, common);
}
