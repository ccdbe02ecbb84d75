/**
 * Issue 12, attacks 1 and 2 on the MTurk channels, on a real SQLite file with the demo studies:
 * bare MTurk query parameters start no session; ExternalQuestion takes answers only for HITs this
 * app published, stores them pending (left out of alpha, alignment and fidelity) until `mturk
 * sync` or a results file confirms the same worker and HIT; confirmation counts a label within k,
 * else surplus; a mismatch confirms nothing. The MTurk API is the aws-sdk-client-mock stand-in.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { setCountSurplus } from "../../../app/server/annotation/dashboard-settings.server.ts";
import { channelForEntry } from "../../../app/crowd-channels/registry.server.ts";
import { LINK_OUT_REFUSED } from "../../../app/crowd-channels/mturk/batch.server.ts";
import { MTURK_SUBMIT_ORIGINS } from "../../../app/crowd-channels/mturk/external-question-params.server.ts";
import { signAssignment } from "../../../app/crowd-channels/mturk/external-question-token.server.ts";
import {
  externalTaskPage,
  submitExternalQuestion,
} from "../../../app/crowd-channels/mturk/external-question.server.ts";
import { mturkClient } from "../../../app/crowd-channels/mturk/client.server.ts";
import { syncStudy } from "../../../app/crowd-channels/mturk/sync.server.ts";
import { findStudy } from "../../../app/server/models/study.server.ts";
import { validConsensusLabel } from "../../../harness/annotation.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { assignment, fakeMturk, labelAnswer, mturkMock } from "../../helpers/mturk-api-fake.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const SECRET = "unit-test-secret-for-label-integrity";
const SANDBOX = MTURK_SUBMIT_ORIGINS[1];
const CONSENSUS_CROWD = 2;
const AB_CROWD = 3;
const NOW = new Date("2026-12-01T10:00:00.000Z");
const options = { secret: SECRET, allowed: MTURK_SUBMIT_ORIGINS };

describe("MTurk label integrity", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
    mturkMock.reset();
  });
  afterEach(() => t.cleanup());

  const sql = <T = Record<string, unknown>>(query: string, ...args: unknown[]) =>
    t.db.$client.prepare(query).all(...args) as T[];
  const publishHit = (hitId: string, studyId: number, itemId: number, environment = "sandbox") =>
    t.db.$client
      .prepare(
        `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, ?, 'TYPE', ?, ?, 3, 0.5)`,
      )
      .run(hitId, environment, studyId, itemId);
  /** A non-gold item of the study and its label count. */
  const itemWith = (studyId: number, labels: "none" | "some") =>
    sql<{ id: number }>(
      `SELECT i.id FROM study_items i WHERE i.study_id = ? AND i.is_gold = 0 AND ${labels === "none" ? "NOT" : ""} EXISTS (SELECT 1 FROM labels l WHERE l.study_item_id = i.id) ORDER BY i.position LIMIT 1`,
      studyId,
    )[0].id;
  /**
   * What the statistics are made of: everything but names, gold checks (each worker's own work) and the status counts.
   */
  const statistics = async (studyId: number) => {
    const {
      names: _n,
      gold: _g,
      flagged: _f,
      labelStatus: _s,
      study: _study,
      ...rest
    } = await studyDashboard(t.db, studyId);
    return rest;
  };
  /** A worker opens the HIT's task page (accepting it) and submits an answer. */
  async function answerAs(
    studyId: number,
    itemId: number,
    hitId: string,
    workerId: string,
    assignmentId: string,
    payload: unknown,
    turkSubmitTo = SANDBOX,
  ) {
    const page = await externalTaskPage(
      t.db,
      { mode: "work", studyId, itemId, assignmentId, hitId, workerId, turkSubmitTo },
      NOW,
      SECRET,
    );
    if (page.mode !== "work") throw new Error(`page is in ${page.mode} mode`);
    return await submitExternalQuestion(t.db, { token: page.token, payload, secondsOnTask: 30 }, NOW, options);
  }
  const labelsOn = (itemId: number) =>
    sql(
      `SELECT a.external_id AS worker, l.status, c.external_id AS assignmentId, c.confirmed_at IS NOT NULL AS confirmed FROM labels l
       JOIN annotators a ON a.id = l.annotator_id LEFT JOIN crowd_assignments c ON c.label_id = l.id WHERE l.study_item_id = ? AND a.channel = 'mturk' ORDER BY a.external_id`,
      itemId,
    );
  const sync = (studyId: number) => syncStudy(t.db, mturkClient(), { studyId, production: false });

  it("attack 1: bare MTurk parameters on /crowd/start are refused with a page that says so, and create no worker", async () => {
    const before = await tableCounts(t.db);
    const study = (await findStudy(t.db, CONSENSUS_CROWD))!;
    for (const query of [
      "assignmentId=X&hitId=H&workerId=A1DEMOTURKER01",
      "assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=H",
      "workerId=AINVENTED01&hitId=H",
    ]) {
      const params = new URLSearchParams(`study=${CONSENSUS_CROWD}&${query}`);
      const channel = channelForEntry(params);
      expect(channel?.id).toBe("mturk-batch");
      expect(await channel!.entry.enter(t.db, study, params)).toEqual({
        kind: "refused",
        status: 403,
        message: LINK_OUT_REFUSED,
      });
    }
    expect(LINK_OUT_REFUSED).toMatch(/not accepted.*return this HIT.*mturk publish.*mturk export/s);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("attack 2: five invented workers on a real HIT of an item with k = 3 are stored pending, and nothing is counted", async () => {
    const item = itemWith(AB_CROWD, "some");
    publishHit("3HITREAL", AB_CROWD, item);
    const countedBefore = sql(
      `SELECT count(*) AS n FROM labels WHERE study_item_id = ? AND status = 'counted'`,
      item,
    )[0];
    const stats = await statistics(AB_CROWD);

    for (let n = 1; n <= 5; n++)
      await answerAs(AB_CROWD, item, "3HITREAL", `AINVENTED0${n}`, `3INVENTEDASSIGNMENT0${n}`, {
        kind: "ab-reactiveness",
        choice: n % 2 ? "A" : "B",
      });

    expect(labelsOn(item)).toEqual(
      [1, 2, 3, 4, 5].map((n) => ({
        worker: `AINVENTED0${n}`,
        status: "pending",
        assignmentId: `3INVENTEDASSIGNMENT0${n}`,
        confirmed: 0,
      })),
    );
    expect(sql(`SELECT count(*) AS n FROM labels WHERE study_item_id = ? AND status = 'counted'`, item)[0]).toEqual(
      countedBefore,
    );
    // Agreement and fidelity (and progress) are exactly what they were; the dashboard shows the five as pending.
    expect(await statistics(AB_CROWD)).toEqual(stats);
    expect((await studyDashboard(t.db, AB_CROWD)).labelStatus.pending).toBe(5);
  });

  it("attack 2: an invented HIT id, or a HIT of the other environment, is refused on page load and on submit, and nothing is stored", async () => {
    const item = itemWith(AB_CROWD, "some");
    publishHit("3HITSANDBOX", AB_CROWD, item);
    const before = await tableCounts(t.db);
    const work = {
      studyId: AB_CROWD,
      itemId: item,
      assignmentId: "3ASSIGNX",
      workerId: "AINVENTED09",
      turkSubmitTo: SANDBOX,
    };
    await expectServiceError(
      () => externalTaskPage(t.db, { mode: "work", ...work, hitId: "3HITNEVERMADE" }, NOW, SECRET),
      403,
      /HIT 3HITNEVERMADE was not published by this study's `mturk publish`.*return this HIT/,
    );
    await expectServiceError(
      () =>
        externalTaskPage(
          t.db,
          { mode: "preview", studyId: AB_CROWD, itemId: item, hitId: "3HITNEVERMADE" },
          NOW,
          SECRET,
        ),
      403,
      /not published/,
    );
    // A token the server signed itself (as if handed out before) is no better at submit.
    const token = signAssignment({ ...work, hitId: "3HITNEVERMADE" }, SECRET);
    await expectServiceError(
      () =>
        submitExternalQuestion(
          t.db,
          { token, payload: { kind: "ab-reactiveness", choice: "A" }, secondsOnTask: 3 },
          NOW,
          options,
        ),
      403,
      /not published/,
    );
    // A sandbox HIT answered from MTurk's production site.
    const production = { ...work, hitId: "3HITSANDBOX", turkSubmitTo: MTURK_SUBMIT_ORIGINS[0] };
    await expectServiceError(
      () => externalTaskPage(t.db, { mode: "work", ...production }, NOW, SECRET),
      403,
      /published in the MTurk sandbox, but this assignment comes from the production/,
    );
    await expectServiceError(
      () =>
        submitExternalQuestion(
          t.db,
          {
            token: signAssignment(production, SECRET),
            payload: { kind: "ab-reactiveness", choice: "A" },
            secondsOnTask: 3,
          },
          NOW,
          options,
        ),
      403,
      /published in the MTurk sandbox/,
    );
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("sync confirms a pending answer MTurk lists for the same worker and HIT: counted within k, and the statistics take it in", async () => {
    const item = itemWith(CONSENSUS_CROWD, "none");
    publishHit("3HITCONS", CONSENSUS_CROWD, item);
    const label = await validConsensusLabel(t.db, item, 3);
    const stats = await statistics(CONSENSUS_CROWD);
    await answerAs(CONSENSUS_CROWD, item, "3HITCONS", "AREALWORKER1", "3REALASSIGNMENT1", label);
    expect(labelsOn(item)).toEqual([
      { worker: "AREALWORKER1", status: "pending", assignmentId: "3REALASSIGNMENT1", confirmed: 0 },
    ]);
    // Pending: alpha, alignment and progress are untouched.
    expect(await statistics(CONSENSUS_CROWD)).toEqual(stats);

    fakeMturk([assignment("3REALASSIGNMENT1", "3HITCONS", "AREALWORKER1", "Submitted", labelAnswer(label))]);
    const summary = await sync(CONSENSUS_CROWD);
    expect(summary).toMatchObject({ confirmed: 1, imported: 0, surplus: 0, problems: [], approved: 1 });
    expect(labelsOn(item)).toEqual([
      { worker: "AREALWORKER1", status: "counted", assignmentId: "3REALASSIGNMENT1", confirmed: 1 },
    ]);
    expect((await statistics(CONSENSUS_CROWD)).progress.labels).toBe(stats.progress.labels + 1);
  });

  it("sync: a confirmed answer beyond k is surplus (counted only when the study opts in); a mismatched worker confirms nothing and is reported", async () => {
    const item = itemWith(AB_CROWD, "some");
    expect(sql(`SELECT count(*) AS n FROM labels WHERE study_item_id = ? AND status = 'counted'`, item)[0]).toEqual({
      n: 3,
    });
    publishHit("3HITFULL", AB_CROWD, item);
    await answerAs(AB_CROWD, item, "3HITFULL", "AREALWORKER2", "3ASSIGNFULL01", {
      kind: "ab-reactiveness",
      choice: "A",
    });
    await answerAs(AB_CROWD, item, "3HITFULL", "AIMPOSTOR03", "3ASSIGNFULL02", {
      kind: "ab-reactiveness",
      choice: "B",
    });
    const stats = await statistics(AB_CROWD);

    fakeMturk([
      assignment(
        "3ASSIGNFULL01",
        "3HITFULL",
        "AREALWORKER2",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: "A" }),
      ),
      // MTurk knows this AssignmentId, but as another worker's.
      assignment(
        "3ASSIGNFULL02",
        "3HITFULL",
        "AOTHERWORKER4",
        "Submitted",
        labelAnswer({ kind: "ab-reactiveness", choice: "B" }),
      ),
    ]);
    const summary = await sync(AB_CROWD);
    expect(summary).toMatchObject({ confirmed: 1, surplus: 1, imported: 0 });
    expect(summary.problems).toEqual([
      expect.objectContaining({
        assignmentId: "3ASSIGNFULL02",
        workerId: "AOTHERWORKER4",
        message: expect.stringMatching(
          /stored pending from the task page, but MTurk reports worker AOTHERWORKER4; it stays pending/,
        ),
      }),
    ]);
    // Only the confirmed assignment was decided on MTurk.
    expect(summary.decisions.map((d) => d.externalId)).toEqual(["3ASSIGNFULL01"]);
    expect(labelsOn(item)).toEqual([
      { worker: "AIMPOSTOR03", status: "pending", assignmentId: "3ASSIGNFULL02", confirmed: 0 },
      { worker: "AREALWORKER2", status: "surplus", assignmentId: "3ASSIGNFULL01", confirmed: 1 },
    ]);
    expect(sql(`SELECT count(*) AS n FROM annotators WHERE external_id = 'AOTHERWORKER4'`)[0]).toEqual({ n: 0 });
    // Surplus stays out of the statistics until the study opts in.
    expect(await statistics(AB_CROWD)).toEqual(stats);
    expect((await studyDashboard(t.db, AB_CROWD)).labelStatus).toMatchObject({ pending: 1 });
    await setCountSurplus(t.db, AB_CROWD, "true");
    expect(await statistics(AB_CROWD)).not.toEqual(stats);
    await setCountSurplus(t.db, AB_CROWD, "false");
    expect(await statistics(AB_CROWD)).toEqual(stats);
  });

  it("the countSurplus switch takes only true or false, for an existing study", async () => {
    await expectServiceError(() => setCountSurplus(t.db, AB_CROWD, "yes"), 400, /countSurplus/, "countSurplus");
    await expectServiceError(() => setCountSurplus(t.db, 999, "true"), 404, /Study 999/);
    expect(await setCountSurplus(t.db, AB_CROWD, "true")).toBe(true);
    expect((await studyDashboard(t.db, AB_CROWD)).study.config.countSurplus).toBe(true);
  });
});
