/**
 * A plan over the stored catalogue → the grid: one unit per scenario-condition × simulator × run
 * index, holding the unmediated run every mediator's pair shares and one mediated run (and its
 * matched pair) per mediator. Each run carries its settings (its identity, run-identity.ts) and
 * the id a new run of them gets; the server swaps in the stored run with the same settings, so
 * runs already stored by `simulate` (or by another shard, merged by import) are found and reused,
 * and a plan that changes a setting (budget, seed, emotion…) gets new runs. Pure: the caller
 * passes the catalogue and what identities need from outside (prompt versions, sampling).
 */
import { matchedPairId, fnv1a } from "../simulation/schedule.ts";
import {
  identifiedRunId,
  plannedRunSettings,
  settingsHash,
  type RoleSampling,
  type RunSettings,
} from "../simulation/run-identity.ts";
import { PROBE_CONDITIONS } from "../probing/conditions.ts";
import {
  CONDITION_KEYS,
  conditionKeyOf,
  type BenchmarkPlan,
  type ConditionSelection,
  type MediatorMode,
  type PlanBackbone,
  type PlanMediator,
  socialSettingsOf,
} from "./plan.ts";

export interface CatalogScenario {
  id: string;
  domain: string;
}

export interface CatalogCondition {
  id: string;
  scenarioId: string;
  axis: string;
  variant: string;
}

/** Which part of the plan a unit serves: the main grid, Table 9's repeated runs, or Figure 6's other simulator. */
export type GridPart = "main" | "repeat" | "simulator";

export interface GridMediatedRun {
  /** The plan's mediator name. */
  mediator: string;
  /** The stored run of these settings once the server has looked (else the id a new run gets). */
  runId: string;
  pairId: string;
  settings: RunSettings;
}

/** What run identities need from outside the plan. */
export interface GridIdentity {
  /** The hash of the prompt templates a run under this mediator mode renders (unmediated runs: "generic"). */
  promptVersion: (mode: MediatorMode) => string;
  /**
   * The party and mediator roles' sampling, from the LLM configuration; absent for readers
   * without one (reports), whose runs are then matched on every other setting.
   */
  sampling?: { party: RoleSampling; mediator: RoleSampling };
}

export interface GridUnit {
  /** Stable across machines and catalogues (unique in the grid). */
  key: string;
  part: GridPart;
  scenarioId: string;
  domain: string;
  conditionId: string;
  /** `general` or `<axis>:<variant>`. */
  conditionKey: string;
  axis: string;
  variant: string;
  simulator: PlanBackbone;
  runIndex: number;
  unmediatedRunId: string;
  unmediatedSettings: RunSettings;
  mediated: GridMediatedRun[];
}

export interface MissingCondition {
  scenarioId: string;
  conditionKey: string;
}

export interface BenchmarkGrid {
  units: GridUnit[];
  /** Selected scenario-conditions the database does not hold (`socrates probe` makes them). */
  missing: MissingCondition[];
  /** Scenario ids the plan names that the database does not hold. */
  unknownScenarios: string[];
}

function selectScenarios(
  plan: BenchmarkPlan,
  scenarios: readonly CatalogScenario[],
): { chosen: CatalogScenario[]; unknown: string[] } {
  const sel = plan.scenarios;
  if (sel === "all") return { chosen: [...scenarios], unknown: [] };
  if ("domains" in sel)
    return { chosen: scenarios.filter((s) => (sel.domains as readonly string[]).includes(s.domain)), unknown: [] };
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  return { chosen: sel.ids.flatMap((id) => byId.get(id) ?? []), unknown: sel.ids.filter((id) => !byId.has(id)) };
}

/** The condition keys a selection names, in the paper's Table 5 order. */
export function selectedConditionKeys(sel: ConditionSelection): string[] {
  if (sel === "all") return [...CONDITION_KEYS];
  if ("keys" in sel) return CONDITION_KEYS.filter((k) => sel.keys.includes(k));
  return PROBE_CONDITIONS.filter((c) => sel.axes.includes(c.axis)).map((c) => conditionKeyOf(c.axis, c.variant));
}

interface UnitSpec {
  part: GridPart;
  scenario: CatalogScenario;
  condition: CatalogCondition;
  simulator: PlanBackbone;
  runIndex: number;
  mediators: readonly PlanMediator[];
}

/** A grid run's settings from the plan, and the id a new run of them gets. */
function gridRun(
  plan: BenchmarkPlan,
  identity: GridIdentity,
  spec: UnitSpec,
  mediator: PlanMediator | null,
): { runId: string; settings: RunSettings } {
  const settings = plannedRunSettings({
    conditionId: spec.condition.id,
    simulatorModel: spec.simulator.model,
    simulatorSampling: identity.sampling?.party ?? NO_SAMPLING,
    mediator: mediator
      ? {
          model: mediator.model,
          mode: mediator.mode,
          sampling: identity.sampling?.mediator ?? NO_SAMPLING,
          ...(mediator.mode === "social" ? { social: socialSettingsOf(mediator) } : {}),
        }
      : null,
    budget: plan.budget,
    baseSeed: plan.seed,
    runIndex: spec.runIndex,
    promptVersion: identity.promptVersion(mediator?.mode ?? "generic"),
    emotion: plan.emotion?.selfReport ?? false,
  });
  // Without the configuration's sampling the settings leave it out (readers match on the rest).
  if (!identity.sampling) delete settings.sampling;
  return { runId: identifiedRunId(settings, settingsHash(settings)), settings };
}

