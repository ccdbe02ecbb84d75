/**
 * Issue 28, no blind labels, on the server, against a real SQLite file: the task page's loader
 * records when an item was first shown to its annotator (once; a reload never moves it), and a
 * submit from the task page or the MTurk page that arrives before that is refused with nothing
 * stored. Leasing an item is not showing it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { recordItemShown, refuseUnshown } from "../../../app/server/annotation/item-shown.server.ts";
import { createAbStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitShownLabel } from "../../../app/server/annotation/submit.server.ts";
import { saveTaskWork, taskPage } from "../../../app/server/annotation/tasks.server.ts";
import type { SessionUser } from "../../../app/server/auth/session.server.ts";
import { allowedSubmitOrigins } from "../../../app/crowd-channels/mturk/external-question-params.server.ts";
import {
  externalTaskPage,
  submitExternalQuestion,
} from "../../../app/crowd-channels/mturk/external-question.server.ts";
import { studyItemIds } from "../../../app/server/models/study.server.ts";
import { addAnnotator, seedDemo, sessionUser } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const expert = (id: number): SessionUser => sessionUser(id);
const CHOICE_B = { kind: "ab-reactiveness", choice: "B" };
const NOT_SHOWN = /Item \d+ had not been shown to you yet when this answer arrived, so it was not stored/;

describe("the first showing of an item, and submits that come before it", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let user: SessionUser;
  const shownAt = (itemId: number) =>
    (
      t.db.$client
        .prepare(`SELECT shown_at AS shownAt FROM assignments WHERE study_item_id = ? AND annotator_id = ?`)
        .get(itemId, user.id) as { shownAt: string | null }
    ).shownAt;
  const labelCount = () => (t.db.$client.prepare(`SELECT count(*) AS n FROM label_revisions`).get() as { n: number }).n;
  const post = async (itemId: number, clientToken: string) =>
    await saveTaskWork(t.db, studyId, itemId, user, {
      intent: "submit",
      payload: CHOICE_B,
      clientToken,
      secondsOnTask: 0,
    });

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createAbStudy(t.db, { name: "blind", pool: "expert", config: { seed: 5 } });
    user = expert(await addAnnotator(t.db, "quick", "expert"));
  });
  afterEach(() => t.cleanup());

  it("refuses the task page's submit for a leased item no page has shown yet, and stores nothing", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    expect(shownAt(itemId)).toBeNull();
    const before = await tableCounts(t.db);
    await expectServiceError(async () => await post(itemId, "blind-token-1"), 409, NOT_SHOWN);
    expect(await tableCounts(t.db)).toEqual(before);
    expect(t.db.$client.prepare(`SELECT status FROM assignments WHERE study_item_id = ?`).get(itemId)).toEqual({
      status: "leased",
    });
  });

  it("takes the submit once the page has been served; the first showing is kept through reloads", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    expect((await taskPage(t.db, studyId, itemId, user)).firstShowing).toBe(true);
    await recordItemShown(t.db, itemId, user.id, new Date("2026-11-28T10:00:00.000Z"));
    expect((await taskPage(t.db, studyId, itemId, user)).firstShowing).toBe(false);
    await recordItemShown(t.db, itemId, user.id, new Date("2026-11-28T10:05:00.000Z")); // a reload
    expect(shownAt(itemId)).toBe("2026-11-28T10:00:00.000Z");

    await post(itemId, "seen-token-1");
    expect(labelCount()).toBe(1);
    expect(t.db.$client.prepare(`SELECT status FROM assignments WHERE study_item_id = ?`).get(itemId)).toEqual({
      status: "submitted",
    });
  });

  it("refuses a submit stamped before the showing, and an item that is not the annotator's (403)", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    await recordItemShown(t.db, itemId, user.id, new Date("2026-11-28T10:00:00.000Z"));
    const input = {
      studyId,
      itemId,
      annotatorId: user.id,
      payload: CHOICE_B,
      clientToken: "early-token-1",
      secondsOnTask: 0,
    };
    await expectServiceError(
      async () => await submitShownLabel(t.db, input, new Date("2026-11-28T09:59:59.950Z")),
      409,
      NOT_SHOWN,
    );
    expect(labelCount()).toBe(0);
    expect((await submitShownLabel(t.db, input, new Date("2026-11-28T10:00:00.000Z"))).duplicate).toBe(false);

    const other = (await studyItemIds(t.db, studyId)).find((id) => id !== itemId)!;
    await expectServiceError(
      async () => await refuseUnshown(t.db, other, user.id, new Date()),
      403,
      new RegExp(`Item ${other} is not assigned to you`),
    );
    // An item that does not exist (or not in this study) is a 404, as for any submit.
    await expectServiceError(
      async () => await post(999999, "forged-token-1"),
      404,
      /Item 999999 of study \d+ does not exist/,
    );
  });

  it("a showing is recorded on the annotator's own existing assignment only: no row for someone else, none without a lease", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    const before = await tableCounts(t.db);
    const other = await addAnnotator(t.db, "other", "expert");
    await recordItemShown(t.db, itemId, other);
    const after = await tableCounts(t.db);
    expect(after.assignments).toBe(before.assignments);
    expect(shownAt(itemId)).toBeNull();
  });
});

describe("the MTurk ExternalQuestion page", () => {
  const SECRET = "unit-test-secret-for-item-shown";
  const STAND_IN = "http://127.0.0.1:8931";
  const options = { secret: SECRET, allowed: allowedSubmitOrigins({ MTURK_SUBMIT_ORIGINS: STAND_IN }) };
  const ACCEPTED = new Date("2026-11-28T12:00:00.000Z");
  let t: Awaited<ReturnType<typeof tempDb>>;

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
  });
  afterEach(() => t.cleanup());

  it("signs the showing into the accepted worker's page (which writes nothing), refuses a submit stamped before it, and records it with the answer", async () => {
    const studyId = await createAbStudy(t.db, { name: "crowd A/B", pool: "crowd", config: { seed: 3 } });
    const itemId = (await studyItemIds(t.db, studyId))[0];
    t.db.$client
      .prepare(
        `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES ('3HITB001', 'sandbox', 'TYPE1', ?, ?, 3, 0.35)`,
      )
      .run(studyId, itemId);
    const work = {
      mode: "work" as const,
      studyId,
      itemId,
      assignmentId: "3ASSIGNB001",
      hitId: "3HITB001",
      workerId: "A1QUICK",
      turkSubmitTo: STAND_IN,
    };
    const page = await externalTaskPage(t.db, work, ACCEPTED, SECRET);
    if (page.mode !== "work") throw new Error(`expected the work page, got ${page.mode}`);
    // Issue 29: the GET stores nothing, so no row exists until the worker posts.
    expect(t.db.$client.prepare(`SELECT count(*) AS n FROM assignments WHERE study_item_id = ?`).get(itemId)).toEqual({
      n: 0,
    });

    const early = new Date(ACCEPTED.getTime() - 50);
    await expectServiceError(
      async () =>
        await submitExternalQuestion(t.db, { token: page.token, payload: CHOICE_B, secondsOnTask: 0 }, early, options),
      409,
      NOT_SHOWN,
    );
    expect(t.db.$client.prepare(`SELECT count(*) AS n FROM crowd_assignments`).get()).toEqual({ n: 0 });
    const stored = await submitExternalQuestion(
      t.db,
      { token: page.token, payload: CHOICE_B, secondsOnTask: 4 },
      new Date(ACCEPTED.getTime() + 4000),
      options,
    );
    expect(stored.duplicate).toBe(false);
    expect(
      t.db.$client.prepare(`SELECT shown_at AS shownAt FROM assignments WHERE study_item_id = ?`).get(itemId),
    ).toEqual({ shownAt: ACCEPTED.toISOString() });
  });
});
