/**
 * Prolific sessions are confirmed only by Prolific's own submissions export. On a real SQLite
 * file with the demo studies: a forged PROLIFIC_PID session labels items; its labels are stored
 * pending and left out of alpha and alignment until an export that lists it is imported; an
 * export that does not list it (or lists it as returned, or with another completion code, or
 * under another participant) leaves it pending. The import is all-or-nothing and idempotent.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { statusForNewLabel } from "../../../app/server/annotation/label-status.server.ts";
import { transact } from "../../../app/server/db-transaction.server.ts";
import { writeLabelRevision } from "../../../app/server/models/label.server.ts";
import { recordQualificationAttempt } from "../../../app/server/crowd/qualification.server.ts";
import {
  enterProlificSession,
  prolificSessionCounts,
  prolificStep,
  updateProlificSettings,
} from "../../../app/crowd-channels/prolific/sessions.server.ts";
import { importProlificExport, ProlificImportError } from "../../../app/crowd-channels/prolific/import.server.ts";
import { loadQualificationTest } from "../../../app/server/templates.server.ts";
import { toCsv } from "../../../app/domain/csv.ts";
import { addAnnotator, validConsensusLabel } from "../../../harness/annotation.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const EXPERT = 1;
const CROWD = 2; // consensus, k = 3, half the items still open
const CODE = "C0DE42";
const PROLIFIC_STUDY = "60aa11bb22cc33dd44ee55ff";

/** Prolific's export header today (a shortened set of its demographic columns included). */
const HEADER = [
  "Submission id",
  "Participant id",
  "Status",
  "Custom study tncs accepted at",
  "Started at",
  "Completed at",
  "Reviewed at",
  "Archived at",
  "Time taken",
  "Completion code",
  "Total approvals",
  "Age",
  "Sex",
];
interface ExportRow {
  session: string;
  pid: string;
  status?: string;
  code?: string;
}
const exportCsv = (rows: ExportRow[]) =>
  toCsv(
    HEADER,
    rows.map((r) => [
      r.session,
      r.pid,
      r.status ?? "AWAITING REVIEW",
      "",
      "2026-03-02T10:00:00.000Z",
      "2026-03-02T10:20:00.000Z",
      "",
      "2026-03-02T10:20:00.000Z",
      "1200",
      r.code ?? CODE,
      "112",
      "34",
      "Female",
    ]),
  );

