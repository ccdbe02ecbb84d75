/** Data access for scenarios (the base disputes runs play). */
import { asc, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { scenarios } = schema;

export type ScenarioRow = typeof scenarios.$inferSelect;

// Read once per run by the metrics runner and the evaluators: prepared once per connection.
const byId = preparedOnce((db) =>
  db
    .select()
    .from(scenarios)
    .where(eq(scenarios.id, sql.placeholder("id")))
    .prepare(),
);

export async function findScenario(db: Db, id: string): Promise<ScenarioRow | undefined> {
  return (await byId(db).execute({ id }))[0];
}

/** Every scenario id, in id order. */
export async function scenarioIds(db: Db): Promise<string[]> {
  return (await db.select({ id: scenarios.id }).from(scenarios).orderBy(asc(scenarios.id))).map((s) => s.id);
}

/** Every scenario's id and domain, in id order: what a benchmark plan's grid is built from. */
export async function scenarioCatalog(db: Db): Promise<{ id: string; domain: string }[]> {
  return await db.select({ id: scenarios.id, domain: scenarios.domain }).from(scenarios).orderBy(asc(scenarios.id));
}
