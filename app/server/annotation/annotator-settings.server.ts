/**
 * An annotator's own task-page settings, stored on their account: auto-advance (a single-choice answer submits and
 * moves on at once; off by default). Read by the task page, changed on the settings page's POST.
 */
import { z } from "zod";
import type { SessionUser } from "../auth/session.server.ts";
import { writeTransaction, type Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { findAnnotator, updateAnnotator } from "../models/annotator.server.ts";

export interface TaskSettings {
  autoAdvance: boolean;
}

export function taskSettings(db: Db, user: SessionUser): TaskSettings {
  return { autoAdvance: findAnnotator(db, user.id)?.autoAdvance ?? false };
}

// A checkbox posts "on" when ticked and nothing otherwise.
const settingsForm = z.object({ autoAdvance: z.enum(["on"]).nullable() });

export function saveTaskSettings(db: Db, user: SessionUser, form: { autoAdvance: unknown }): TaskSettings {
  const parsed = settingsForm.safeParse(form);
  if (!parsed.success) throw badInput("The settings are not valid", [{ path: "autoAdvance", message: "on or absent" }]);
  const autoAdvance = parsed.data.autoAdvance === "on";
  writeTransaction(db, () => updateAnnotator(db, user.id, { autoAdvance }));
  return { autoAdvance };
}
