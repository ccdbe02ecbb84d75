/** `socrates mturk import` through the real CLI, on a real database file named by SOCRATES_DB. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../../app/domain/csv.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { playedScenarioOfRun, snippetContext } from "../../../app/server/annotation/task-view.server.ts";
import { exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { runCli } from "../../helpers/cli.ts";
import { studyItemIds } from "../../../app/server/models/study.server.ts";
import {
  consensusAnswers,
  exportedInput,
  mturkResultsCsv,
  type InputCsv,
  type WorkerAssignment,
} from "../../../harness/mturk-results.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const STUDY = 2;

describe("socrates mturk import", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let input: InputCsv;
  let assignments: WorkerAssignment[];
  const env = () => ({ SOCRATES_DB: t.path });

  beforeAll(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    const batch = await exportBatch(t.db, STUDY, { outDir: join(t.dir, "batch") });
    input = exportedInput(batch.batches, await studyItemIds(t.db, STUDY));
    const itemAt = input.header.indexOf("item_id");
    assignments = [];
    for (const hit of [0, 1]) {
      const itemId = Number(input.rows[hit][itemAt]);
      const item = t.db.$client.prepare(`SELECT snippet_id AS s FROM study_items WHERE id = ?`).get(itemId) as {
        s: number;
      };
      const scenario = (await playedScenarioOfRun(t.db, (await snippetContext(t.db, item.s)).runId)).body;
      assignments.push(
        ...(await Promise.all(
          ["A1CLI", "A2CLI"].map(async (workerId, w) => ({
            hit,
            workerId,
            status: hit === 1 && w === 1 ? ("Rejected" as const) : ("Submitted" as const),
            workSeconds: 80 + w,
            answers: consensusAnswers(itemId, scenario, await validConsensusLabel(t.db, itemId, 2 + w)),
          })),
        )),
      );
    }
  });
  afterAll(() => t.cleanup());

  it("explains itself in --help", () => {
    const r = runCli(["mturk", "import", "--help"]);
    expect(r.status).toBe(0);
    for (const text of [
      "--study <id>",
      "--file <path>",
      "--review-out <path>",
      "--dry-run",
      "WorkTimeInSeconds",
      "Upload CSV",
    ])
      expect(r.stdout).toContain(text);
  });

  it("refuses a bad file listing every problem with its line, exit code 2, database untouched", async () => {
    const bad = assignments.map((a, i) =>
      i === 0 ? { ...a, answers: "[{oops" } : i === 2 ? { ...a, answers: "" } : a,
    );
    const file = join(t.dir, "Batch_bad_batch_results.csv");
    writeFileSync(file, mturkResultsCsv(input, bad));
    const before = await tableCounts(t.db);
    const r = runCli(["mturk", "import", "--study", String(STUDY), "--file", file], env());
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/import refused, nothing was written \(2 problems\)/);
    expect(r.stderr).toMatch(
      new RegExp(
        `${file.replace(/[.]/g, "\\.")} line 2 \\(assignment \\w+\\): Answer\\.taskAnswers: is not valid JSON`,
      ),
    );
    expect(r.stderr).toMatch(/line \d+ \(assignment \w+\): Answer\.taskAnswers: is empty/);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(existsSync(join(t.dir, "Batch_bad_batch_results.review.csv"))).toBe(false);
  });

  it("a dry run reports and writes nothing", async () => {
    const file = join(t.dir, "Batch_dry_batch_results.csv");
    writeFileSync(file, mturkResultsCsv(input, assignments));
    const before = await tableCounts(t.db);
    const r = runCli(["mturk", "import", "--study", String(STUDY), "--file", file, "--dry-run"], env());
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("would store 3 new labels");
    // The first HIT's item already holds two counted labels (k = 3): its second new label is surplus.
    expect(r.stdout).toContain(
      "surplus: 1 label beyond the item's labels per item (k) would be stored as surplus, left out of the statistics unless the study counts surplus",
    );
    expect(r.stdout).toContain(
      "dry run: nothing was written; the review file would hold 3 approvals, 0 rejections, 1 already reviewed on MTurk",
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect(existsSync(join(t.dir, "Batch_dry_batch_results.review.csv"))).toBe(false);
  });

  it("imports, writes the review file next to the results, and a second run adds nothing", async () => {
    const file = join(t.dir, "Batch_42_batch_results.csv");
    writeFileSync(file, mturkResultsCsv(input, assignments));
    const before = await tableCounts(t.db);
    const r = runCli(["mturk", "import", "--study", String(STUDY), "--file", file], env());
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      "4 assignments read: stored 3 new labels and 0 revisions; 0 already imported and unchanged;",
    );
    expect(r.stdout).toContain(
      "1 rejected on MTurk (recorded, answers not used); 0 assignments with a new status; 2 new workers",
    );
    expect(r.stdout).toContain("surplus: 1 label beyond the item's labels per item (k) was stored as surplus");
    const reviewPath = join(t.dir, "Batch_42_batch_results.review.csv");
    expect(r.stdout).toContain(`review file: ${reviewPath} (3 approvals, 0 rejections, 1 already reviewed on MTurk)`);
    const after = await tableCounts(t.db);
    expect(after.labels - before.labels).toBe(3);
    const review = parseCsv(readFileSync(reviewPath, "utf8"));
    expect(review.records.map((rec) => rec.fields[review.header.indexOf("Approve")])).toEqual(["x", "x", "x", ""]);

    const other = join(t.dir, "elsewhere.csv");
    const again = runCli(["mturk", "import", "--study", String(STUDY), "--file", file, "--review-out", other], env());
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("stored 0 new labels and 0 revisions; 3 already imported and unchanged;");
    expect(await tableCounts(t.db)).toEqual(after);
    expect(readFileSync(other, "utf8")).toBe(readFileSync(reviewPath, "utf8"));
  });

  it("names an unreadable file and a study that is not a crowd study", () => {
    const missing = runCli(["mturk", "import", "--study", String(STUDY), "--file", join(t.dir, "nope.csv")], env());
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nope\.csv: cannot read file \(ENOENT\)/);
    const file = join(t.dir, "Batch_expert_batch_results.csv");
    writeFileSync(file, mturkResultsCsv(input, assignments));
    const expert = runCli(["mturk", "import", "--study", "1", "--file", file], env());
    expect(expert.status).toBe(2);
    expect(expert.stderr).toMatch(/Study 1 is an expert study/);
  });
});
