/**
 * The allocation cursor (issue 35): allocation starts at the study's first item with a verified place free instead of
 * walking the full ones. Every write that frees a place behind it must move it back (migration 0026's triggers), or an
 * item would never reach its k; and a search from the cursor must find what a search from the start finds.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import {
  allocationCursor,
  firstOpenItem,
  findAssignment,
  markSkipped,
} from "../../../app/server/models/assignment.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const K = 2;

describe("allocation cursor", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let studyId = 0;
  let people: number[] = [];
  const positionOf = async (itemId: number) =>
    (await t.db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).limit(1))[0]!.position;
  const setCursor = async (openFrom: number) =>
    await t.db.insert(schema.allocationCursors).values({ studyId, openFrom }).onConflictDoUpdate({
      target: schema.allocationCursors.studyId,
      set: { openFrom },
    });

  beforeEach(async () => {
    t = await tempDb();
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, { name: "cursor", pool: "expert", trajectories: 2, labelsPerItem: K });
    people = [];
    for (const n of ["a", "b", "c", "d", "e"]) people.push(await addAnnotator(t.db, `cursor-${n}`, "expert"));
  });
  afterEach(() => t.cleanup());

  it("moves past full items and back when a place behind it frees up", async () => {
    const [a, b, c, d] = people;
    const first = (await nextTask(t.db, studyId, a))!.itemId;
    expect((await nextTask(t.db, studyId, b))!.itemId).toBe(first);
    const second = (await nextTask(t.db, studyId, c))!.itemId;
    expect(second).not.toBe(first);
    expect(await allocationCursor(t.db, studyId)).toBe(await positionOf(second));

    // a passes on the first item: its place is free again, behind the cursor.
    await markSkipped(t.db, (await findAssignment(t.db, first, a))!.id, new Date().toISOString(), null);
    expect(await allocationCursor(t.db, studyId)).toBe(await positionOf(first));
    expect((await nextTask(t.db, studyId, d))!.itemId).toBe(first);
  });

  it("every write that could free a place moves the cursor back to its item", async () => {
    const [a, b] = people;
    const lease = (await nextTask(t.db, studyId, a))!;
    const item = lease.itemId;
    const at = await positionOf(item);
    const writes: [string, () => void][] = [
      [
        "a release",
        () => t.db.$client.prepare("UPDATE assignments SET status = 'released' WHERE id = ?").run(lease.assignmentId),
      ],
      [
        "a deleted assignment",
        () => t.db.$client.prepare("DELETE FROM assignments WHERE id = ?").run(lease.assignmentId),
      ],
    ];
    for (const [what, write] of writes) {
      await setCursor(at + 50);
      write();
      expect(await allocationCursor(t.db, studyId), what).toBe(at);
    }

    await nextTask(t.db, studyId, b);
    await submitLabel(t.db, {
      studyId,
      itemId: item,
      annotatorId: b,
      payload: await validConsensusLabel(t.db, item),
      clientToken: "cursor-b-first",
      secondsOnTask: 20,
    });
    await setCursor(at + 50);
    t.db.$client.prepare("UPDATE labels SET status = 'pending' WHERE study_item_id = ?").run(item);
    expect(await allocationCursor(t.db, studyId), "a label back to pending").toBe(at);

    await setCursor(at + 50);
    t.db.$client.prepare("UPDATE annotators SET role = 'crowd' WHERE id = ?").run(b);
    expect(await allocationCursor(t.db, studyId), "an identity change").toBe(0);

    await setCursor(at + 50);
    t.db.$client.prepare("UPDATE studies SET labels_per_item = labels_per_item + 1 WHERE id = ?").run(studyId);
    expect(await allocationCursor(t.db, studyId), "a larger k").toBe(0);

    await setCursor(at + 50);
    t.db.$client.prepare("UPDATE study_items SET position = ? WHERE id = ?").run(-1, item);
    expect(await allocationCursor(t.db, studyId), "an item moved before it").toBe(-1);
  });

  it("a search from the cursor finds what a search from the start finds, through leases, skips and submits", async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let done = 0;
    for (let step = 0; step < 400 && done < people.length; step++) {
      const who = people[Math.floor(random() * people.length)];
      const lease = await nextTask(t.db, studyId, who);
      if (!lease) {
        done++;
        continue;
      }
      if (random() < 0.2) await markSkipped(t.db, lease.assignmentId, new Date().toISOString(), null);
      else
        await submitLabel(t.db, {
          studyId,
          itemId: lease.itemId,
          annotatorId: who,
          payload: await validConsensusLabel(t.db, lease.itemId),
          clientToken: `cursor-property-${step}`,
          secondsOnTask: 20,
        });
      for (const id of people)
        expect(await firstOpenItem(t.db, studyId, id, K)).toBe(
          await firstOpenItem(t.db, studyId, id, K, true, undefined, 0),
        );
    }
    expect(await allocationCursor(t.db, studyId)).toBeGreaterThan(0);
  });
});
