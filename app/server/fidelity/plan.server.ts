/**
 * The plan of a persona-fidelity batch: the seeded draw turned into the fidelity conditions to
 * create, the two runs of each pair, and which of them (and which pairs) are already stored.
 * Reads the database, calls nothing.
 *
 * Both runs of pair i play at run index i with the simulation's default base seed, so they
 * share seed and config and differ only in the target's level; a run id names its condition,
 * simulator and index, so the same run is never simulated twice whatever --seed draws.
 */
import { REACTIVENESS_GRID, reactivenessStatement } from "../../domain/probing/personas.ts";
import { drawFidelityPairs, type FidelityDraw } from "../../domain/probing/fidelity-draw.ts";
import { fidelityCondition } from "../../domain/probing/fidelity.ts";
import type { AbPairRecord, Condition, ScenarioBody } from "../../domain/bundle.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { DEFAULT_BASE_SEED, DEFAULT_TURN_BUDGET, estimateCalls, sanitiseId, simulationRunId, type CallEstimate } from "../../domain/simulation/schedule.ts";
import type { Db } from "../db.server.ts";
import { findAbPair } from "../models/ab-pair.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findRun } from "../models/run.server.ts";
import { findScenario, scenarioIds } from "../models/scenario.server.ts";
import { textVersion } from "../pipeline/prompt-templates.server.ts";
import type { RunPlanSettings } from "../pipeline/simulate.server.ts";

/** Bad batch input (unknown scenario, a run stored with other settings…): the CLI shows the message. */
export class FidelityInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FidelityInputError";
  }
}

export interface FidelityOptions {
  db: Db;
  llm: Llm;
  /** The party model of every run (the `party` role's model when omitted). */
  simulator?: string;
  pairs: number;
  /** Scenario ids to draw from (default: every stored scenario). */
  scenarios?: string[];
  seed?: number;
  budget?: number;
  /** The runs' parties self-report their emotion each turn, so the automatic fidelity proxy can read it (default false). */
  emotion?: boolean;
}

export interface FidelityRun {
  runId: string;
  conditionId: string;
  index: number;
  stored: boolean;
}

export interface FidelityPairPlan {
  draw: FidelityDraw;
  record: AbPairRecord;
  runA: FidelityRun;
  runB: FidelityRun;
  stored: boolean;
}

export interface FidelityPlan {
  simulatorModel: string;
  seed: number;
  budget: number;
  emotion: boolean;
  /** Every condition the pairs play (by id), and those not yet stored. */
  conditions: Map<string, Condition>;
  newConditions: Condition[];
  pairs: FidelityPairPlan[];
}

export const DEFAULT_FIDELITY_SEED = 1;

/** A short hash of the statement texts of the grid: a fidelity condition's template version. */
export function fidelityTemplateVersion(): string {
  return textVersion(REACTIVENESS_GRID.map((level) => `${reactivenessStatement(level)}\n`).join(""));
}

export function fidelityPairId(simulatorModel: string, seed: number, index: number): string {
  return sanitiseId(`fidelity:${simulatorModel}:s${seed}:${index}`);
}

function wholeNumber(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new FidelityInputError(`${name} must be a whole number ≥ ${min}, got ${value}`);
}

function generalBodies(db: Db, ids: readonly string[]): Map<string, ScenarioBody> {
  const bodies = new Map<string, ScenarioBody>();
  for (const id of ids) {
    const row = findScenario(db, id);
    if (!row) throw new FidelityInputError(`unknown scenario "${id}"`);
    bodies.set(id, { background: row.background, topics: row.topics, parties: row.parties });
  }
  if (bodies.size === 0) throw new FidelityInputError("no scenarios to draw from: import or curate some first");
  return bodies;
}

/** A stored run under a planned id must be the run this batch would simulate (same backbone and settings). */
function checkStoredRun(db: Db, run: FidelityRun, simulatorModel: string, budget: number, emotion: boolean): boolean {
  const row = findRun(db, run.runId);
  if (!row) return false;
  const config = row.config as { turn_budget?: unknown; base_seed?: unknown; emotion?: unknown };
  if (row.simulatorBackbone !== simulatorModel || row.mediated || config.turn_budget !== budget || config.base_seed !== DEFAULT_BASE_SEED) {
    throw new FidelityInputError(
      `run "${run.runId}" is already stored with other settings (simulator "${row.simulatorBackbone}", turn budget ${String(config.turn_budget)}); use the budget it was made with`,
    );
  }
  if ((config.emotion === true) !== emotion) {
    throw new FidelityInputError(`run "${run.runId}" is already stored ${emotion ? "without" : "with"} self-reported emotion; ${emotion ? "drop" : "add"} --emotion to match it`);
  }
  return true;
}

