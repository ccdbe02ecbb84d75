/**
 * The admin's study list and its "New study" form: the overview it shows, and turning the posted
 * form into a new study (each type reads its own fields: task-types/<id>.server.ts).
 */
import { TASK_TYPE_IDS, isTaskTypeId, type TaskTypeId } from "../../task-types/registry.ts";
import type { StudyFormChoices } from "../../task-types/study-form.ts";
import type { Db } from "../db.server.ts";
import { badInput, ServiceError, type FieldProblem } from "../http/errors.server.ts";
import { itemsOfStudy } from "../models/study.server.ts";
import { matchesText, parseSort, sortRows } from "../../domain/table-sort.ts";
import { labelCountsByStudy, labelStatusCounts } from "../models/label.server.ts";
import { defaultGuidelines } from "../templates.server.ts";
import { listStudies } from "./studies.server.ts";
import { formNumber } from "./new-study.server.ts";
import type { TaskTypeServer } from "../../task-types/handler.server.ts";
import { TASK_SERVERS } from "../../task-types/registry.server.ts";
import { transact } from "../db-transaction.server.ts";

async function formChoicesOf(db: Db, id: TaskTypeId): Promise<StudyFormChoices> {
  const server: TaskTypeServer<TaskTypeId> = TASK_SERVERS[id];
  return (await server.formChoices?.(db)) ?? {};
}

export const STUDY_SORT_KEYS = [
  "id",
  "name",
  "type",
  "pool",
  "items",
  "labelsPerItem",
  "labels",
  "progress",
  "status",
] as const;

/**
 * The studies with their label counts and progress (counted labels of the items × k needed), filtered and sorted as the
 * query string asks.
 */
async function studyRows(db: Db, params: URLSearchParams) {
  const labels = await labelCountsByStudy(db);
  const sort = parseSort(params, STUDY_SORT_KEYS, { key: "id", dir: "asc" });
  const filter = { q: params.get("q") ?? "", type: params.get("type") ?? "", status: params.get("status") ?? "" };
  const rows = await Promise.all(
    (await listStudies(db))
      .filter(
        (s) =>
          matchesText(filter.q, s.name, String(s.id)) &&
          (!filter.type || s.type === filter.type) &&
          (!filter.status || s.status === filter.status),
      )
      .map(async (s) => {
        const needed = s.items * s.labelsPerItem;
        const done = (await labelStatusCounts(db, s.id)).counted ?? 0;
        return { ...s, labels: labels.get(s.id) ?? 0, done, needed, progress: needed ? done / needed : 0 };
      }),
  );
  return { studies: sortRows(rows, sort, (row, key) => row[key]), sort, filter };
}

/**
 * The study list (filtered and sorted by `params`), what new studies of each type can draw on, and the default
 * guidelines per type.
 */
export async function studiesOverview(db: Db, params = new URLSearchParams()) {
  return {
    ...(await studyRows(db, params)),
    available: Object.fromEntries(
      await Promise.all(TASK_TYPE_IDS.map(async (id) => [id, await TASK_SERVERS[id].available(db)])),
    ) as Record<TaskTypeId, number>,
    choices: Object.fromEntries(
      await Promise.all(TASK_TYPE_IDS.map(async (id) => [id, await formChoicesOf(db, id)])),
    ) as Record<TaskTypeId, StudyFormChoices>,
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
      // A checkbox posts "on" when ticked and nothing otherwise.
      ...(form.get("goldFeedback") === "on" ? { goldFeedback: true } : {}),
    },
  };
}

/** A problem's path as the form names its field (the schema keeps the settings under `config`). */
const asFormField = (problem: FieldProblem): FieldProblem => ({
  ...problem,
  path: problem.path.replace(/^config\./, ""),
});

/** Runs a creation, reporting its field problems under the form's field names. */
async function withFormFields<T>(create: () => T | Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (err instanceof ServiceError) throw new ServiceError(err.status, err.message, err.problems.map(asFormField));
    throw err;
  }
}

function formType(form: FormData): TaskTypeId {
  const type = form.get("type");
  if (!isTaskTypeId(type)) throw badInput("Choose a study type", [{ path: "type", message: "choose a study type" }]);
  return type;
}

/** Creates the study the "New study" form describes; returns its id or throws a 400 naming the field. */
export async function createStudyFromForm(db: Db, form: FormData): Promise<number> {
  return withFormFields(() => TASK_SERVERS[formType(form)].createFromForm(db, form, commonFields(form)));
}

export interface StudyPreview {
  items: number;
  gold: number;
  /**
   * A/B studies: an uploaded bundle's pairs are only counted once the study is created (the preview imports nothing).
   */
  uploadIgnored: boolean;
}

/** How many items (and gold items) the form's study would have: the real creation, rolled back. */
export async function previewStudyFromForm(db: Db, form: FormData): Promise<StudyPreview> {
  const upload = form.get("bundle");
  const preview = async (db: Db): Promise<StudyPreview> => {
    const items = await itemsOfStudy(
      db,
      await TASK_SERVERS[formType(form)].createFromFields(db, form, commonFields(form)),
    );
    return {
      items: items.length,
      gold: items.filter((i) => i.isGold).length,
      uploadIgnored: upload instanceof File && upload.size > 0,
    };
  };
  return withFormFields(async () => await transact(db, preview, { dryRun: true }));
}
