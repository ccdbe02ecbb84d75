/**
 * Migration 0015 gives every metric row the definition version that computed it. Rows stored
 * before it were computed by the first definitions, so they read as version 1: RL and TLE (now
 * at 2) are stale and no longer served, IT (still 1) is served as before, values untouched.
 */
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { metricValuesOf, staleMetricValuesOf } from "../../../app/server/models/metric-value.server.ts";
import { databaseAt } from "../../helpers/migrations.ts";

describe("migration 0015: metric definition versions", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("marks every earlier row version 1, so a metric whose definition moved on reads it as stale", async () => {
    const old = databaseAt("0014_issue19_child_row_triggers");
    cleanup = old.cleanup;
    const insert = old.sqlite.prepare(
      `INSERT INTO metric_values (subject_kind, subject_id, evaluation_id, metric, value, detail, params, computed_at) VALUES ('run', 'r1', ?, ?, ?, '{}', '{}', '2026-01-01T00:00:00Z')`,
    );
    insert.run("r1:per-turn:j", "RL", 5);
    insert.run("r1:per-turn:j", "TLE", 0.1);
    insert.run("r1:topic-localized:j", "IT", 0.75);

    old.migrateToLatest();

    const versions = old.sqlite
      .prepare("SELECT metric, value, definition_version AS version FROM metric_values ORDER BY metric")
      .all();
    expect(versions).toEqual([
      { metric: "IT", value: 0.75, version: 1 },
      { metric: "RL", value: 5, version: 1 },
      { metric: "TLE", value: 0.1, version: 1 },
    ]);
    const db = drizzle(old.sqlite, { schema }) as unknown as Db;
    expect((await metricValuesOf(db, "run", "r1")).map((r) => r.metric)).toEqual(["IT"]);
    expect((await staleMetricValuesOf(db, "run", "r1")).map((r) => r.metric)).toEqual(["RL", "TLE"]);
  });
});
