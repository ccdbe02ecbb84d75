/** Data access for conditions (a scenario's variants along one axis). */
import { and, asc, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { conditions } = schema;

export type ConditionRow = typeof conditions.$inferSelect;

// Read once per run by the metrics runner and the evaluators: prepared once per connection.
const byId = preparedOnce((db) =>
  db
    .select()
    .from(conditions)
    .where(eq(conditions.id, sql.placeholder("id")))
    .prepare(),
);

export async function findCondition(db: Db, id: string): Promise<ConditionRow | undefined> {
  return (await byId(db).execute({ id }))[0];
}

// The import asks once per condition it brings (conditions_scenario_axis_variant_uq).
const byKey = preparedOnce((db) =>
  db
    .select({ id: conditions.id })
    .from(conditions)
    .where(
      and(
        eq(conditions.scenarioId, sql.placeholder("scenarioId")),
        eq(conditions.axis, sql.placeholder("axis")),
        eq(conditions.variant, sql.placeholder("variant")),
      ),
    )
    .prepare(),
);

/** The id of the stored condition with this scenario, axis and variant (they are unique together). */
export async function conditionIdWithKey(
  db: Db,
  scenarioId: string,
  axis: string,
  variant: string,
): Promise<string | undefined> {
  return (await byKey(db).execute({ scenarioId, axis, variant }))[0]?.id;
}

/** The scenario's condition on the "general" axis, if it has one. */
export async function generalCondition(db: Db, scenarioId: string): Promise<ConditionRow | undefined> {
  return (
    await db
      .select()
      .from(conditions)
      .where(and(eq(conditions.scenarioId, scenarioId), eq(conditions.axis, "general")))
      .limit(1)
  )[0];
}

/** Every stored condition of a scenario, in id order. */
export async function conditionsOfScenario(db: Db, scenarioId: string): Promise<ConditionRow[]> {
  return await db.select().from(conditions).where(eq(conditions.scenarioId, scenarioId)).orderBy(asc(conditions.id));
}

/** Every condition's identity (no bodies), in id order: what a benchmark plan's grid is built from. */
export async function conditionCatalog(
  db: Db,
): Promise<{ id: string; scenarioId: string; axis: string; variant: string }[]> {
  return await db
    .select({
      id: conditions.id,
      scenarioId: conditions.scenarioId,
      axis: conditions.axis,
      variant: conditions.variant,
    })
    .from(conditions)
    .orderBy(asc(conditions.id));
}