const NO_SAMPLING: RoleSampling = { temperature: null, max_tokens: null };

function unitOf(plan: BenchmarkPlan, identity: GridIdentity, spec: UnitSpec): GridUnit {
  const { scenario, condition, simulator, runIndex } = spec;
  const mediated = spec.mediators.map((m) => {
    const run = gridRun(plan, identity, spec, m);
    return { mediator: m.name, ...run, pairId: matchedPairId(run.runId) };
  });
  const unmediated = gridRun(plan, identity, spec, null);
  return {
    key: `${condition.id}|${simulator.model}|r${runIndex}`,
    part: spec.part,
    scenarioId: scenario.id,
    domain: scenario.domain,
    conditionId: condition.id,
    conditionKey: conditionKeyOf(condition.axis, condition.variant),
    axis: condition.axis,
    variant: condition.variant,
    simulator,
    runIndex,
    unmediatedRunId: unmediated.runId,
    unmediatedSettings: unmediated.settings,
    mediated,
  };
}

/**
 * The plan's units, in a stable order (part, scenario order, Table 5 order, run index). A unit
 * two parts would both create (the same condition, simulator and run index) appears once, under
 * the first part, with the union of their mediators.
 */
export function expandGrid(
  plan: BenchmarkPlan,
  catalog: { scenarios: readonly CatalogScenario[]; conditions: readonly CatalogCondition[] },
  identity: GridIdentity,
): BenchmarkGrid {
  const { chosen, unknown } = selectScenarios(plan, catalog.scenarios);
  const conditionAt = new Map(
    catalog.conditions.map((c) => [`${c.scenarioId}|${conditionKeyOf(c.axis, c.variant)}`, c]),
  );
  const missing: MissingCondition[] = [];
  const units = new Map<string, GridUnit>();

  const add = (
    part: GridPart,
    keys: string[],
    simulator: PlanBackbone,
    runIndices: number[],
    mediators: readonly PlanMediator[],
  ) => {
    for (const scenario of chosen) {
      for (const key of keys) {
        const condition = conditionAt.get(`${scenario.id}|${key}`);
        if (!condition) {
          if (!missing.some((m) => m.scenarioId === scenario.id && m.conditionKey === key))
            missing.push({ scenarioId: scenario.id, conditionKey: key });
          continue;
        }
        for (const runIndex of runIndices) {
          const unit = unitOf(plan, identity, { part, scenario, condition, simulator, runIndex, mediators });
          const earlier = units.get(unit.key);
          if (!earlier) units.set(unit.key, unit);
          else
            for (const m of unit.mediated)
              if (!earlier.mediated.some((e) => e.mediator === m.mediator)) earlier.mediated.push(m);
        }
      }
    }
  };

  const mainKeys = selectedConditionKeys(plan.conditions);
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  add("main", mainKeys, plan.simulator, range(0, plan.runs), plan.mediators);
  const repeats = plan.ablations.repeats;
  if (repeats)
    add(
      "repeat",
      selectedConditionKeys(repeats.conditions),
      plan.simulator,
      range(plan.runs, repeats.runs),
      plan.mediators,
    );
  for (const alt of plan.ablations.simulators) {
    add(
      "simulator",
      mainKeys,
      { model: alt.model, ...(alt.endpoint ? { endpoint: alt.endpoint } : {}) },
      range(0, plan.runs),
      plan.mediators.filter((m) => alt.mediators.includes(m.name)),
    );
  }
  return { units: [...units.values()], missing, unknownScenarios: unknown };
}

/**
 * `--shard i/n`: whether a unit is shard i's (1-based). By a hash of its scenario and simulator, so
 * it holds on any machine, and every condition and run index of a scenario falls in one shard:
 * conditions of a scenario share requests (a party the condition leaves unchanged opens the same
 * way), which one process asks once and two machines would each pay for.
 */
export function inShard(
  unit: Pick<GridUnit, "scenarioId" | "simulator">,
  shard: { index: number; count: number },
): boolean {
  return fnv1a(`${unit.scenarioId}|${unit.simulator.model}`) % shard.count === shard.index - 1;
}

/** Parses `i/n` (1 ≤ i ≤ n), or returns a message saying what is wrong. */
export function parseShard(text: string): { index: number; count: number } | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return `expected i/n such as 2/4, got "${text}"`;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `expected 1 ≤ i ≤ n, got ${index}/${count}`;
  return { index, count };
}

/** Every evaluator backbone of the plan: the main one first, then the ablation's. */
export function planEvaluators(plan: BenchmarkPlan): PlanBackbone[] {
  const all = [plan.evaluator, ...plan.ablations.evaluators];
  return all.filter((e, i) => all.findIndex((o) => o.model === e.model) === i);
}
