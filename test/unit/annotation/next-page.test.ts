/**
 * The next item's page carried by a submit (issue 35, next-page.server.ts), against a real SQLite
 * file: it is the page the item's loader would serve, the showing is recorded with it (so the
 * annotator's submit on it is taken), and any step that is not an item of this study carries nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { nextItemPage } from "../../../app/server/annotation/next-page.server.ts";
import { createAbStudy } from "../../../app/server/annotation/studies.server.ts";
import { saveTaskWork, taskPage } from "../../../app/server/annotation/tasks.server.ts";
import type { SessionUser } from "../../../app/server/auth/session.server.ts";
import { studyItemIds } from "../../../app/server/models/study.server.ts";
import { addAnnotator, seedDemo, sessionUser } from "../../../harness/annotation.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";

const BASE = "http://app.test/annotate/1/items/1";

describe("the next item's page, carried by a submit", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let user: SessionUser;
  const shownAt = (itemId: number) =>
    (
      t.db.$client
        .prepare(`SELECT shown_at AS shownAt FROM assignments WHERE study_item_id = ? AND annotator_id = ?`)
        .get(itemId, user.id) as { shownAt: string | null } | undefined
    )?.shownAt;

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createAbStudy(t.db, { name: "carry", pool: "expert", config: { seed: 5 } });
    user = sessionUser(await addAnnotator(t.db, "quick", "expert"));
  });
  afterEach(() => t.cleanup());

  it("is the loader's page of the leased item, with its showing recorded so the submit on it is taken", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    const { firstShowing, ...expected } = await taskPage(t.db, studyId, itemId, user);
    expect(firstShowing).toBe(true);
    const page = await nextItemPage(t.db, studyId, user, `/annotate/${studyId}/items/${itemId}`, BASE);
    expect(page).toEqual(expected);
    expect(shownAt(itemId)).not.toBeNull();
    const stored = await saveTaskWork(t.db, studyId, itemId, user, {
      intent: "submit",
      payload: { kind: "ab-reactiveness", choice: "A" },
      clientToken: "carried-token-1",
      secondsOnTask: 3,
    });
    expect(stored.done).toBe("label");
  });

  it("carries nothing, and records nothing, for a step that is not an item of this study or not the annotator's", async () => {
    const { itemId } = (await nextTask(t.db, studyId, user.id))!;
    const other = (await studyItemIds(t.db, studyId)).find((id) => id !== itemId)!;
    const before = await tableCounts(t.db);
    for (const path of [
      `/annotate/${studyId}/next?done=1`,
      `/crowd/qualify?study=${studyId}`,
      `/annotate/${studyId + 1}/items/${itemId}`,
      `/annotate/${studyId}/items/${other}`, // leased to nobody: a 403 the redirect shows instead
    ])
      expect(await nextItemPage(t.db, studyId, user, path, BASE)).toBeNull();
    expect(await tableCounts(t.db)).toEqual(before);
    expect(shownAt(itemId)).toBeNull();
  });
});
