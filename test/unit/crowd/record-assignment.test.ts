/**
 * The crowd assignment store (also after migration 0005) and the gold-based review, on a real SQLite file with the demo
 * studies.
 */
import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setStudyStatus } from "../../../app/server/annotation/studies.server.ts";
import { listCrowdAssignments } from "../../../app/server/models/crowd-assignment.server.ts";
import {
  payloadHash,
  recordCrowdAssignment,
  type CrowdAssignmentInput,
} from "../../../app/server/crowd/record-assignment.server.ts";
import { writeLabelRevision } from "../../../app/server/models/label.server.ts";
import { recordDecisions, reviewDecisions } from "../../../app/server/crowd/review.server.ts";
import { demoStudiesTemplate } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";
import { tableCounts, type tempDb } from "../../../harness/temp-db.ts";

const AB_STUDY = 3;

describe("crowd assignments", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let goldItem: { id: number; right: "A" | "B" };
  let plainItem: number;

  // The demo studies are seeded once; each test gets its own copy of that file.
  let template: Awaited<ReturnType<typeof demoStudiesTemplate>>;
  beforeAll(async () => {
    template = await demoStudiesTemplate();
  });
  afterAll(() => template.cleanup());

  beforeEach(async () => {
    t = await template.copy();
    const items = t.db.$client
      .prepare(
        `SELECT i.id, i.is_gold AS isGold, p.level_a AS a, p.level_b AS b FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.study_id = ? ORDER BY i.position`,
      )
      .all(AB_STUDY) as { id: number; isGold: number; a: number; b: number }[];
    const gold = items.find((i) => i.isGold === 1)!;
    goldItem = { id: gold.id, right: gold.a > gold.b ? "A" : "B" };
    plainItem = items.find((i) => i.isGold === 0)!.id;
  });
  afterEach(() => t.cleanup());

  const input = (over: Partial<CrowdAssignmentInput>): CrowdAssignmentInput => ({
    channel: "mturk",
    externalId: "3ASSIGN0000000000000000000001",
    externalGroupId: "3HIT",
    studyId: AB_STUDY,
    itemId: plainItem,
    workerId: "A1WORKER",
    status: "submitted",
    payload: { kind: "ab-reactiveness", choice: "A" },
    secondsOnTask: 95,
    rewardUsd: 0.5,
    acceptedAt: null,
    submittedAt: "2026-11-23T09:00:00.000Z",
    source: "batch-import",
    ...over,
  });

  it("stores a label once per assignment id, with the work time, and makes the worker a crowd annotator", async () => {
    const first = await recordCrowdAssignment(t.db, input({}));
    expect(first).toMatchObject({ kind: "stored", revision: 1 });
    const after = await tableCounts(t.db);
    expect(await recordCrowdAssignment(t.db, input({}))).toEqual({ kind: "unchanged", statusChanged: false });
    expect(await tableCounts(t.db)).toEqual(after);
    const worker = t.db.$client
      .prepare(`SELECT role, channel, external_id AS ext FROM annotators WHERE external_id = 'A1WORKER'`)
      .get();
    expect(worker).toEqual({ role: "crowd", channel: "mturk", ext: "A1WORKER" });
    const revision = t.db.$client
      .prepare(`SELECT seconds_on_task AS s, payload FROM label_revisions WHERE label_id = ?`)
      .get(first.kind === "stored" ? first.labelId : -1);
    expect(revision).toEqual({ s: 95, payload: JSON.stringify({ kind: "ab-reactiveness", choice: "A" }) });
  });

  it("stores a results file's or sync's work confirmed, a task-page answer pending until a confirming source reports the same worker and HIT", async () => {
    const state = (externalId: string) =>
      t.db.$client
        .prepare(
          `SELECT c.confirmed_at IS NOT NULL AS confirmed, l.status FROM crowd_assignments c JOIN labels l ON l.id = c.label_id WHERE c.external_id = ?`,
        )
        .get(externalId);
    await recordCrowdAssignment(t.db, input({ externalId: "3FROMFILE", workerId: "A1FILE" }));
    await recordCrowdAssignment(t.db, input({ externalId: "3FROMSYNC", workerId: "A2SYNC", source: "sync" }));
    const page = await recordCrowdAssignment(
      t.db,
      input({ externalId: "3FROMPAGE", workerId: "A3PAGE", source: "external-question" }),
    );
    expect(page).toMatchObject({ kind: "stored", labelStatus: "pending" });
    // The demo item already holds three counted labels (k = 3): confirmed work past k is surplus.
    expect([state("3FROMFILE"), state("3FROMSYNC"), state("3FROMPAGE")]).toEqual([
      { confirmed: 1, status: "surplus" },
      { confirmed: 1, status: "surplus" },
      { confirmed: 0, status: "pending" },
    ]);
    // The same AssignmentId reported for another HIT confirms nothing and writes nothing.
    const before = await tableCounts(t.db);
    expect(
      await recordCrowdAssignment(
        t.db,
        input({ externalId: "3FROMPAGE", workerId: "A3PAGE", externalGroupId: "3OTHERHIT", source: "sync" }),
      ),
    ).toMatchObject({ kind: "mismatch" });
    expect(await tableCounts(t.db)).toEqual(before);
    expect(state("3FROMPAGE")).toEqual({ confirmed: 0, status: "pending" });
    // Reported as it was stored: confirmed.
    expect(
      await recordCrowdAssignment(
        t.db,
        input({ externalId: "3FROMPAGE", workerId: "A3PAGE", status: "approved", source: "sync" }),
      ),
    ).toEqual({
      kind: "confirmed",
      labelId: page.kind === "stored" ? page.labelId : -1,
      labelStatus: "surplus",
      statusChanged: true,
    });
    expect(state("3FROMPAGE")).toEqual({ confirmed: 1, status: "surplus" });
  });

  it("updates only the status when the channel reports the assignment approved later", async () => {
    await recordCrowdAssignment(t.db, input({}));
    expect(await recordCrowdAssignment(t.db, input({ status: "approved" }))).toEqual({
      kind: "unchanged",
      statusChanged: true,
    });
    expect((await listCrowdAssignments(t.db, AB_STUDY, "mturk")).map((r) => r.status)).toEqual(["approved"]);
  });

  it("refuses a different answer or item under a known assignment id and keeps the stored one", async () => {
    await recordCrowdAssignment(t.db, input({}));
    const before = await tableCounts(t.db);
    await expect(
      recordCrowdAssignment(t.db, input({ payload: { kind: "ab-reactiveness", choice: "B" } })),
    ).rejects.toThrow(/different answer/);
    await expect(recordCrowdAssignment(t.db, input({ itemId: goldItem.id }))).rejects.toThrow(/was stored for item/);
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("records a rejected assignment without its label, and takes the label if the rejection is reversed", async () => {
    const labelsBefore = (await tableCounts(t.db)).labels;
    expect(await recordCrowdAssignment(t.db, input({ status: "rejected", payload: { nonsense: true } }))).toEqual({
      kind: "rejected",
    });
    expect((await tableCounts(t.db)).labels).toBe(labelsBefore);
    expect(await recordCrowdAssignment(t.db, input({ status: "approved" }))).toMatchObject({ kind: "stored" });
    expect((await tableCounts(t.db)).labels).toBe(labelsBefore + 1);
  });

  it("validates the answer like a web submit, naming the field", async () => {
    await expect(
      recordCrowdAssignment(t.db, input({ payload: { kind: "ab-reactiveness", choice: "C" } })),
    ).rejects.toThrow(
      expect.objectContaining({ status: 400, problems: [expect.objectContaining({ path: "choice" })] }),
    );
    await expect(
      recordCrowdAssignment(t.db, input({ payload: { kind: "consensus-snippet", topics: {} } })),
    ).rejects.toThrow(/takes a ab-reactiveness label, not consensus-snippet/);
  });

  it("refuses new labels for a closed study", async () => {
    await setStudyStatus(t.db, AB_STUDY, "closed");
    await expect(recordCrowdAssignment(t.db, input({}))).rejects.toThrow(/closed/);
  });

  it("approves good work and rejects a failed gold item with a reason the worker can read", async () => {
    const wrong = goldItem.right === "A" ? "B" : "A";
    await recordCrowdAssignment(t.db, input({}));
    await recordCrowdAssignment(
      t.db,
      input({ externalId: "3ASSIGN_GOLD", itemId: goldItem.id, payload: { kind: "ab-reactiveness", choice: wrong } }),
    );
    await recordCrowdAssignment(
      t.db,
      input({
        externalId: "3ASSIGN_OTHER",
        workerId: "A2GOOD",
        itemId: goldItem.id,
        payload: { kind: "ab-reactiveness", choice: goldItem.right },
      }),
    );
    const decisions = await reviewDecisions(t.db, AB_STUDY, "mturk");
    expect(decisions.map((d) => [d.externalId, d.decision])).toEqual([
      ["3ASSIGN0000000000000000000001", "approve"],
      ["3ASSIGN_GOLD", "reject"],
      ["3ASSIGN_OTHER", "approve"],
    ]);
    expect(decisions[1].reason).toMatch(/check question with a known answer/);
    await recordDecisions(t.db, decisions);
    expect((await listCrowdAssignments(t.db, AB_STUDY, "mturk")).map((r) => r.decision)).toEqual([
      "approve",
      "reject",
      "approve",
    ]);
  });

  it("rejects every assignment of a worker flagged on gold items", async () => {
    const golds = t.db.$client
      .prepare(
        `SELECT i.id, p.level_a AS a, p.level_b AS b FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id WHERE i.study_id = ? AND i.is_gold = 1`,
      )
      .all(AB_STUDY) as { id: number; a: number; b: number }[];
    expect(golds.length).toBeGreaterThanOrEqual(2);
    for (const [n, g] of golds.entries()) {
      await recordCrowdAssignment(
        t.db,
        input({
          externalId: `3FLAG${n}`,
          itemId: g.id,
          payload: { kind: "ab-reactiveness", choice: g.a > g.b ? "B" : "A" },
        }),
      );
    }
    await recordCrowdAssignment(t.db, input({ externalId: "3FLAG_PLAIN" }));
    const decisions = await reviewDecisions(t.db, AB_STUDY, "mturk");
    expect(decisions).toHaveLength(golds.length + 1);
    expect(decisions.every((d) => d.decision === "reject")).toBe(true);
    expect(decisions.find((d) => d.externalId === "3FLAG_PLAIN")!.reason).toMatch(
      new RegExp(`matched 0 of ${golds.length} check questions`),
    );
  });

  /**
   * Migration 0005 cleared the stored answer hashes (SQL cannot recompute sha256 after renaming
   * the payload kinds). A re-import must still tell the same answer (unchanged, its hash restored)
   * from a different one (refused with 409, nothing written).
   */
  describe("after migration 0005 cleared the answer hashes", () => {
    const A = { kind: "ab-reactiveness", choice: "A" } as const;
    const B = { kind: "ab-reactiveness", choice: "B" } as const;
    const FIRST = input({}).externalId;

    /** Puts the stored payloads back to the old kind, then runs migration 0005 itself over them. */
    function migrateFromOldKinds(): void {
      t.db.$client.exec(
        `UPDATE label_revisions SET payload = json_set(payload, '$.kind', 'ab') WHERE json_extract(payload, '$.kind') = 'ab-reactiveness'`,
      );
      t.db.$client.exec(
        readFileSync("db/migrations/0005_task_type_ids.sql", "utf8").replaceAll("--> statement-breakpoint", ""),
      );
    }

    const hashOf = (externalId: string) =>
      (
        t.db.$client
          .prepare(`SELECT payload_hash AS h FROM crowd_assignments WHERE external_id = ?`)
          .get(externalId) as { h: string | null }
      ).h;
    const snapshot = async () => ({
      counts: await tableCounts(t.db),
      assignments: t.db.$client.prepare(`SELECT * FROM crowd_assignments ORDER BY id`).all(),
      revisions: t.db.$client.prepare(`SELECT * FROM label_revisions ORDER BY id`).all(),
    });

    it("takes the same answer as unchanged and restores its hash", async () => {
      await recordCrowdAssignment(t.db, input({}));
      migrateFromOldKinds();
      expect(hashOf(FIRST)).toBeNull();
      const counts = await tableCounts(t.db);
      expect(await recordCrowdAssignment(t.db, input({ status: "approved" }))).toEqual({
        kind: "unchanged",
        statusChanged: true,
      });
      expect(await tableCounts(t.db)).toEqual(counts);
      expect(hashOf(FIRST)).toBe(payloadHash(A));
    });

    it("refuses a different answer with 409 and leaves the database as it was", async () => {
      await recordCrowdAssignment(t.db, input({}));
      migrateFromOldKinds();
      const before = await snapshot();
      await expectServiceError(
        () => recordCrowdAssignment(t.db, input({ payload: B })),
        409,
        /imported before with a different answer/,
      );
      expect(await snapshot()).toEqual(before);
      expect(hashOf(FIRST)).toBeNull();
    });

    it("recognises each of a worker's assignments on the item by its own revision", async () => {
      await recordCrowdAssignment(t.db, input({}));
      await recordCrowdAssignment(t.db, input({ externalId: "3ASSIGN_SECOND", externalGroupId: "3HIT2", payload: B }));
      migrateFromOldKinds();
      // The whole file again: both answers are the ones stored, though only the second is the latest revision.
      expect(await recordCrowdAssignment(t.db, input({}))).toEqual({ kind: "unchanged", statusChanged: false });
      expect(
        await recordCrowdAssignment(
          t.db,
          input({ externalId: "3ASSIGN_SECOND", externalGroupId: "3HIT2", payload: B }),
        ),
      ).toEqual({ kind: "unchanged", statusChanged: false });
    });

    it("never takes a later revision from the web task for the assignment's answer", async () => {
      await recordCrowdAssignment(t.db, input({}));
      const annotatorId = (
        t.db.$client.prepare(`SELECT annotator_id AS a FROM crowd_assignments WHERE external_id = ?`).get(FIRST) as {
          a: number;
        }
      ).a;
      await writeLabelRevision(t.db, {
        itemId: plainItem,
        annotatorId,
        payload: B,
        clientToken: "web-token-0001",
        secondsOnTask: 30,
        statusIfNew: "counted",
      });
      migrateFromOldKinds();
      await expectServiceError(() => recordCrowdAssignment(t.db, input({ payload: B })), 409, /different answer/);
      expect(await recordCrowdAssignment(t.db, input({}))).toEqual({ kind: "unchanged", statusChanged: false });
    });
  });
});
