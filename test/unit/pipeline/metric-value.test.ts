/** The metric_values repository: the upsert keeps one row per (subject, evaluation, metric). */
import { describe, expect, it } from "vitest";
import {
  metricValuesOf,
  upsertMetricValue,
  type NewMetricValue,
} from "../../../app/server/models/metric-value.server.ts";
import { databasePerTest } from "./test-db.ts";

const emptyDb = databasePerTest();

const row = (over: Partial<NewMetricValue> = {}): NewMetricValue => ({
  subjectKind: "run",
  subjectId: "r1",
  evaluationId: "e1",
  metric: "cg",
  value: 0.5,
  detail: { backbone: "judge", perTopic: { t1: 0.5 } },
  params: { s0: 0 },
  definitionVersion: 1,
  computedAt: "2025-01-01T00:00:00.000Z",
  ...over,
});

describe("metric values", () => {
  it("stores a new row with its detail and params as JSON", async () => {
    const db = await emptyDb();
    await upsertMetricValue(db, row());
    // A row without a `definitions` parameter is of the spec's definitions.
    expect(await metricValuesOf(db, "run", "r1")).toEqual([{ id: 1, definitions: "spec", ...row() }]);
    const [raw] = db.$client.prepare("SELECT detail, params FROM metric_values").all() as {
      detail: string;
      params: string;
    }[];
    expect(raw).toEqual({ detail: JSON.stringify(row().detail), params: JSON.stringify(row().params) });
  });

  it("replaces value, detail, params, definition version and time of the same subject, evaluation and metric; keeps the row", async () => {
    const db = await emptyDb();
    await upsertMetricValue(db, row());
    // "cg" is no registered id, so any definition version of it is read back.
    const later = row({
      value: null,
      detail: { undefinedBecause: "no drop" },
      params: { s0: 1 },
      definitionVersion: 2,
      computedAt: "2025-02-01T00:00:00.000Z",
    });
    await upsertMetricValue(db, later);
    expect(await metricValuesOf(db, "run", "r1")).toEqual([{ id: 1, definitions: "spec", ...later }]);
  });

  it("keeps rows of another subject kind, evaluation or metric apart; reads them by evaluation and metric", async () => {
    const db = await emptyDb();
    await upsertMetricValue(db, row({ metric: "it" }));
    await upsertMetricValue(db, row({ evaluationId: "" }));
    await upsertMetricValue(db, row());
    await upsertMetricValue(db, row({ subjectKind: "pair" }));
    expect((await metricValuesOf(db, "run", "r1")).map((r) => [r.evaluationId, r.metric])).toEqual([
      ["", "cg"],
      ["e1", "cg"],
      ["e1", "it"],
    ]);
    expect(await metricValuesOf(db, "pair", "r1")).toHaveLength(1);
  });
});
