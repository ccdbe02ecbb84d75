/**
 * The metric parameters recorded in the settings table (one prepared upsert per connection): the
 * defaults before any are recorded, then the last recorded, also as another connection reads them.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_METRIC_PARAMS, parseMetricParams } from "../../../app/domain/metrics/metric-params.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { currentMetricParams, recordMetricParams } from "../../../app/server/pipeline/metric-settings.server.ts";
import { databasePerTest } from "./test-db.ts";

const emptyDb = databasePerTest();

describe("recorded metric parameters", () => {
  it("are the defaults until recorded, then the last recorded", async () => {
    const db = await emptyDb();
    expect(await currentMetricParams(db)).toEqual(DEFAULT_METRIC_PARAMS);
    const [name, value] = Object.entries(DEFAULT_METRIC_PARAMS).find(([, v]) => typeof v === "number")!;
    const changed = parseMetricParams({ [name]: (value as number) + 1 });
    await recordMetricParams(db, DEFAULT_METRIC_PARAMS);
    await recordMetricParams(db, changed);
    expect(await currentMetricParams(db)).toEqual(changed);
    const other = await openDatabase(db.$client.name);
    try {
      expect(await currentMetricParams(other)).toEqual(changed);
      expect(other.$client.prepare("select count(*) as n from settings").get()).toEqual({ n: 1 });
    } finally {
      other.$client.close();
    }
  });
});
