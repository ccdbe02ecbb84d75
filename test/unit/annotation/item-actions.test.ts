/**
 * Skip, flag and undo-last against a real SQLite file: the allocation rules (a skipped item is
 * never offered to the skipper again, goes to others, takes no slot and counts nowhere), the
 * flag's comment, undo walking back through the annotator's submits, and every refusal.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasWorkFor, nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { flagItem, skipItem, undoTarget } from "../../../app/server/annotation/item-actions.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { annotatorProgress, taskPage } from "../../../app/server/annotation/tasks.server.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { takenSlots } from "../../../app/server/models/assignment.server.ts";
import { flagsOfStudy } from "../../../app/server/models/item-flag.server.ts";
import type { SessionUser } from "../../../app/server/auth/session.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel, sessionUser } from "../../../harness/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const userOf = (id: number, role: "expert" | "crowd" = "expert"): SessionUser => sessionUser(id, role);

describe("skip, flag and undo-last", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let experts: SessionUser[];
  let token = 0;

  const submit = async (who: SessionUser, itemId: number, score = 3) =>
    await submitLabel(t.db, {
      studyId,
      itemId,
      annotatorId: who.id,
      payload: await validConsensusLabel(t.db, itemId, score),
      clientToken: `token-${String(++token).padStart(4, "0")}`,
      secondsOnTask: 5,
    });
  const items = () =>
    (
      t.db.$client.prepare(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position`).all(studyId) as {
        id: number;
      }[]
    ).map((r) => r.id);
  const allOf = async (who: SessionUser) => {
    const got: number[] = [];
    for (let lease = await nextTask(t.db, studyId, who.id); lease; lease = await nextTask(t.db, studyId, who.id)) {
      got.push(lease.itemId);
      await submit(who, lease.itemId);
    }
    return got;
  };

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    // k = 2: every item takes two annotators.
    studyId = await createConsensusStudy(t.db, {
      name: "s",
      pool: "expert",
      trajectories: 1,
      labelsPerItem: 2,
      config: { seed: 3 },
    });
    experts = [];
    for (const name of ["a", "b", "c", "d"]) experts.push(userOf(await addAnnotator(t.db, name, "expert")));
  });
  afterEach(() => t.cleanup());

  it("a skipped item is never offered to the skipper again, goes to others, and takes no slot", async () => {
    const [a, b, c, d] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    await skipItem(t.db, studyId, first, a, "  the snippet is cut off  ");
    expect(await takenSlots(t.db, first)).toBe(0);
    const row = t.db.$client
      .prepare(
        `SELECT status, skip_reason AS reason, skipped_at AS at FROM assignments WHERE study_item_id = ? AND annotator_id = ?`,
      )
      .get(first, a.id) as {
      status: string;
      reason: string;
      at: string;
    };
    expect(row).toMatchObject({ status: "skipped", reason: "the snippet is cut off" });
    expect(row.at).toBeTruthy();

    // The skipper goes on with the other items and never meets the skipped one again.
    const rest = await allOf(a);
    expect(rest).not.toContain(first);
    expect(rest.sort()).toEqual(
      items()
        .filter((i) => i !== first)
        .sort(),
    );
    expect(await hasWorkFor(t.db, studyId, a.id)).toBe(false);
    expect(await nextTask(t.db, studyId, a.id)).toBeNull();

    // Two others fill the skipped item's k = 2 slots; a fourth finds it full.
    expect((await nextTask(t.db, studyId, b.id))!.itemId).toBe(first);
    await submit(b, first);
    expect((await nextTask(t.db, studyId, c.id))!.itemId).toBe(first);
    await submit(c, first);
    expect(await takenSlots(t.db, first)).toBe(2);
    expect(await allOf(d)).not.toContain(first);
  });

  it("a skip counts nowhere: not in the annotator's progress, not as a label on the dashboard", async () => {
    const [a] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    const before = await annotatorProgress(t.db, studyId, a.id);
    await skipItem(t.db, studyId, first, a, "");
    // The skipped item leaves the skipper's total, so finishing the rest reaches "all done".
    expect(await annotatorProgress(t.db, studyId, a.id)).toEqual({ done: 0, total: before.total - 1 });
    const labels = t.db.$client.prepare(`SELECT count(*) AS n FROM labels WHERE study_item_id = ?`).get(first) as {
      n: number;
    };
    expect(labels.n).toBe(0);
    expect((await studyDashboard(t.db, studyId)).progress).toMatchObject({ labels: 0, complete: 0 });
    expect(await taskPage(t.db, studyId, first, a)).toMatchObject({ skipped: true });
  });

  it("refuses a skip of a submitted item, of an item not assigned to the asker, and a reason over 500 characters; refuses a submit after a skip", async () => {
    const [a, b] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    await expectServiceError(async () => await skipItem(t.db, studyId, first, b, ""), 403, /not assigned to you/);
    await expectServiceError(
      async () => await skipItem(t.db, studyId, first, a, "x".repeat(501)),
      400,
      /at most 500 characters/,
      "reason",
    );
    await expectServiceError(
      async () => await skipItem(t.db, studyId, first, userOf(a.id, "crowd"), ""),
      403,
      /expert pool/,
    );
    await submit(a, first);
    await expectServiceError(
      async () => await skipItem(t.db, studyId, first, a, ""),
      409,
      /already labelled this item/,
    );
    const second = (await nextTask(t.db, studyId, a.id))!.itemId;
    await skipItem(t.db, studyId, second, a, "");
    await expectServiceError(async () => await submit(a, second), 409, /You skipped this item/);
  });

  it("stores a flag with the annotator's comment and refuses an empty or over-long one, or another's item", async () => {
    const [a, b] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    await flagItem(t.db, studyId, first, a, "  Turn 3 is in another language. ");
    expect(await flagsOfStudy(t.db, studyId)).toMatchObject([
      { itemId: first, annotatorId: a.id, comment: "Turn 3 is in another language.", resolvedAt: null },
    ]);
    await expectServiceError(
      async () => await flagItem(t.db, studyId, first, a, "   "),
      400,
      /say what is wrong/,
      "comment",
    );
    await expectServiceError(
      async () => await flagItem(t.db, studyId, first, a, "x".repeat(1001)),
      400,
      /at most 1000 characters/,
      "comment",
    );
    await expectServiceError(async () => await flagItem(t.db, studyId, first, b, "broken"), 403, /not assigned to you/);
    // A flag neither skips nor submits: the lease is still the annotator's.
    expect((await nextTask(t.db, studyId, a.id))!.itemId).toBe(first);
    expect(await flagsOfStudy(t.db, studyId)).toHaveLength(1);
  });

  it("undo-last reopens the previous submitted item, and again the one before it; nothing is deleted", async () => {
    const [a] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    await expectServiceError(async () => await undoTarget(t.db, studyId, first, a), 409, /nothing to undo/);
    await submit(a, first);
    const second = (await nextTask(t.db, studyId, a.id))!.itemId;
    await submit(a, second);
    const third = (await nextTask(t.db, studyId, a.id))!.itemId;
    expect(await undoTarget(t.db, studyId, third, a)).toBe(second);
    expect(await undoTarget(t.db, studyId, second, a)).toBe(first);
    await expectServiceError(async () => await undoTarget(t.db, studyId, first, a), 409, /no earlier item/);
    // Revising the reopened item adds a revision; the current lease is still waiting.
    expect((await submit(a, second, 5)).revision).toBe(2);
    expect((await nextTask(t.db, studyId, a.id))!.itemId).toBe(third);
  });

  it("refuses carry-forward on a conversation's first snippet in the annotator's terms", async () => {
    const [a] = experts;
    const first = (await nextTask(t.db, studyId, a.id))!.itemId;
    const label = await validConsensusLabel(t.db, first);
    const topic = Object.keys(label.topics)[0];
    label.topics[topic].carriedForward = true;
    await expectServiceError(
      async () =>
        await submitLabel(t.db, {
          studyId,
          itemId: first,
          annotatorId: a.id,
          payload: label,
          clientToken: "token-first-carry",
          secondsOnTask: 1,
        }),
      400,
      /first snippet of the conversation, so there is nothing to carry forward/,
      `topics.${topic}.carriedForward`,
    );
  });
});
