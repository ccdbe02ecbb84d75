/**
 * Crowd assignments stored before migration 0005 have their answer hash cleared by it (SQL cannot
 * recompute sha256 after renaming the payload kinds). A re-import must still tell the same answer
 * (unchanged, the hash restored) from a different one (refused with 409, nothing written).
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seedDemoStudies } from "../../../db/demo/studies.ts";
import { payloadHash, recordCrowdAssignment, type CrowdAssignmentInput } from "../../../app/server/crowd/record-assignment.server.ts";
import { writeLabelRevision } from "../../../app/server/models/label.server.ts";
import { seedDemo } from "../../helpers/annotation.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, tempDb } from "../../helpers/temp-db.ts";

const AB_STUDY = 3;
const A = { kind: "ab-reactiveness", choice: "A" } as const;
const B = { kind: "ab-reactiveness", choice: "B" } as const;

describe("re-importing crowd assignments after migration 0005", () => {
  let t: ReturnType<typeof tempDb>;
  let itemId: number;

  beforeEach(async () => {
    t = tempDb();
    seedDemo(t.db);
    await seedDemoStudies(t.db);
    itemId = (t.db.$client.prepare(`SELECT id FROM study_items WHERE study_id = ? AND is_gold = 0 ORDER BY position LIMIT 1`).get(AB_STUDY) as { id: number }).id;
  });
  afterEach(() => t.cleanup());

  const input = (over: Partial<CrowdAssignmentInput>): CrowdAssignmentInput => ({
    channel: "mturk",
    externalId: "3ASSIGN_BEFORE_0005",
    externalGroupId: "3HIT",
    studyId: AB_STUDY,
    itemId,
    workerId: "A1WORKER",
    status: "submitted",
    payload: A,
    secondsOnTask: 95,
    rewardUsd: 0.5,
    acceptedAt: null,
    submittedAt: "2026-11-23T09:00:00.000Z",
    source: "batch-import",
    ...over,
  });

  /** Puts the stored payloads back to the old kind, then runs migration 0005 itself over them. */
  function migrateFromOldKinds(): void {
    t.db.$client.exec(`UPDATE label_revisions SET payload = json_set(payload, '$.kind', 'ab') WHERE json_extract(payload, '$.kind') = 'ab-reactiveness'`);
    t.db.$client.exec(readFileSync("db/migrations/0005_task_type_ids.sql", "utf8").replaceAll("--> statement-breakpoint", ""));
  }

  const hashOf = (externalId: string) => (t.db.$client.prepare(`SELECT payload_hash AS h FROM crowd_assignments WHERE external_id = ?`).get(externalId) as { h: string | null }).h;
  const snapshot = () => ({
    counts: tableCounts(t.db),
    assignments: t.db.$client.prepare(`SELECT * FROM crowd_assignments ORDER BY id`).all(),
    revisions: t.db.$client.prepare(`SELECT * FROM label_revisions ORDER BY id`).all(),
  });

  it("takes the same answer as unchanged and restores its hash", () => {
    recordCrowdAssignment(t.db, input({}));
    migrateFromOldKinds();
    expect(hashOf("3ASSIGN_BEFORE_0005")).toBeNull();
    const counts = tableCounts(t.db);
    expect(recordCrowdAssignment(t.db, input({ status: "approved" }))).toEqual({ kind: "unchanged", statusChanged: true });
    expect(tableCounts(t.db)).toEqual(counts);
    expect(hashOf("3ASSIGN_BEFORE_0005")).toBe(payloadHash(A));
  });

  it("refuses a different answer with 409 and leaves the database as it was", () => {
    recordCrowdAssignment(t.db, input({}));
    migrateFromOldKinds();
    const before = snapshot();
    expectServiceError(() => recordCrowdAssignment(t.db, input({ payload: B })), 409, /imported before with a different answer/);
    expect(snapshot()).toEqual(before);
    expect(hashOf("3ASSIGN_BEFORE_0005")).toBeNull();
  });

  it("recognises each of a worker's assignments on the item by its own revision", () => {
    recordCrowdAssignment(t.db, input({}));
    recordCrowdAssignment(t.db, input({ externalId: "3ASSIGN_SECOND", externalGroupId: "3HIT2", payload: B }));
    migrateFromOldKinds();
    // The whole file again: both answers are the ones stored, though only the second is the latest revision.
    expect(recordCrowdAssignment(t.db, input({}))).toEqual({ kind: "unchanged", statusChanged: false });
    expect(recordCrowdAssignment(t.db, input({ externalId: "3ASSIGN_SECOND", externalGroupId: "3HIT2", payload: B }))).toEqual({ kind: "unchanged", statusChanged: false });
  });

  it("never takes a later revision from the web task for the assignment's answer", () => {
    recordCrowdAssignment(t.db, input({}));
    const annotatorId = (t.db.$client.prepare(`SELECT annotator_id AS a FROM crowd_assignments WHERE external_id = '3ASSIGN_BEFORE_0005'`).get() as { a: number }).a;
    writeLabelRevision(t.db, itemId, annotatorId, B, "web-token-0001", 30);
    migrateFromOldKinds();
    expectServiceError(() => recordCrowdAssignment(t.db, input({ payload: B })), 409, /different answer/);
    expect(recordCrowdAssignment(t.db, input({}))).toEqual({ kind: "unchanged", statusChanged: false });
  });
});
