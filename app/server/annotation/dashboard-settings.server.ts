/** Study settings the dashboard changes in place: whether surplus labels (beyond k) enter the statistics. */
import { parseStudyConfig } from "../../domain/study-config.ts";
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { setStudyConfig } from "../models/study.server.ts";
import { getStudy } from "./studies.server.ts";

/**
 * Sets the study's `countSurplus` from a posted "true" or "false"; anything else is a 400 naming
 * the field, an unknown study a 404. Returns the value now stored.
 */
export function setCountSurplus(db: Db, studyId: number, value: unknown): boolean {
  const study = getStudy(db, studyId);
  if (value !== "true" && value !== "false") throw badInput("countSurplus is true or false", [{ path: "countSurplus", message: "true or false" }]);
  const config = parseStudyConfig({ ...parseStudyConfig(study.config), countSurplus: value === "true" });
  setStudyConfig(db, studyId, config);
  return config.countSurplus;
}
