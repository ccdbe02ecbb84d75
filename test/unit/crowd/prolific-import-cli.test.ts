/** `socrates prolific import` through the real CLI, on a real database file named by SOCRATES_DB. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { recordQualificationAttempt } from "../../../app/server/crowd/qualification.server.ts";
import {
  enterProlificSession,
  prolificStep,
  updateProlificSettings,
} from "../../../app/crowd-channels/prolific/sessions.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { toCsv } from "../../../app/domain/csv.ts";
import { seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { runCli } from "../../helpers/cli.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const STUDY = 2;
const PID = "5f1a2b3c4d5e6f7a8b9c0d1e";

describe("socrates prolific import", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let annotatorId = 0;
  const env = () => ({ SOCRATES_DB: t.path });
  const statuses = () =>
    (
      t.db.$client.prepare(`SELECT status FROM labels WHERE annotator_id = ? ORDER BY id`).all(annotatorId) as {
        status: string;
      }[]
    ).map((r) => r.status);

  beforeAll(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    await updateProlificSettings(t.db, STUDY, { completionCode: "C0DE42", itemsPerSession: "2" });
    const params = new URLSearchParams({
      study: String(STUDY),
      PROLIFIC_PID: PID,
      STUDY_ID: "60aa11bb22cc33dd44ee55ff",
      SESSION_ID: "64aa00000000000000000001",
    });
    annotatorId = (await enterProlificSession(t.db, STUDY, params)).annotatorId;
    const test = loadQualificationTest();
    await recordQualificationAttempt(
      t.db,
      annotatorId,
      test,
      Object.fromEntries(test.questions.map((q) => [q.id, q.answer])),
    );
    for (let i = 0; i < 2; i++) {
      const step = await prolificStep(t.db, STUDY, annotatorId);
      if (step.kind !== "task") throw new Error(`expected a task, got ${step.kind}`);
      await submitLabel(t.db, {
        studyId: STUDY,
        itemId: step.itemId,
        annotatorId,
        payload: await validConsensusLabel(t.db, step.itemId),
        clientToken: `cli-prolific-${i}`,
        secondsOnTask: 30,
      });
    }
  });
  afterAll(() => t.cleanup());

  const write = (name: string, rows: string[][]) => {
    const file = join(t.dir, name);
    writeFileSync(file, toCsv(["Submission id", "Participant id", "Status", "Completion code", "Time taken"], rows));
    return file;
  };

  it("explains itself in --help", () => {
    const r = runCli(["prolific", "import", "--help"]);
    expect(r.status).toBe(0);
    for (const text of ["<file>", "--study <id>", "--prolific-study", "--dry-run", "AWAITING REVIEW", "pending"])
      expect(r.stdout).toContain(text);
  });

  it("refuses a bad file with row and column, exit code 2, database untouched", async () => {
    const file = write("bad.csv", [["", PID, "APPROVED", "C0DE42", "60"]]);
    const before = await tableCounts(t.db);
    const r = runCli(["prolific", "import", "--study", String(STUDY), file], env());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file} row 2, column "Submission id": is empty`);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(runCli(["prolific", "import", "--study", String(STUDY), join(t.dir, "missing.csv")], env()).stderr).toMatch(
      /missing\.csv: cannot read file \(ENOENT\)/,
    );
  });

  it("a dry run writes nothing; the import confirms the session and its labels; a second run changes nothing", () => {
    const file = write("prolific_export.csv", [
      ["64aa00000000000000000001", PID, "AWAITING REVIEW", "C0DE42", "700"],
      ["64aa00000000000000000009", "5f00000000000000000000ff", "RETURNED", "", "30"],
    ]);
    const dry = runCli(["prolific", "import", "--study", String(STUDY), file, "--dry-run"], env());
    expect(dry.stderr).toBe("");
    expect(dry.stdout).toContain("2 rows read: would confirm 1 session; 2 labels counted, 0 surplus");
    expect(dry.stdout).toContain("dry run: nothing was written");
    expect(statuses()).toEqual(["pending", "pending"]);

    const real = runCli(["prolific", "import", "--study", String(STUDY), file], env());
    expect(real.status).toBe(0);
    expect(real.stdout).toContain(
      "2 rows read: confirmed 1 session; 2 labels counted, 0 surplus (the item already had its labels); 0 unchanged",
    );
    expect(real.stdout).toContain("1 row not matching any stored session");
    expect(statuses()).toEqual(["counted", "counted"]);

    const again = runCli(["prolific", "import", "--study", String(STUDY), file], env());
    expect(again.stdout).toContain(
      "confirmed 0 sessions; 0 labels counted, 0 surplus (the item already had its labels); 1 unchanged",
    );
  });
});
