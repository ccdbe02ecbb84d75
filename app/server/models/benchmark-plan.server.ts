/**
 * Data access for benchmark_plans: each plan `benchmark run` has worked on, under the hash of its
 * canonical JSON, so the Benchmark page and `report` can rebuild its grid from the database.
 */
import { desc, eq } from "drizzle-orm";
import { benchmarkPlans } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { nowIso } from "./portable-sql.server.ts";

export type BenchmarkPlanRow = typeof benchmarkPlans.$inferSelect;

/** Records a plan (once per hash) and marks it as just run. */
export async function touchBenchmarkPlan(
  db: Db,
  row: { hash: string; name: string; plan: unknown; source: string },
): Promise<void> {
  const now = nowIso(db);
  await db
    .insert(benchmarkPlans)
    .values({ ...row, lastRunAt: now })
    .onConflictDoUpdate({ target: benchmarkPlans.hash, set: { name: row.name, source: row.source, lastRunAt: now } });
}

export async function findBenchmarkPlan(db: Db, hash: string): Promise<BenchmarkPlanRow | undefined> {
  return (await db.select().from(benchmarkPlans).where(eq(benchmarkPlans.hash, hash)).limit(1))[0];
}

/** Every recorded plan, the most recently run first. */
export async function benchmarkPlanList(db: Db): Promise<BenchmarkPlanRow[]> {
  return await db.select().from(benchmarkPlans).orderBy(desc(benchmarkPlans.lastRunAt), benchmarkPlans.name);
}
