/**
 * The plan of a persona-fidelity batch: the seeded draw turned into the fidelity conditions to
 * create, the two runs of each pair, and which of them (and which pairs) are already stored.
 * Reads the database, calls nothing.
 *
 * Both runs of pair i play at run index i with the simulation's default base seed, so they
 * share seed and config and differ only in the target's level. A run is found by its identity
 * (condition, simulator and sampling, index, budget, emotion, prompts), so the same run is never
 * simulated twice whatever --seed draws, and a changed budget or emotion setting makes new runs.
 */
import { REACTIVENESS_GRID, reactivenessStatement } from "../../domain/probing/personas.ts";
import { drawFidelityPairs, type FidelityDraw } from "../../domain/probing/fidelity-draw.ts";
import { fidelityCondition } from "../../domain/probing/fidelity.ts";
import type { AbPairRecord, Condition, ScenarioBody } from "../../domain/bundle.ts";
import type { Llm } from "../../domain/llm/types.ts";
import {
  DEFAULT_BASE_SEED,
  DEFAULT_TURN_BUDGET,
  estimateCalls,
  fnv1a,
  sanitiseId,
  type CallEstimate,
} from "../../domain/simulation/schedule.ts";
import type { Db } from "../db.server.ts";
import { findAbPairByRuns } from "../models/ab-pair.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findScenario, scenarioIds } from "../models/scenario.server.ts";
import { textVersion } from "../pipeline/prompt-templates.server.ts";
import { identifyRuns } from "../pipeline/run-identity.server.ts";
import { plannedSettings, type RunPlanSettings } from "../pipeline/simulate.server.ts";

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
  /**
   * The runs' parties self-report their emotion each turn, so the automatic fidelity proxy can read it (default false).
   */
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
  sampling: RunPlanSettings["sampling"];
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

/** A new pair's id: its draw, and a hash of its two runs (other run settings, another pair). */
export function fidelityPairId(
  simulatorModel: string,
  seed: number,
  index: number,
  runIds: readonly [string, string],
): string {
  const runs = fnv1a(runIds.join("|")).toString(16).padStart(8, "0");
  return sanitiseId(`fidelity:${simulatorModel}:s${seed}:${index}:${runs}`);
}

function wholeNumber(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min)
    throw new FidelityInputError(`${name} must be a whole number ≥ ${min}, got ${value}`);
}

async function generalBodies(db: Db, ids: readonly string[]): Promise<Map<string, ScenarioBody>> {
  const bodies = new Map<string, ScenarioBody>();
  for (const id of ids) {
    const row = await findScenario(db, id);
    if (!row) throw new FidelityInputError(`unknown scenario "${id}"`);
    bodies.set(id, { background: row.background, topics: row.topics, parties: row.parties });
  }
  if (bodies.size === 0) throw new FidelityInputError("no scenarios to draw from: import or curate some first");
  return bodies;
}

export async function planFidelity(options: FidelityOptions): Promise<FidelityPlan> {
  const { db, llm } = options;
  const seed = options.seed ?? DEFAULT_FIDELITY_SEED;
  const budget = options.budget ?? DEFAULT_TURN_BUDGET;
  const emotion = options.emotion ?? false;
  wholeNumber("the number of pairs", options.pairs, 1);
  wholeNumber("the seed", seed, 0);
  wholeNumber("the turn budget", budget, 1);
  if (options.simulator !== undefined && !options.simulator.trim())
    throw new FidelityInputError("the simulator is a model name");
  const simulatorModel = llm.modelFor("party", options.simulator);
  const bodies = await generalBodies(db, options.scenarios ?? (await scenarioIds(db)));
  const pool = [...bodies].map(([id, body]) => ({ id, partyIds: body.parties.map((p) => p.id) }));
  const version = fidelityTemplateVersion();
  const sampling = { party: llm.samplingFor("party"), mediator: null };
  const settingsOf = (c: Condition) =>
    runSettings({ simulatorModel, budget, emotion, sampling, conditions: new Map([[c.id, c]]) }, { conditionId: c.id });

  const conditions = new Map<string, Condition>();
  const sideCondition = (draw: FidelityDraw, levelIndex: number): Condition => {
    const condition = fidelityCondition(
      {
        scenarioId: draw.scenarioId,
        body: bodies.get(draw.scenarioId)!,
        target: draw.target,
        levelIndex,
        referenceIndex: draw.reference,
      },
      version,
    );
    if (!conditions.has(condition.id)) conditions.set(condition.id, condition);
    return condition;
  };
  const draws = drawFidelityPairs(pool, options.pairs, seed).map((draw) => ({
    draw,
    sides: [sideCondition(draw, draw.levelA), sideCondition(draw, draw.levelB)],
  }));
  const identified = await identifyRuns(
    db,
    draws.flatMap(({ draw, sides }) => sides.map((c) => plannedSettings(settingsOf(c), draw.index, false))),
  );
  const pairs = await Promise.all(
    draws.map(async ({ draw, sides }, i): Promise<FidelityPairPlan> => {
      const [runA, runB] = sides.map(
        (c, side): FidelityRun => ({ conditionId: c.id, index: draw.index, ...identified[2 * i + side] }),
      );
      // A pair is found by its two runs: pairs stored before keep their ids.
      const stored = await findAbPairByRuns(db, runA.runId, runB.runId);
      const record: AbPairRecord = {
        id: stored?.id ?? fidelityPairId(simulatorModel, seed, draw.index, [runA.runId, runB.runId]),
        scenario_id: draw.scenarioId,
        run_a_id: runA.runId,
        run_b_id: runB.runId,
        target_party: draw.target,
        level_a: REACTIVENESS_GRID[draw.levelA],
        level_b: REACTIVENESS_GRID[draw.levelB],
        opponent_level: REACTIVENESS_GRID[draw.reference],
      };
      return { draw, record, runA, runB, stored: stored !== undefined };
    }),
  );
  const newConditions: Condition[] = [];
  for (const c of conditions.values()) if (!(await findCondition(db, c.id))) newConditions.push(c);
  return { simulatorModel, seed, budget, emotion, sampling, conditions, newConditions, pairs };
}

/** The runs still to simulate (pair i's runs have index i, so no two pairs share one). */
export function pendingRuns(plan: FidelityPlan): FidelityRun[] {
  return plan.pairs.flatMap((p) => [p.runA, p.runB]).filter((r) => !r.stored);
}

/** The settings runSetup needs for one of the plan's runs. */
export function runSettings(
  plan: Pick<FidelityPlan, "conditions" | "simulatorModel" | "budget" | "emotion" | "sampling">,
  run: Pick<FidelityRun, "conditionId">,
): RunPlanSettings {
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
    sampling: plan.sampling,
  };
}

/** The most LLM calls the pending runs could make (for --dry-run). */
export function estimateFidelity(plan: FidelityPlan): CallEstimate {
  return estimateCalls({ mediatedRuns: 0, unmediatedRuns: pendingRuns(plan).length, budget: plan.budget });
}
