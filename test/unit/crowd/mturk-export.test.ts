/**
 * `mturk export` on a seeded demo database (a real SQLite file): which items become HITs, what
 * the batch files hold, every refusal (expert, closed or finished study, underpaid reward, a
 * folder that already holds files) writing nothing, and the real CLI's output and exit codes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEDERAL_MINIMUM_WAGE_USD } from "../../../app/domain/crowd/hit-config.ts";
import { ANSWER_KEY_NS, QUESTION_FORM_NS } from "../../../app/domain/crowd/qualification-xml.ts";
import { parseCsv } from "../../../app/domain/csv.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { ServiceError } from "../../../app/server/http/errors.server.ts";
import { setStudyStatus } from "../../../app/server/annotation/studies.server.ts";
import { defaultExportDir, EXPORT_FILES, exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { runCli } from "../../helpers/cli.ts";
import { tempDb, tempDir } from "../../../harness/temp-db.ts";

describe("mturk export", async () => {
  const t = await tempDb();
  const out = tempDir("socrates-mturk-export-");
  const studies = { expert: 0, crowdConsensus: 0, crowdAb: 0 };
  let n = 0;
  const freshDir = () => join(out.dir, `batch-${++n}`);

  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    const rows = t.db.$client.prepare(`SELECT id, type, pool FROM studies ORDER BY id`).all() as {
      id: number;
      type: string;
      pool: string;
    }[];
    studies.expert = rows.find((s) => s.pool === "expert")!.id;
    studies.crowdConsensus = rows.find((s) => s.pool === "crowd" && s.type === "consensus-snippet")!.id;
    studies.crowdAb = rows.find((s) => s.pool === "crowd" && s.type === "ab-reactiveness")!.id;
  });
  afterAll(async () => {
    await t.cleanup();
    out.cleanup();
  });

  /** Latest-label counts per item, read with plain SQL (a second path, independent of the export's loaders). */
  function labelCounts(studyId: number) {
    return t.db.$client
      .prepare(
        `SELECT i.id, i.is_gold AS isGold, (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS labels FROM study_items i WHERE i.study_id = ? ORDER BY i.position`,
      )
      .all(studyId) as { id: number; isGold: number; labels: number }[];
  }

  it("orders only the missing labels per item (k minus those held), one input file per number, and leaves complete items out", async () => {
    const studyId = studies.crowdConsensus;
    const perItem = (
      t.db.$client.prepare(`SELECT labels_per_item AS k FROM studies WHERE id = ?`).get(studyId) as { k: number }
    ).k;
    const items = labelCounts(studyId);
    const done = items.filter((i) => i.labels >= perItem);
    const short = items.filter((i) => i.labels < perItem);
    const missing = new Map(short.map((i) => [i.id, perItem - i.labels]));
    // The demo labels some snippets fully, some partly and leaves others untouched: every case occurs.
    expect(done.length).toBeGreaterThan(0);
    expect(new Set(missing.values()).size).toBeGreaterThan(1);

    const dir = freshDir();
    const summary = await exportBatch(t.db, studyId, { outDir: dir, now: new Date("2030-01-02T03:04:05Z") });
    const needs = [...new Set(missing.values())].sort((a, b) => b - a);
    const inputFiles = needs.map((need) => `input-${need}-assignments.csv`);
    const otherFiles = Object.values(EXPORT_FILES).filter((f) => f !== EXPORT_FILES.inputCsv);
    expect(readdirSync(dir).sort()).toEqual([...otherFiles, ...inputFiles].sort());
    expect(summary).toMatchObject({
      studyId,
      studyType: "consensus-snippet",
      rows: short.length,
      leftOut: done.length,
      warnings: [],
    });
    expect(summary.order).toMatchObject({ items: short.length, complete: done.length, awaiting: 0 });

    // Each file holds exactly the items missing its number of labels, in study order.
    for (const batch of summary.batches) {
      const csv = parseCsv(readFileSync(batch.file, "utf8"));
      const itemColumn = csv.header.indexOf("item_id");
      const expected = short.filter((i) => missing.get(i.id) === batch.assignmentsPerHit).map((i) => i.id);
      expect(
        csv.records.map((r) => Number(r.fields[itemColumn])),
        batch.file,
      ).toEqual(expected);
      expect(batch.rows).toBe(expected.length);
    }
    expect(summary.batches.map((b) => b.assignmentsPerHit)).toEqual(needs);
    expect(summary.files.inputCsv).toBe(summary.batches[0].file);

    const assignments = [...missing.values()].reduce((a, b) => a + b, 0);
    expect(summary.estimate.assignments).toBe(assignments);
    expect(summary.estimate.assignments).toBeLessThan(short.length * perItem);
    const config = JSON.parse(readFileSync(summary.files.hitConfig, "utf8"));
    expect(config).toMatchObject({
      MaxAssignments: needs[0],
      Reward: summary.settings.rewardUsd.toFixed(2),
      Batch: { StudyId: studyId, Rows: short.length, LeftOut: done.length, ExportedAt: "2030-01-02T03:04:05.000Z" },
    });
    expect(config.Batch.InputFiles).toEqual(
      summary.batches.map((b) => ({
        File: b.file.slice(dir.length + 1),
        MaxAssignments: b.assignmentsPerHit,
        Rows: b.rows,
      })),
    );
    expect(config.Batch.Order).toBe(
      `${assignments} assignments for ${short.length} items missing labels; ${done.length} items already complete`,
    );
    expect(config.QualificationRequirements.map((q: { QualificationTypeId: string }) => q.QualificationTypeId)).toEqual(
      ["000000000000000000L0", "00000000000000000040", "00000000000000000071"],
    );
    expect(config.Estimate).toEqual(summary.estimate);
    expect(summary.estimate.rewardsTotalUsd).toBeCloseTo(assignments * summary.settings.rewardUsd, 6);
    expect(summary.estimate.hourlyWageUsd).toBeGreaterThanOrEqual(FEDERAL_MINIMUM_WAGE_USD);

    const test = loadQualificationTest();
    const questions = readFileSync(summary.files.qualificationTest, "utf8");
    const key = readFileSync(summary.files.answerKey, "utf8");
    expect(questions).toContain(QUESTION_FORM_NS);
    expect(key).toContain(ANSWER_KEY_NS);
    expect(questions.match(/<Question>/g)).toHaveLength(test.questions.length);
    expect(key).toContain(`<MaximumSummedScore>${test.questions.length}</MaximumSummedScore>`);
  });

  it("passes the HIT options through to hit-config.json", async () => {
    const summary = await exportBatch(t.db, studies.crowdConsensus, {
      outDir: freshDir(),
      overrides: {
        rewardUsd: 0.9,
        minPercentApproved: 95,
        minApprovedHits: 500,
        locale: "GB",
        minQualificationScore: 60,
        qualificationTypeId: "3QUALTYPEID",
      },
    });
    const config = JSON.parse(readFileSync(summary.files.hitConfig, "utf8"));
    expect(config.Reward).toBe("0.90");
    expect(config.PendingQualification).toBeNull();
    expect(config.QualificationRequirements).toEqual([
      {
        QualificationTypeId: "000000000000000000L0",
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [95],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: "00000000000000000040",
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [500],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: "00000000000000000071",
        Comparator: "EqualTo",
        LocaleValues: [{ Country: "GB" }],
        ActionsGuarded: "Accept",
      },
      {
        QualificationTypeId: "3QUALTYPEID",
        Comparator: "GreaterThanOrEqualTo",
        IntegerValues: [60],
        ActionsGuarded: "Accept",
      },
    ]);
  });

  /** Runs an export that must be refused, and checks that it wrote nothing. */
  async function refused(
    studyId: number,
    options: Partial<Parameters<typeof exportBatch>[2]> = {},
  ): Promise<ServiceError> {
    const dir = freshDir();
    try {
      await exportBatch(t.db, studyId, { outDir: dir, ...options });
    } catch (err) {
      expect(err).toBeInstanceOf(ServiceError);
      expect(existsSync(dir), "nothing is written").toBe(false);
      return err as ServiceError;
    }
    throw new Error("the export was not refused");
  }

  it("refuses an expert study, a closed study and a study with nothing left to label", async () => {
    expect((await refused(studies.expert)).message).toMatch(/expert study; only crowd studies go to Mechanical Turk/);
    await setStudyStatus(t.db, studies.crowdConsensus, "closed");
    try {
      expect((await refused(studies.crowdConsensus)).message).toMatch(/is closed; reopen it/);
    } finally {
      await setStudyStatus(t.db, studies.crowdConsensus, "open");
    }
    // The demo's A/B study is fully labelled.
    expect(labelCounts(studies.crowdAb).every((i) => i.labels >= 3)).toBe(true);
    expect((await refused(studies.crowdAb)).message).toMatch(
      /Nothing to export: all 16 items of study \d+ already have 3 counted labels/,
    );
    expect((await refused(999)).status).toBe(404);
  });

  it("refuses a reward below the federal minimum wage unless forced", async () => {
    const underpaid = { rewardUsd: 0.05, secondsPerItem: 120 };
    const err = await refused(studies.crowdConsensus, { overrides: underpaid });
    expect(err.status).toBe(400);
    expect(err.message).toMatch(
      /\$0\.05 at 120 s per assignment pays \$1\.50\/h, below the U\.S\. federal minimum wage of \$7\.25\/h/,
    );
    const forced = await exportBatch(t.db, studies.crowdConsensus, {
      outDir: freshDir(),
      overrides: underpaid,
      force: true,
    });
    expect(forced.estimate.hourlyWageUsd).toBeCloseTo(1.5, 10);
    expect(forced.warnings).toEqual([expect.stringMatching(/pays \$1\.50\/h, below .* \(forced\)$/)]);
    expect(JSON.parse(readFileSync(forced.files.hitConfig, "utf8")).Reward).toBe("0.05");
  });

  it("never writes into a folder that already holds files, and accepts an empty one", async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "earlier batch");
    await expect(exportBatch(t.db, studies.crowdConsensus, { outDir: dir })).rejects.toThrowError(
      /already exists and is not empty/,
    );
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("earlier batch");

    const empty = freshDir();
    mkdirSync(empty);
    expect((await exportBatch(t.db, studies.crowdConsensus, { outDir: empty })).rows).toBeGreaterThan(0);

    // An empty folder reached through a symbolic link is refused too (issue 29).
    const target = freshDir();
    mkdirSync(target);
    const linked = freshDir();
    symlinkSync(target, linked);
    await expect(exportBatch(t.db, studies.crowdConsensus, { outDir: linked })).rejects.toThrowError(
      /is a symbolic link; refusing to write through it/,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it("names the default folder after the study and the time (UTC)", () => {
    expect(defaultExportDir(4, new Date("2031-12-09T08:07:06.123Z"))).toBe(
      join("exports", "mturk", "study-4-20311209-080706"),
    );
  });

  describe("the CLI", () => {
    const env = () => ({ SOCRATES_DB: t.path });

    it("writes the batch and prints rows, left-out items, files, cost and hourly wage", () => {
      const dir = freshDir();
      const result = runCli(
        ["mturk", "export", "--study", String(studies.crowdConsensus), "--out", dir, "--reward", "0.40"],
        env(),
      );
      expect(result.stderr).not.toMatch(/error|warning/);
      expect(result.status).toBe(0);
      const short = labelCounts(studies.crowdConsensus).filter((i) => i.labels < 3);
      const complete = labelCounts(studies.crowdConsensus).length - short.length;
      const missing = short.reduce((n, i) => n + 3 - i.labels, 0);
      const estimate = JSON.parse(readFileSync(join(dir, "hit-config.json"), "utf8")).Estimate;
      expect(result.stdout).toContain(`wrote ${short.length} HITs to ${dir}/`);
      expect(result.stdout).toContain(`left out ${complete} items: ${complete} already hold all counted labels`);
      for (const file of Object.values(EXPORT_FILES).filter((f) => f !== EXPORT_FILES.inputCsv))
        expect(result.stdout).toContain(join(dir, file));
      expect(result.stdout).toMatch(
        new RegExp(
          `${join(dir, "input-3-assignments.csv")} +\\d+ HITs: upload as one batch with 3 assignments per task`,
        ),
      );
      expect(result.stdout).toContain(
        `estimated cost: ${missing} assignments for ${short.length} items missing labels; ${complete} items already complete: ${missing} × $0.40 = $${estimate.rewardsTotalUsd.toFixed(2)} rewards + $${estimate.feesTotalUsd.toFixed(2)} MTurk fees = $${estimate.totalUsd.toFixed(2)} total`,
      );
      expect(result.stdout).toMatch(
        new RegExp(
          `implied hourly wage: \\$${estimate.hourlyWageUsd.toFixed(2)}/h at \\d+ s per assignment \\(median of \\d+ timed labels in study ${studies.crowdConsensus}\\)`,
        ),
      );
    });

    it("exits 2 with the reason on bad input, and --force lets an underpaid batch through with a warning", () => {
      const dir = freshDir();
      const underpaid = runCli(
        ["mturk", "export", "--study", String(studies.crowdConsensus), "--out", dir, "--reward", "0.02"],
        env(),
      );
      expect(underpaid.status).toBe(2);
      expect(underpaid.stderr).toMatch(
        /refused, nothing was written: .*below the U\.S\. federal minimum wage of \$7\.25\/h\. Raise --reward, or pass --force/,
      );
      expect(existsSync(dir)).toBe(false);

      const forced = runCli(
        ["mturk", "export", "--study", String(studies.crowdConsensus), "--out", dir, "--reward", "0.02", "--force"],
        env(),
      );
      expect(forced.status).toBe(0);
      expect(forced.stderr).toMatch(/warning: .*below the U\.S\. federal minimum wage .*\(forced\)/);
      expect(readdirSync(dir)).toEqual(
        expect.arrayContaining([EXPORT_FILES.hitConfig, EXPORT_FILES.template, "input-3-assignments.csv"]),
      );

      const cases: [string[], RegExp][] = [
        [["--study", String(studies.expert)], /expert study/],
        [["--study", "999"], /Study 999 does not exist/],
        [["--study", "two"], /--study must be a whole number/],
        [["--study", String(studies.crowdConsensus), "--locale", "usa"], /locale: a two-letter country code/],
        [["--study", String(studies.crowdConsensus), "--reward", "free"], /--reward must be an amount in USD/],
        [["--study", String(studies.crowdConsensus), "--out", dir], /already exists and is not empty/],
      ];
      for (const [args, message] of cases) {
        const result = runCli(["mturk", "export", "--out", freshDir(), ...args], env());
        expect(result.status, args.join(" ")).toBe(2);
        expect(result.stderr, args.join(" ")).toMatch(message);
      }
    });

    it("documents itself in --help", () => {
      const help = runCli(["mturk", "export", "--help"], env());
      expect(help.status).toBe(0);
      for (const option of ["--study <id>", "--out <dir>", "--reward <usd>", "--min-approval-rate", "--force"])
        expect(help.stdout).toContain(option);
    });
  });
});