describe("Prolific export import", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  const test = loadQualificationTest();
  const rightAnswers = Object.fromEntries(test.questions.map((q) => [q.id, q.answer]));

  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
    await updateProlificSettings(t.db, CROWD, { completionCode: CODE, itemsPerSession: "2" });
  });
  afterEach(() => t.cleanup());

  /** A participant enters with these ids, passes the test and labels `n` items with every topic scored `score`. */
  async function participant(pid: string, session: string, n: number, score: number) {
    const params = new URLSearchParams({
      study: String(CROWD),
      PROLIFIC_PID: pid,
      STUDY_ID: PROLIFIC_STUDY,
      SESSION_ID: session,
    });
    const { annotatorId } = await enterProlificSession(t.db, CROWD, params);
    await recordQualificationAttempt(t.db, annotatorId, test, rightAnswers);
    const items: number[] = [];
    for (let i = 0; i < n; i++) {
      const step = await prolificStep(t.db, CROWD, annotatorId);
      if (step.kind !== "task") throw new Error(`expected a task, got ${step.kind}`);
      await submitLabel(t.db, {
        studyId: CROWD,
        itemId: step.itemId,
        annotatorId,
        payload: await validConsensusLabel(t.db, step.itemId, score),
        clientToken: `${session}-${i}`,
        secondsOnTask: 30,
      });
      items.push(step.itemId);
    }
    return { annotatorId, items };
  }

  const statusesOf = (annotatorId: number) =>
    (
      t.db.$client.prepare(`SELECT status FROM labels WHERE annotator_id = ? ORDER BY id`).all(annotatorId) as {
        status: string;
      }[]
    ).map((r) => r.status);
  const confirmedAt = (session: string) =>
    (
      t.db.$client.prepare(`SELECT confirmed_at AS at FROM crowd_assignments WHERE external_id = ?`).get(session) as {
        at: string | null;
      }
    ).at;
  const figures = async () => {
    const crowd = await studyDashboard(t.db, CROWD);
    const expert = await studyDashboard(t.db, EXPERT);
    if (crowd.kind !== "consensus-snippet" || expert.kind !== "consensus-snippet")
      throw new Error("expected consensus dashboards");
    return { agreement: crowd.agreement, alignment: expert.alignment };
  };
  const run = (rows: ExportRow[], options: { dryRun?: boolean; prolificStudy?: string } = {}) =>
    importProlificExport(t.db, CROWD, {
      text: exportCsv(rows),
      fileName: "prolific_export.csv",
      now: new Date("2026-03-03T09:00:00.000Z"),
      ...options,
    });

  it("a forged PROLIFIC_PID's labels stay pending, out of alpha and alignment, until an export lists the session", async () => {
    const before = await figures();
    // Extreme scores: counted, they would move both alpha and the crowd mean in the alignment table.
    const forged = await participant("FORGED0000000000000000PID", "forged-session", 2, 1);
    const real = await participant("5f1a2b3c4d5e6f7a8b9c0d1e", "real-session", 2, 5);
    expect(statusesOf(forged.annotatorId)).toEqual(["pending", "pending"]);
    expect(statusesOf(real.annotatorId)).toEqual(["pending", "pending"]);
    expect(await figures()).toEqual(before);
    expect(await prolificSessionCounts(t.db, CROWD)).toEqual({ confirmed: 0, pending: 2 });

    // An export that does not list the forged session: only the real participant's labels count.
    const summary = await run([
      { session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" },
      { session: "returned-elsewhere", pid: "5f00000000000000000000aa", status: "RETURNED" },
    ]);
    expect(summary).toMatchObject({
      rows: 2,
      confirmedSessions: 1,
      labelsCounted: 2,
      labelsSurplus: 0,
      unchanged: 0,
      unknownSessions: 1,
      mismatched: [],
      stayPending: {},
      codeMismatch: 0,
    });
    expect(statusesOf(real.annotatorId)).toEqual(["counted", "counted"]);
    expect(statusesOf(forged.annotatorId)).toEqual(["pending", "pending"]);
    expect(confirmedAt("real-session")).toBe("2026-03-03T09:00:00.000Z");
    expect(confirmedAt("forged-session")).toBeNull();
    expect(await prolificSessionCounts(t.db, CROWD)).toEqual({ confirmed: 1, pending: 1 });
    const withReal = await figures();
    expect(withReal.agreement.raters).toContain(String(real.annotatorId));
    expect(withReal.agreement.raters).not.toContain(String(forged.annotatorId));
    expect(withReal.alignment).not.toEqual(before.alignment);

    // Claiming the forged session under a real participant's id, or with another code, or as returned: still pending.
    const claims = await run([
      { session: "forged-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" },
      { session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" },
    ]);
    expect(claims.mismatched).toEqual([
      {
        line: 2,
        submissionId: "forged-session",
        reason:
          "the session was entered with participant id FORGED0000000000000000PID, the export lists 5f1a2b3c4d5e6f7a8b9c0d1e",
      },
    ]);
    expect(claims).toMatchObject({ confirmedSessions: 0, unchanged: 1 });
    expect(await run([{ session: "forged-session", pid: "FORGED0000000000000000PID", code: "OTHER1" }])).toMatchObject({
      confirmedSessions: 0,
      codeMismatch: 1,
    });
    expect(
      await run([{ session: "forged-session", pid: "FORGED0000000000000000PID", status: "RETURNED" }]),
    ).toMatchObject({
      confirmedSessions: 0,
      stayPending: { RETURNED: 1 },
    });
    expect(
      await run([{ session: "forged-session", pid: "FORGED0000000000000000PID", status: "TIMED-OUT" }]),
    ).toMatchObject({
      stayPending: { "TIMED-OUT": 1 },
    });
    expect(statusesOf(forged.annotatorId)).toEqual(["pending", "pending"]);
    expect(await figures()).toEqual(withReal);

    // Only once Prolific itself lists the session as submitted do its labels count.
    expect(
      await run([{ session: "forged-session", pid: "FORGED0000000000000000PID", status: "APPROVED", code: "" }]),
    ).toMatchObject({ confirmedSessions: 1, labelsCounted: 2, statusUpdated: 1 });
    expect(statusesOf(forged.annotatorId)).toEqual(["counted", "counted"]);
    expect((await figures()).agreement.raters).toContain(String(forged.annotatorId));
  });

  it("a dry run reports and writes nothing; a second import changes nothing", async () => {
    const real = await participant("5f1a2b3c4d5e6f7a8b9c0d1e", "real-session", 2, 4);
    const rows = [{ session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e", status: "APPROVED" }];
    const counts = await tableCounts(t.db);
    const dry = await run(rows, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, confirmedSessions: 1, labelsCounted: 2, statusUpdated: 1 });
    expect(statusesOf(real.annotatorId)).toEqual(["pending", "pending"]);
    expect(confirmedAt("real-session")).toBeNull();
    expect(await tableCounts(t.db)).toEqual(counts);

    expect(await run(rows)).toMatchObject({
      dryRun: false,
      confirmedSessions: 1,
      labelsCounted: 2,
      statusUpdated: 1,
      unchanged: 0,
    });
    const snapshot = t.db.$client.prepare(`SELECT id, status FROM labels ORDER BY id`).all();
    const sessions = t.db.$client.prepare(`SELECT * FROM crowd_assignments ORDER BY id`).all();
    expect(await run(rows)).toMatchObject({ confirmedSessions: 0, labelsCounted: 0, statusUpdated: 0, unchanged: 1 });
    expect(t.db.$client.prepare(`SELECT id, status FROM labels ORDER BY id`).all()).toEqual(snapshot);
    expect(t.db.$client.prepare(`SELECT * FROM crowd_assignments ORDER BY id`).all()).toEqual(sessions);
  });

  it("k stays a hard cap: a confirmed label on an item that filled up meanwhile is stored as surplus", async () => {
    const p = await participant("5f1a2b3c4d5e6f7a8b9c0d1e", "real-session", 2, 4);
    const [full] = p.items;
    // Other (verified) workers fill the first item up to k while the session awaits confirmation.
    const countedOn = (itemId: number) =>
      (
        t.db.$client
          .prepare(`SELECT count(*) AS n FROM labels WHERE study_item_id = ? AND status = 'counted'`)
          .get(itemId) as { n: number }
      ).n;
    await transact(t.db, async (db) => {
      for (let w = countedOn(full); w < 3; w++) {
        const annotatorId = await addAnnotator(db, `filler${w}`, "crowd");
        const statusIfNew = await statusForNewLabel(db, full, 3, true);
        await writeLabelRevision(db, {
          itemId: full,
          annotatorId,
          payload: await validConsensusLabel(db, full, 3),
          clientToken: `filler-${w}-token`,
          secondsOnTask: 20,
          statusIfNew,
        });
      }
    });
    const summary = await run([{ session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" }]);
    expect(summary).toMatchObject({ confirmedSessions: 1, labelsCounted: 1, labelsSurplus: 1 });
    const statuses = t.db.$client
      .prepare(`SELECT study_item_id AS item, status FROM labels WHERE annotator_id = ? ORDER BY id`)
      .all(p.annotatorId);
    expect(statuses).toEqual([
      { item: full, status: "surplus" },
      { item: p.items[1], status: "counted" },
    ]);
    expect(countedOn(full)).toBe(3);
  });

  it("checks the Prolific study: a session entered under another STUDY_ID does not match", async () => {
    await participant("5f1a2b3c4d5e6f7a8b9c0d1e", "real-session", 1, 4);
    const other = await run([{ session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" }], {
      prolificStudy: "6bbbbbbbbbbbbbbbbbbbbbbb",
    });
    expect(other).toMatchObject({
      confirmedSessions: 0,
      mismatched: [
        {
          line: 2,
          submissionId: "real-session",
          reason: `the session was entered with STUDY_ID ${PROLIFIC_STUDY}, the export is of 6bbbbbbbbbbbbbbbbbbbbbbb`,
        },
      ],
    });
    // With a "Study id" column the row's own study is checked.
    const withColumn = toCsv(
      ["Participant id", "Status", "Study id", "Submission id"],
      [["5f1a2b3c4d5e6f7a8b9c0d1e", "APPROVED", "6ccccccccccccccccccccccc", "real-session"]],
    );
    expect((await importProlificExport(t.db, CROWD, { text: withColumn, fileName: "x.csv" })).mismatched).toHaveLength(
      1,
    );
    expect(confirmedAt("real-session")).toBeNull();
    expect(
      (await run([{ session: "real-session", pid: "5f1a2b3c4d5e6f7a8b9c0d1e" }], { prolificStudy: PROLIFIC_STUDY }))
        .confirmedSessions,
    ).toBe(1);
  });

  it("refuses a malformed export naming file, row and column, and writes nothing", async () => {
    await participant("5f1a2b3c4d5e6f7a8b9c0d1e", "real-session", 1, 4);
    const counts = await tableCounts(t.db);
    const refused = async (text: string) => {
      try {
        await importProlificExport(t.db, CROWD, { text, fileName: "bad.csv" });
      } catch (err) {
        if (err instanceof ProlificImportError) return err.message;
        throw err;
      }
      throw new Error("expected the import to be refused");
    };
    const missing = await refused(toCsv(["Participant id", "Status"], [["p1", "APPROVED"]]));
    expect(missing).toContain(`bad.csv row 1, column "submission id": no "submission id" column in the header`);
    const rows = await refused(
      toCsv(HEADER.slice(0, 3), [
        ["real-session", "5f1a2b3c4d5e6f7a8b9c0d1e", "APPROVED"],
        ["", "p2", "APPROVED"],
        ["s3", "bad id!", ""],
        ["real-session", "5f1a2b3c4d5e6f7a8b9c0d1e", "APPROVED"],
      ]),
    );
    expect(rows).toMatch(/^import refused, nothing was written \(4 problems\)/);
    expect(rows).toContain(`bad.csv row 3, column "Submission id": is empty`);
    expect(rows).toContain(`bad.csv row 4, column "Participant id": "bad id!" is not a Prolific id`);
    expect(rows).toContain(`bad.csv row 4, column "Status": is empty`);
    expect(rows).toContain(
      `bad.csv row 5, column "Submission id": submission real-session is listed again (first on row 2)`,
    );
    expect(await refused(`"Submission id,Participant id\n`)).toContain(
      `bad.csv row 1, column "CSV": a quoted field is never closed`,
    );
    expect(await tableCounts(t.db)).toEqual(counts);
    expect(confirmedAt("real-session")).toBeNull();
    await expectServiceError(
      () => importProlificExport(t.db, 3, { text: exportCsv([]), fileName: "x.csv" }),
      409,
      /no Prolific settings/,
    );
  });
});
