/**
 * Study settings the dashboard changes in place: whether surplus labels (beyond k) enter the statistics, and the
 * minimum seconds on task below which labels are listed as fast.
 */
import { parseStudyConfig } from "../../domain/study-config.ts";
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { setStudyConfig } from "../models/study.server.ts";
import { getStudy } from "./studies.server.ts";

/**
 * Sets the study's `countSurplus` from a posted "true" or "false"; anything else is a 400 naming
 * the field, an unknown study a 404. Returns the value now stored.
 */
export async function setCountSurplus(db: Db, studyId: number, value: unknown): Promise<boolean> {
  const study = await getStudy(db, studyId);
  if (value !== "true" && value !== "false")
    throw badInput("countSurplus is true or false", [{ path: "countSurplus", message: "true or false" }]);
  const config = parseStudyConfig({ ...parseStudyConfig(study.config), countSurplus: value === "true" });
  await setStudyConfig(db, studyId, config);
  return config.countSurplus;
}

/**
 * Sets the study's `minSecondsOnTask` (labels faster than it are listed, and can be left out)
 * from a posted number of seconds, 0–3600; anything else is a 400 naming the field. Returns the
 * value now stored.
 */
export async function setMinSecondsOnTask(db: Db, studyId: number, value: unknown): Promise<number> {
  const study = await getStudy(db, studyId);
  const seconds = typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw badInput("The minimum seconds on task is a number from 0 to 3600", [
      { path: "minSecondsOnTask", message: "a number of seconds from 0 to 3600" },
    ]);
  }
  const config = parseStudyConfig({ ...parseStudyConfig(study.config), minSecondsOnTask: seconds });
  await setStudyConfig(db, studyId, config);
  return config.minSecondsOnTask;
}

/**
 * Sets the study's `targetHalfWidth` (the stopping rule's target, issue 33) from a posted number
 * above 0 and at most 1 (the 0–1 scale); anything else is a 400 naming the field. Returns the value now stored.
 */
export async function setTargetHalfWidth(db: Db, studyId: number, value: unknown): Promise<number> {
  const study = await getStudy(db, studyId);
  const target = typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(target) || target <= 0 || target > 1) {
    throw badInput("The target half-width is a number above 0 and at most 1", [
      { path: "targetHalfWidth", message: "a half-width above 0 and at most 1 (the 0–1 scale)" },
    ]);
  }
  const config = parseStudyConfig({ ...parseStudyConfig(study.config), targetHalfWidth: target });
  await setStudyConfig(db, studyId, config);
  return config.targetHalfWidth;
}
