/**
 * Issue 29, "no stranger holds a place", on a real SQLite file: leases and pending labels of
 * unverified crowd identities (MTurk, Prolific) never keep an item from a verified annotator
 * (an expert, a signed-link worker); among unverified askers they hold a place while the lease
 * runs and, for a pending label, PENDING_HOLD_HOURS; a confirmed label holds a place like any.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasWorkFor, nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { leaseFixedItem, PENDING_HOLD_HOURS, takenSlots } from "../../../app/server/models/assignment.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

// Submits stamp the real clock, so the test's times start from it.
const T0 = new Date();
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe("places held by unverified crowd identities", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId: number;
  let first: number;
  let second: number;
  let token = 0;

  /** Leases the annotator's next item at `when`, marks it shown and submits a label on it. */
  const labelNext = async (annotatorId: number, when: Date) => {
    const lease = (await nextTask(t.db, studyId, annotatorId, when))!;
    t.db.$client
      .prepare(`UPDATE assignments SET shown_at = ? WHERE id = ?`)
      .run(new Date(Date.now() - 60_000).toISOString(), lease.assignmentId);
    await submitLabel(t.db, {
      studyId,
      itemId: lease.itemId,
      annotatorId,
      payload: await validConsensusLabel(t.db, lease.itemId, 3),
      clientToken: `token-${String(++token).padStart(4, "0")}`,
      secondsOnTask: 5,
    });
    return lease.itemId;
  };
  const statusOf = (itemId: number, annotatorId: number) =>
    (
      t.db.$client
        .prepare(`SELECT status FROM labels WHERE study_item_id = ? AND annotator_id = ?`)
        .get(itemId, annotatorId) as { status: string }
    ).status;

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    // A crowd study with k = 2.
    studyId = await createConsensusStudy(t.db, {
      name: "crowd k2",
      pool: "crowd",
      trajectories: 1,
      labelsPerItem: 2,
      config: { seed: 3 },
    });
    [first, second] = (
      t.db.$client.prepare(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position`).all(studyId) as {
        id: number;
      }[]
    ).map((r) => r.id);
  });
  afterEach(() => t.cleanup());

  it("200 invented MTurk ids holding leases on the first item, and forged pending labels on it, leave its k places to signed-link workers", async () => {
    // What the ExternalQuestion page did before issue 29: a 30-minute lease per invented worker.
    for (let i = 0; i < 200; i++)
      await leaseFixedItem(
        t.db,
        first,
        await findOrCreateCrowdWorker(t.db, "mturk", `AFORGED${i}`),
        at(0).toISOString(),
        at(30).toISOString(),
      );
    const forged = await findOrCreateCrowdWorker(t.db, "prolific", "forged-pid");
    expect(await labelNext(forged, at(0))).toBe(second); // the unverified pool of the first item is full
    expect(statusOf(second, forged)).toBe("pending");
    expect(await takenSlots(t.db, first)).toBe(0);
    expect(await takenSlots(t.db, second)).toBe(0);

    const honest = [
      await addAnnotator(t.db, "link-w1", "crowd"),
      await addAnnotator(t.db, "link-w2", "crowd"),
      await addAnnotator(t.db, "link-w3", "crowd"),
    ];
    const taken: number[] = [];
    for (const w of honest) taken.push((await nextTask(t.db, studyId, w, at(2)))!.itemId);
    expect(taken).toEqual([first, first, second]);
    expect(await takenSlots(t.db, first)).toBe(2);
  });

  it("among unverified askers a lease or a fresh pending label holds a place; a pending label stops holding one after PENDING_HOLD_HOURS", async () => {
    const [p1, p2, p3] = [
      await findOrCreateCrowdWorker(t.db, "prolific", "p1"),
      await findOrCreateCrowdWorker(t.db, "prolific", "p2"),
      await findOrCreateCrowdWorker(t.db, "prolific", "p3"),
    ];
    expect(await labelNext(p1, at(0))).toBe(first);
    expect((await nextTask(t.db, studyId, p2, at(1)))!.itemId).toBe(first);
    // Two unverified rows fill k = 2 for another unverified asker, not for a verified one.
    expect((await nextTask(t.db, studyId, p3, at(2)))!.itemId).toBe(second);
    const expert = await addAnnotator(t.db, "expert-x", "expert");
    expect(await hasWorkFor(t.db, studyId, expert, at(2))).toBe(true);

    // Long after: p2's lease has ended and p1's pending label no longer holds a place.
    const later = at(PENDING_HOLD_HOURS * 60 + 5);
    const p4 = await findOrCreateCrowdWorker(t.db, "prolific", "p4");
    expect((await nextTask(t.db, studyId, p4, later))!.itemId).toBe(first);
    expect(statusOf(first, p1)).toBe("pending");
  });

  it("a confirmed label holds a verified place", async () => {
    const p1 = await findOrCreateCrowdWorker(t.db, "prolific", "p1");
    await labelNext(p1, at(0));
    t.db.$client
      .prepare(`UPDATE labels SET status = 'counted' WHERE study_item_id = ? AND annotator_id = ?`)
      .run(first, p1);
    expect(await takenSlots(t.db, first)).toBe(1);
    const [w1, w2] = [await addAnnotator(t.db, "link-a", "crowd"), await addAnnotator(t.db, "link-b", "crowd")];
    expect((await nextTask(t.db, studyId, w1, at(1)))!.itemId).toBe(first);
    expect((await nextTask(t.db, studyId, w2, at(1)))!.itemId).toBe(second);
  });
});
