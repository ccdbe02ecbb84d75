/**
 * Data access for settings: one JSON value per key, for what outlives one command (the metric
 * parameters last computed with, under `metric-params`).
 */
import { eq, sql } from "drizzle-orm";
import { settings } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce, rawPlaceholder } from "./prepared.server.ts";
import { nowIso } from "./portable-sql.server.ts";

export const SETTING_KEYS = { metricParams: "metric-params" } as const;
export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

export async function readSetting(db: Db, key: SettingKey): Promise<unknown> {
  return (await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1))[0]?.value;
}

// The benchmark runner records its metric parameters with every run's metrics: prepared once per connection.
const upsert = preparedOnce((db) =>
  db
    .insert(settings)
    .values({ key: rawPlaceholder("key"), value: rawPlaceholder("value"), updatedAt: nowIso(db) })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql.raw("excluded.value"), updatedAt: nowIso(db) } })
    .prepare(),
);

export async function writeSetting(db: Db, key: SettingKey, value: unknown): Promise<void> {
  await upsert(db).execute({ key, value: JSON.stringify(value) });
}
