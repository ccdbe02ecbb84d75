/**
 * Migration 0006 gives every stored label a status: a database made at 0005 with an item holding
 * more than k labels, an unconfirmed ExternalQuestion answer and a Prolific participant's label
 * reads back with the first k confirmed labels counted, the rest surplus, and unconfirmed crowd
 * work pending; crowd work a channel already reported is marked confirmed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { databaseAt } from "../../helpers/migrations.ts";

describe("migration 0006: label status", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("counts the first k confirmed labels per item, marks the rest surplus and unconfirmed crowd work pending", () => {
    const old = databaseAt("0005_task_type_ids");
    cleanup = old.cleanup;
    const { sqlite } = old;
    sqlite.exec(`
      INSERT INTO studies (id, name, type, pool, labels_per_item) VALUES (1, 'crowd', 'ab-reactiveness', 'crowd', 2);
      INSERT INTO study_items (id, study_id, position, kind) VALUES (1, 1, 1, 'ab-reactiveness'), (2, 1, 2, 'ab-reactiveness');
      INSERT INTO annotators (id, username, display_name, role, channel, external_id) VALUES
        (1, 'link:a', 'a', 'crowd', 'link', 'a'), (2, 'link:b', 'b', 'crowd', 'link', 'b'), (3, 'mturk:W1', 'W1', 'crowd', 'mturk', 'W1'),
        (4, 'mturk:W2', 'W2', 'crowd', 'mturk', 'W2'), (5, 'prolific:P1', 'P1', 'crowd', 'prolific', 'P1');
      -- Item 1: two link labels, then a results-file label (over k), then an unconfirmed ExternalQuestion answer.
      INSERT INTO labels (id, study_item_id, annotator_id) VALUES (1, 1, 1), (2, 1, 2), (3, 1, 3), (4, 1, 4), (5, 2, 5), (6, 2, 3);
      INSERT INTO crowd_assignments (channel, external_id, external_group_id, study_id, study_item_id, annotator_id, label_id, status, source) VALUES
        ('mturk', 'A-FILE', 'H1', 1, 1, 3, 3, 'submitted', 'batch-import'),
        ('mturk', 'A-EQ', 'H1', 1, 1, 4, 4, 'submitted', 'external-question'),
        ('mturk', 'A-EQ-APPROVED', 'H2', 1, 2, 3, 6, 'approved', 'external-question'),
        ('prolific', 'S1', 'P-STUDY', 1, NULL, 5, NULL, 'submitted', 'prolific');
    `);

    old.migrateToLatest();

    expect(sqlite.prepare(`SELECT id, status FROM labels ORDER BY id`).all()).toEqual([
      { id: 1, status: "counted" },
      { id: 2, status: "counted" },
      { id: 3, status: "surplus" },
      { id: 4, status: "pending" },
      { id: 5, status: "pending" },
      { id: 6, status: "counted" },
    ]);
    const confirmed = sqlite
      .prepare(
        `SELECT external_id AS id, confirmed_at IS NOT NULL AS confirmed FROM crowd_assignments ORDER BY crowd_assignments.id`,
      )
      .all();
    expect(confirmed).toEqual([
      { id: "A-FILE", confirmed: 1 },
      { id: "A-EQ", confirmed: 0 },
      { id: "A-EQ-APPROVED", confirmed: 1 },
      { id: "S1", confirmed: 0 },
    ]);
  });
});
