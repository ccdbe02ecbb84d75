/**
 * Table 5's input from the database: every scenario the plan selects (and any it names that the
 * database lacks), the benchmark condition keys stored for each, and the runs the grid plans on
 * each stored, selected condition. Two catalogue queries, whatever the grid's size.
 */
import { selectedConditionKeys, type BenchmarkGrid } from "../../domain/benchmark/grid.ts";
import { CONDITION_KEYS, conditionKeyOf, type BenchmarkPlan } from "../../domain/benchmark/plan.ts";
import type { ConditionCoverage, ScenarioConditions } from "../../domain/benchmark/report/input.ts";
import type { Db } from "../db.server.ts";
import { conditionCatalog } from "../models/condition.server.ts";
import { scenarioCatalog } from "../models/scenario.server.ts";

/** The keys of the main grid and the repeats, in Table 5 order. */
function selectedKeys(plan: BenchmarkPlan): string[] {
  const keys = new Set(selectedConditionKeys(plan.conditions));
  if (plan.ablations.repeats) for (const k of selectedConditionKeys(plan.ablations.repeats.conditions)) keys.add(k);
  return CONDITION_KEYS.filter((k) => keys.has(k));
}

/** The plan's scenario ids: in its own order when it lists ids, else in catalogue order. */
function scenarioOrder(plan: BenchmarkPlan, grid: BenchmarkGrid, catalogue: readonly { id: string }[]): string[] {
  // Every selected scenario has a unit or a missing entry for each main key, so these two name them all.
  const inGrid = new Set([...grid.units.map((u) => u.scenarioId), ...grid.missing.map((m) => m.scenarioId)]);
  const sel = plan.scenarios;
  if (sel !== "all" && "ids" in sel) return sel.ids.filter((id, i) => sel.ids.indexOf(id) === i);
  return catalogue.map((s) => s.id).filter((id) => inGrid.has(id));
}

export async function loadConditionCoverage(
  db: Db,
  plan: BenchmarkPlan,
  grid: BenchmarkGrid,
): Promise<ConditionCoverage> {
  const catalogue = await scenarioCatalog(db);
  const domainOf = new Map(catalogue.map((s) => [s.id, s.domain]));
  const benchmarkKeys = new Set(CONDITION_KEYS);
  const stored = new Map<string, string[]>();
  for (const c of await conditionCatalog(db)) {
    const key = conditionKeyOf(c.axis, c.variant);
    if (!benchmarkKeys.has(key)) continue; // the persona-fidelity conditions are not among the 15
    stored.set(c.scenarioId, [...(stored.get(c.scenarioId) ?? []), key]);
  }
  const planned = new Map<string, Record<string, number>>();
  for (const unit of grid.units) {
    const runs = planned.get(unit.scenarioId) ?? {};
    runs[unit.conditionKey] = (runs[unit.conditionKey] ?? 0) + 1 + unit.mediated.length;
    planned.set(unit.scenarioId, runs);
  }
  const scenarios: ScenarioConditions[] = scenarioOrder(plan, grid, catalogue).map((id) => ({
    scenarioId: id,
    domain: domainOf.get(id) ?? null,
    stored: stored.get(id) ?? [],
    plannedRuns: planned.get(id) ?? {},
  }));
  return { selected: selectedKeys(plan), scenarios };
}
