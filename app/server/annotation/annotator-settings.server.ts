/**
 * An annotator's own task-page settings, stored on their account: auto-advance (a single-choice answer submits and
 * moves on at once; off by default) and their keys for the task shortcuts, per task type (domain/hotkeys.ts). Read by
 * the task page, changed on the settings page's POSTs.
 */
import { z } from "zod";
import {
  bindShortcuts,
  pageShortcutTable,
  readKeyBindings,
  writtenKeys,
  type HotkeySettings,
  type KeyOverrides,
} from "../../domain/hotkeys.ts";
import { TASK_TYPE_IDS, isTaskTypeId, taskTypeName, type TaskTypeId } from "../../task-types/registry.ts";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { findAnnotator, updateAnnotator } from "../models/annotator.server.ts";
import { transact } from "../db-transaction.server.ts";

export interface TaskSettings {
  autoAdvance: boolean;
  hotkeys: HotkeySettings;
}

// What a stored value must look like to be used; anything else reads as "no changes" (the defaults).
const storedHotkeys = z.record(z.string(), z.record(z.string(), z.array(z.string())));

export async function taskSettings(db: Db, user: SessionUser): Promise<TaskSettings> {
  const row = await findAnnotator(db, user.id);
  const hotkeys = storedHotkeys.safeParse(row?.hotkeys ?? {});
  return { autoAdvance: row?.autoAdvance ?? false, hotkeys: hotkeys.success ? hotkeys.data : {} };
}

// A checkbox posts "on" when ticked and nothing otherwise.
const settingsForm = z.object({ autoAdvance: z.enum(["on"]).nullable() });

export async function saveTaskSettings(
  db: Db,
  user: SessionUser,
  form: { autoAdvance: unknown },
): Promise<{ autoAdvance: boolean }> {
  const parsed = settingsForm.safeParse(form);
  if (!parsed.success) throw badInput("The settings are not valid", [{ path: "autoAdvance", message: "on or absent" }]);
  const autoAdvance = parsed.data.autoAdvance === "on";
  await transact(db, async (db) => await updateAnnotator(db, user.id, { autoAdvance }));
  return { autoAdvance };
}

function postedType(value: unknown): TaskTypeId {
  if (!isTaskTypeId(value)) throw badInput("Unknown task type", [{ path: "taskType", message: "not a task type" }]);
  return value;
}

/**
 * Stores the annotator's keys for one task type from the posted `keys.<command>` fields; a form with any problem
 * stores nothing and is refused with every problem by field.
 */
export async function saveHotkeys(
  db: Db,
  user: SessionUser,
  form: { taskType: unknown; fields: Record<string, string> },
): Promise<{ taskType: TaskTypeId }> {
  const kind = postedType(form.taskType);
  const { overrides, problems } = readKeyBindings(kind, form.fields);
  if (problems.length > 0)
    throw badInput(
      `Your keys for ${taskTypeName(kind)} were not saved: ${problemCount(problems.length)}`,
      // Named by task type too: the page has one form per type, with the same commands in several.
      problems.map((p) => ({ ...p, path: `${kind}.${p.path}` })),
    );
  await writeHotkeys(db, user, kind, overrides);
  return { taskType: kind };
}

/** The posted `keys.<command>` fields of a settings form. */
export function keyFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) if (name.startsWith("keys.")) fields[name] = String(value);
  return fields;
}

/** Gives one task type its default keys back. */
export async function resetHotkeys(db: Db, user: SessionUser, taskType: unknown): Promise<{ taskType: TaskTypeId }> {
  const kind = postedType(taskType);
  await writeHotkeys(db, user, kind, {});
  return { taskType: kind };
}

const problemCount = (n: number) => (n === 1 ? "1 problem, marked below." : `${n} problems, marked below.`);

async function writeHotkeys(db: Db, user: SessionUser, kind: TaskTypeId, overrides: KeyOverrides): Promise<void> {
  await transact(db, async (db) => {
    const { [kind]: _old, ...others } = (await taskSettings(db, user)).hotkeys;
    const hotkeys = Object.keys(overrides).length > 0 ? { ...others, [kind]: overrides } : others;
    await updateAnnotator(db, user.id, { hotkeys: hotkeys as Record<string, Record<string, string[]>> });
  });
}

/** The settings page's keys: per task type, each shortcut with the annotator's keys and the defaults. */
export function hotkeyTables(settings: TaskSettings) {
  return TASK_TYPE_IDS.map((kind) => {
    const defaults = pageShortcutTable(kind);
    const bound = bindShortcuts(defaults, settings.hotkeys[kind]);
    return {
      id: kind,
      name: taskTypeName(kind),
      changed: Object.keys(settings.hotkeys[kind] ?? {}).length > 0,
      shortcuts: bound.map((s, i) => ({
        command: s.command,
        description: s.description,
        group: s.group,
        written: writtenKeys(s.keys),
        defaults: [...defaults[i].keys],
        positional: s.positional === true,
        fixed: s.fixed === true,
      })),
    };
  });
}
