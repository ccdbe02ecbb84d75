/**
 * Migration 0005 rewrites the old task-type names in stored data: a database created at 0004
 * with old-kind rows (item kinds snippet/ab-pair, label kinds consensus/ab) reads back with the
 * task types' ids after migrating, and everything else in the payloads is untouched.
 */
import { afterEach, describe, expect, it } from "vitest";
import { labelPayloadSchema } from "../../../app/task-types/registry.ts";
import { databaseAt } from "../../helpers/migrations.ts";

const consensusTopics = { PRICE: { score: 4, carriedForward: false, positions: { BUYER: "A", SELLER: "unclear" } } };

describe("migration 0005: one id per task type", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("rewrites item kinds, label revisions and drafts, and clears crowd payload hashes", () => {
    const old = databaseAt("0004_mturk_hit_expiry");
    cleanup = old.cleanup;
    const { sqlite } = old;

    // Only the columns the migration reads matter; the rows' references are left dangling.
    sqlite.pragma("foreign_keys = OFF");
    sqlite.exec(`
      INSERT INTO studies (id, name, type, pool, labels_per_item) VALUES (1, 'c', 'consensus-snippet', 'expert', 2), (2, 'ab', 'ab-reactiveness', 'crowd', 3);
      INSERT INTO study_items (id, study_id, position, kind) VALUES (1, 1, 1, 'snippet'), (2, 2, 1, 'ab-pair');
      INSERT INTO labels (id, study_item_id, annotator_id) VALUES (1, 1, 7), (2, 2, 7);
    `);
    const insertRevision = sqlite.prepare(`INSERT INTO label_revisions (label_id, revision, payload) VALUES (?, ?, ?)`);
    insertRevision.run(1, 1, JSON.stringify({ kind: "consensus", topics: consensusTopics }));
    insertRevision.run(2, 1, JSON.stringify({ kind: "ab", choice: "B" }));
    const insertDraft = sqlite.prepare(
      `INSERT INTO label_drafts (study_item_id, annotator_id, payload, updated_at) VALUES (?, ?, ?, '2025-01-01T00:00:00Z')`,
    );
    insertDraft.run(
      1,
      7,
      JSON.stringify({ kind: "consensus", topics: { PRICE: { carriedForward: false, positions: {} } } }),
    );
    insertDraft.run(2, 7, JSON.stringify({ kind: "ab", choice: "A" }));
    insertDraft.run(2, 8, JSON.stringify({ choice: "A" }));
    sqlite
      .prepare(
        `INSERT INTO crowd_assignments (channel, external_id, study_id, study_item_id, annotator_id, label_id, payload_hash, status, source) VALUES ('mturk', 'A1', 2, 2, 7, 2, 'abc', 'submitted', 'import')`,
      )
      .run();

    old.migrateToLatest();

    expect(sqlite.prepare(`SELECT id, kind FROM study_items ORDER BY id`).all()).toEqual([
      { id: 1, kind: "consensus-snippet" },
      { id: 2, kind: "ab-reactiveness" },
    ]);
    const revisions = (
      sqlite.prepare(`SELECT payload FROM label_revisions ORDER BY label_id`).all() as { payload: string }[]
    ).map((r) => JSON.parse(r.payload));
    expect(revisions).toEqual([
      { kind: "consensus-snippet", topics: consensusTopics },
      { kind: "ab-reactiveness", choice: "B" },
    ]);
    // The migrated payloads are what a submit stores today.
    for (const payload of revisions) expect(labelPayloadSchema.safeParse(payload).success).toBe(true);
    const drafts = (
      sqlite.prepare(`SELECT payload FROM label_drafts ORDER BY study_item_id, annotator_id`).all() as {
        payload: string;
      }[]
    ).map((r) => JSON.parse(r.payload));
    expect(drafts).toEqual([
      { kind: "consensus-snippet", topics: { PRICE: { carriedForward: false, positions: {} } } },
      { kind: "ab-reactiveness", choice: "A" },
      { choice: "A" },
    ]);
    expect(sqlite.prepare(`SELECT payload_hash AS hash, label_id AS labelId FROM crowd_assignments`).get()).toEqual({
      hash: null,
      labelId: 2,
    });
    expect(sqlite.prepare(`SELECT type FROM studies ORDER BY id`).all()).toEqual([
      { type: "consensus-snippet" },
      { type: "ab-reactiveness" },
    ]);
  });
});
