/**
 * Issue 28, item 2: a judge backbone with no score on a study's expert-labelled units (it judged
 * a run of the study no expert has labelled) is hidden from the study's alignment table — the
 * dashboard, its backbone comparison and validate-evaluator's report — instead of showing as an
 * empty row that could be picked as a reference.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { BundleInput, Evaluation } from "../../../app/domain/bundle.ts";
import { evaluationId } from "../../../app/domain/evaluation-ids.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { itemsOfStudy } from "../../../app/server/models/study.server.ts";
import { ValidationInputError } from "../../../app/server/validation/evaluator-work.server.ts";
import { buildValidationReport } from "../../../app/server/validation/validate-evaluator.server.ts";
import { demoStudiesDb } from "../../helpers/demo-studies-db.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const EXPERT_STUDY = 1;

/** The demo judge's evaluation of a run, stored again under another backbone. */
async function judgeAgain(db: Db, runId: string, backbone: string): Promise<void> {
  const bundles = ["transactional", "healthcare", "environmental", "intra-organizational"].map(
    (d) => JSON.parse(readFileSync(`demo/demo-${d}.json`, "utf8")) as BundleInput,
  );
  const template = bundles
    .flatMap((b) => b.evaluations ?? [])
    .find((e) => e.run_id === runId && e.method === "topic-localized") as Evaluation;
  const evaluation = { ...template, id: evaluationId(runId, "topic-localized", backbone), backbone };
  await importBundleFiles(db, [
    {
      file: `${backbone}.json`,
      text: JSON.stringify({ format: "socrates-bundle", version: 1, evaluations: [evaluation] }),
    },
  ]);
}

async function alignmentBackbones(db: Db): Promise<string[]> {
  const d = await studyDashboard(db, EXPERT_STUDY);
  const table = "alignment" in d ? d.alignment : null;
  return table!.rows.flatMap((r) => (r.method === "evaluator" ? [r.backbone!] : []));
}

describe("judge backbones without a score on the study", () => {
  it("are hidden from the dashboard's alignment and comparison and from validate-evaluator's report", async () => {
    const t = await demoStudiesDb();
    cleanups.push(t.cleanup);
    const d = await studyDashboard(t.db, EXPERT_STUDY);
    const table = "alignment" in d ? d.alignment! : null;
    const labelled = new Set(table!.units.map((u) => u.runId));
    const runs = [...new Set((await itemsOfStudy(t.db, EXPERT_STUDY)).map((i) => i.runId!))];
    const unlabelled = runs.find((r) => !labelled.has(r));
    // The demo's experts label the first runs of the study only.
    expect(unlabelled).toBeDefined();
    await judgeAgain(t.db, unlabelled!, "judge-unscored");
    await judgeAgain(t.db, [...labelled][0], "judge-scored");

    expect(await alignmentBackbones(t.db)).toEqual(["demo-judge", "judge-scored"]);
    const view = await studyDashboard(t.db, EXPERT_STUDY);
    expect("alignment" in view && view.alignment!.rows.some((r) => r.backbone === "judge-unscored")).toBe(false);

    const report = await buildValidationReport(t.db, { studyId: EXPERT_STUDY, candidate: "judge-scored" });
    const printed = JSON.stringify(report.tables);
    expect(printed).toContain("judge-scored");
    expect(printed).not.toContain("judge-unscored");
    await expect(buildValidationReport(t.db, { studyId: EXPERT_STUDY, candidate: "judge-unscored" })).rejects.toThrow(
      ValidationInputError,
    );
  });
});
