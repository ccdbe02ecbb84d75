/**
 * The admin's study list and its "New study" form: the overview it shows, and turning the posted
 * form (with an optional bundle upload for A/B studies) into a new study.
 */
import type { Db } from "../db.server.ts";
import { BundleImportError, importBundleFiles } from "../bundle-store.server.ts";
import { badInput } from "../http/errors.server.ts";
import { abPairCount } from "../models/ab-pair.server.ts";
import { labelCountsByStudy } from "../models/label.server.ts";
import { evaluatedTrajectoryCount } from "../models/run.server.ts";
import { defaultGuidelines } from "../templates.server.ts";
import { createAbStudy, createConsensusStudy, listStudies } from "./studies.server.ts";

/** Every study with its label count, what new studies can draw on, and the default guidelines per type. */
export function studiesOverview(db: Db) {
  const labels = labelCountsByStudy(db);
  return {
    studies: listStudies(db).map((s) => ({ ...s, labels: labels.get(s.id) ?? 0 })),
    available: { trajectories: evaluatedTrajectoryCount(db), pairs: abPairCount(db) },
    defaultGuidelines: defaultGuidelines(),
  };
}

const num = (form: FormData, name: string): number | undefined => {
  const v = form.get(name);
  return v === null || v === "" ? undefined : Number(v);
};

/** The fields every study type shares. */
function commonFields(form: FormData) {
  return {
    name: String(form.get("name") ?? ""),
    pool: String(form.get("pool") ?? "") as "expert" | "crowd",
    labelsPerItem: num(form, "labelsPerItem"),
    guidelines: String(form.get("guidelines") ?? ""),
    config: {
      ...(num(form, "seed") !== undefined ? { seed: num(form, "seed") } : {}),
      ...(num(form, "goldRate") !== undefined ? { goldRate: num(form, "goldRate") } : {}),
      ...(num(form, "leaseMinutes") !== undefined ? { leaseMinutes: num(form, "leaseMinutes") } : {}),
    },
  };
}

/** Imports an uploaded bundle (all or nothing) and returns the A/B pair ids it carries. */
function importUploadedPairs(db: Db, file: { name: string; text: string }): string[] {
  try {
    importBundleFiles(db, [{ file: file.name || "upload.json", text: file.text }]);
  } catch (err) {
    if (!(err instanceof BundleImportError)) throw err;
    throw badInput(
      `The bundle was not imported (${err.problems.length} problems)`,
      err.problems.slice(0, 20).map((p) => ({ path: `${p.file}: ${p.path}`, message: p.message })),
    );
  }
  // Just imported, hence valid JSON with valid records.
  const pairIds = ((JSON.parse(file.text) as { ab_pairs?: { id: string }[] }).ab_pairs ?? []).map((p) => p.id);
  if (pairIds.length === 0) throw badInput("The uploaded bundle has no ab_pairs", [{ path: "bundle", message: "no A/B pairs" }]);
  return pairIds;
}

/** Creates the study the "New study" form describes; returns its id or throws a 400 naming the field. */
export async function createStudyFromForm(db: Db, form: FormData): Promise<number> {
  const type = form.get("type");
  const common = commonFields(form);
  if (type === "consensus-snippet") {
    return createConsensusStudy(db, { ...common, trajectories: num(form, "trajectories") ?? Number.NaN, goldFromStudyId: num(form, "goldFromStudyId") });
  }
  if (type !== "ab-reactiveness") throw badInput("Choose a study type", [{ path: "type", message: "required" }]);
  let pairIds = String(form.get("pairIds") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  // A bundle uploaded with the form is imported first; its pairs become the items.
  const upload = form.get("bundle");
  if (upload instanceof File && upload.size > 0) {
    const bundlePairs = importUploadedPairs(db, { name: upload.name, text: await upload.text() });
    pairIds = [...new Set([...pairIds, ...bundlePairs])];
  }
  return createAbStudy(db, { ...common, pairIds: pairIds.length ? pairIds : undefined });
}