export function planFidelity(options: FidelityOptions): FidelityPlan {
  const { db, llm } = options;
  const seed = options.seed ?? DEFAULT_FIDELITY_SEED;
  const budget = options.budget ?? DEFAULT_TURN_BUDGET;
  const emotion = options.emotion ?? false;
  wholeNumber("the number of pairs", options.pairs, 1);
  wholeNumber("the seed", seed, 0);
  wholeNumber("the turn budget", budget, 1);
  if (options.simulator !== undefined && !options.simulator.trim()) throw new FidelityInputError("the simulator is a model name");
  const simulatorModel = llm.modelFor("party", options.simulator);
  const bodies = generalBodies(db, options.scenarios ?? scenarioIds(db));
  const pool = [...bodies].map(([id, body]) => ({ id, partyIds: body.parties.map((p) => p.id) }));
  const version = fidelityTemplateVersion();

  const conditions = new Map<string, Condition>();
  const sideCondition = (draw: FidelityDraw, levelIndex: number): Condition => {
    const condition = fidelityCondition({ scenarioId: draw.scenarioId, body: bodies.get(draw.scenarioId)!, target: draw.target, levelIndex, referenceIndex: draw.reference }, version);
    if (!conditions.has(condition.id)) conditions.set(condition.id, condition);
    return condition;
  };
  const pairs = drawFidelityPairs(pool, options.pairs, seed).map((draw): FidelityPairPlan => {
    const [a, b] = [sideCondition(draw, draw.levelA), sideCondition(draw, draw.levelB)];
    const run = (c: Condition): FidelityRun => {
      const planned = { runId: simulationRunId(c.id, null, simulatorModel, draw.index), conditionId: c.id, index: draw.index, stored: false };
      planned.stored = checkStoredRun(db, planned, simulatorModel, budget, emotion);
      return planned;
    };
    const [runA, runB] = [run(a), run(b)];
    const record: AbPairRecord = {
      id: fidelityPairId(simulatorModel, seed, draw.index),
      scenario_id: draw.scenarioId,
      run_a_id: runA.runId,
      run_b_id: runB.runId,
      target_party: draw.target,
      level_a: REACTIVENESS_GRID[draw.levelA],
      level_b: REACTIVENESS_GRID[draw.levelB],
      opponent_level: REACTIVENESS_GRID[draw.reference],
    };
    return { draw, record, runA, runB, stored: findAbPair(db, record.id) !== undefined };
  });
  const newConditions = [...conditions.values()].filter((c) => !findCondition(db, c.id));
  return { simulatorModel, seed, budget, emotion, conditions, newConditions, pairs };
}

/** The runs still to simulate (pair i's runs have index i, so no two pairs share one). */
export function pendingRuns(plan: FidelityPlan): FidelityRun[] {
  return plan.pairs.flatMap((p) => [p.runA, p.runB]).filter((r) => !r.stored);
}

/** The settings runSetup needs for one of the plan's runs. */
export function runSettings(plan: FidelityPlan, run: FidelityRun): RunPlanSettings {
  const condition = plan.conditions.get(run.conditionId)!;
  const played = condition.expanded!;
  return {
    condition,
    played: { background: played.background, topics: played.topics, parties: played.parties },
    partyOrder: played.parties.map((p) => p.id),
    simulatorModel: plan.simulatorModel,
    mediatorModel: null,
    budget: plan.budget,
    baseSeed: DEFAULT_BASE_SEED,
    emotion: plan.emotion,
  };
}

/** The most LLM calls the pending runs could make (for --dry-run). */
export function estimateFidelity(plan: FidelityPlan): CallEstimate {
  return estimateCalls({ mediatedRuns: 0, unmediatedRuns: pendingRuns(plan).length, budget: plan.budget });
}
