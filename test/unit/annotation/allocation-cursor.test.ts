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
  let t: ReturnType<typeof tempDb>;
  let studyId = 0;
  let people: number[] = [];
  const positionOf = (itemId: number) =>
    t.db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).get()!.position;
  const setCursor = (openFrom: number) =>
    t.db
      .insert(schema.allocationCursors)
      .values({ studyId, openFrom })
      .onConflictDoUpdate({
        target: schema.allocationCursors.studyId,
        set: { openFrom },
      })
      .run();

  beforeEach(() => {
    t = tempDb();
    seedDemo(t.db);
    studyId = createConsensusStudy(t.db, { name: "cursor", pool: "expert", trajectories: 2, labelsPerItem: K });
    people = ["a", "b", "c", "d", "e"].map((n) => addAnnotator(t.db, `cursor-${n}`, "expert"));
  });
  afterEach(() => t.cleanup());

  it("moves past full items and back when a place behind it frees up", () => {
    const [a, b, c, d] = people;
    const first = nextTask(t.db, studyId, a)!.itemId;
    expect(nextTask(t.db, studyId, b)!.itemId).toBe(first);
    const second = nextTask(t.db, studyId, c)!.itemId;
    expect(second).not.toBe(first);
    expect(allocationCursor(t.db, studyId)).toBe(positionOf(second));

    // a passes on the first item: its place is free again, behind the cursor.
    markSkipped(t.db, findAssignment(t.db, first, a)!.id, new Date().toISOString(), null);
    expect(allocationCursor(t.db, studyId)).toBe(positionOf(first));
    expect(nextTask(t.db, studyId, d)!.itemId).toBe(first);
  });

  it("every write that could free a place moves the cursor back to its item", () => {
    const [a, b] = people;
    const lease = nextTask(t.db, studyId, a)!;
    const item = lease.itemId;
    const at = positionOf(item);
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
      setCursor(at + 50);
      write();
      expect(allocationCursor(t.db, studyId), what).toBe(at);
    }

    nextTask(t.db, studyId, b);
    submitLabel(t.db, {
      studyId,
      itemId: item,
      annotatorId: b,
      payload: validConsensusLabel(t.db, item),
      clientToken: "cursor-b-first",
      secondsOnTask: 20,
    });
    setCursor(at + 50);
    t.db.$client.prepare("UPDATE labels SET status = 'pending' WHERE study_item_id = ?").run(item);
    expect(allocationCursor(t.db, studyId), "a label back to pending").toBe(at);

    setCursor(at + 50);
    t.db.$client.prepare("UPDATE annotators SET role = 'crowd' WHERE id = ?").run(b);
    expect(allocationCursor(t.db, studyId), "an identity change").toBe(0);

    setCursor(at + 50);
    t.db.$client.prepare("UPDATE studies SET labels_per_item = labels_per_item + 1 WHERE id = ?").run(studyId);
    expect(allocationCursor(t.db, studyId), "a larger k").toBe(0);

    setCursor(at + 50);
    t.db.$client.prepare("UPDATE study_items SET position = ? WHERE id = ?").run(-1, item);
    expect(allocationCursor(t.db, studyId), "an item moved before it").toBe(-1);
  });

  it("a search from the cursor finds what a search from the start finds, through leases, skips and submits", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let done = 0;
    for (let step = 0; step < 400 && done < people.length; step++) {
      const who = people[Math.floor(random() * people.length)];
      const lease = nextTask(t.db, studyId, who);
      if (!lease) {
        done++;
        continue;
      }
      if (random() < 0.2) markSkipped(t.db, lease.assignmentId, new Date().toISOString(), null);
      else
        submitLabel(t.db, {
          studyId,
          itemId: lease.itemId,
          annotatorId: who,
          payload: validConsensusLabel(t.db, lease.itemId),
          clientToken: `cursor-property-${step}`,
          secondsOnTask: 20,
        });
      for (const id of people)
        expect(firstOpenItem(t.db, studyId, id, K)).toBe(firstOpenItem(t.db, studyId, id, K, true, undefined, 0));
    }
    expect(allocationCursor(t.db, studyId)).toBeGreaterThan(0);
  });
});
