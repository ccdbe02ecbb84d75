/**
 * Batches of simulated runs for one scenario-condition: plan each run's settings (its identity,
 * app/domain/simulation/run-identity.ts), skip the runs whose settings are already stored,
 * simulate the rest a few at a time, and store each run (and its matched pair) the moment it is
 * complete. A run is stored whole through importBundleFiles or not at all, so an
 * interrupted batch leaves no half run; restarting it skips what is stored, and the LLM cache
 * replays the interrupted runs without new calls.
 */
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  type BundleInput,
  type Condition,
  type MatchedPair,
  type Run,
  type Scenario,
} from "../../domain/bundle.ts";
import {
  DEFAULT_BASE_SEED,
  DEFAULT_TURN_BUDGET,
  estimateCalls,
  matchedPairId,
  runSeed,
  sanitiseId,
  type CallEstimate,
} from "../../domain/simulation/schedule.ts";
import {
  plannedRunSettings,
  runConfigOf,
  type RoleSampling,
  type RunSettings,
} from "../../domain/simulation/run-identity.ts";
import type { PlayedScenario } from "../../domain/visibility.ts";
import { importBundleFiles } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { findCondition, generalCondition, type ConditionRow } from "../models/condition.server.ts";
import { storedMatchedPairIds } from "../models/matched-pair.server.ts";
import { storedRunIds } from "../models/run.server.ts";
import { findScenario } from "../models/scenario.server.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { templateVersion } from "./prompt-templates.server.ts";
import {
  addStats,
  emptyStats,
  simulateRun,
  type CallStats,
  type RunSetup,
} from "../../domain/simulation/simulate-run.ts";
import { simulationPromptsFor, simulationTemplatesFor } from "./simulation-prompts.server.ts";
import { MEDIATOR_MODES, type MediatorMode } from "../../domain/benchmark/plan.ts";
import {
  DEFAULT_SOCIAL,
  MEDIATOR_FREQUENCIES,
  mediatorCallShape,
  type SocialSettings,
} from "../../domain/simulation/mediator-settings.ts";
import { identifyRuns } from "./run-identity.server.ts";

/** Bad batch input (unknown scenario, a condition of another scenario…): the CLI shows the message. */
export class SimulationInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SimulationInputError";
  }
}

export interface BatchOptions {
  db: Db;
  llm: Llm;
  scenarioId: string;
  /** Defaults to the scenario's general condition (created if the scenario has none). */
  conditionId?: string;
  /** A model for the mediator role, or "none" for unmediated runs only. */
  mediator: string;
  /** The mediator's mode (default generic; docs/benchmark.md "Mediator modes"). */
  mediatorMode?: string;
  /** The social mediator's frequency and memory (only with mode social; defaults DEFAULT_SOCIAL). */
  social?: { frequency?: string; memory?: number };
  runs: number;
  /** With a mediator: also simulate each index's unmediated run and store the matched pair (default true). */
  withUnmediated?: boolean;
  budget?: number;
  seed?: number;
  /** Parties self-report their emotion (0–100 and a reason) on every turn (default false). */
  emotion?: boolean;
  /** Runs simulated at once; the LLM client limits requests per endpoint on its own. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
}

export interface PlannedRun {
  /** The stored run with these settings (whatever its id), else the id the new run gets. */
  runId: string;
  index: number;
  mediated: boolean;
  stored: boolean;
}

export interface PlannedPair {
  id: string;
  index: number;
  mediatedRunId: string;
  unmediatedRunId: string;
  stored: boolean;
}

export interface BatchPlan {
  scenarioId: string;
  condition: Condition;
  /** True when the scenario had no general condition and the batch adds one. */
  conditionIsNew: boolean;
  played: PlayedScenario;
  partyOrder: string[];
  simulatorModel: string;
  mediatorModel: string | null;
  mediatorMode: MediatorMode;
  /** The social mediator's settings (mode social only). */
  mediatorSocial?: SocialSettings;
  budget: number;
  baseSeed: number;
  /** The runs' parties self-report their emotion (recorded as `emotion: true` in each run's config). */
  emotion: boolean;
  /** The party and mediator roles' sampling parameters (part of each run's identity). */
  sampling: { party: RoleSampling; mediator: RoleSampling | null };
  runs: PlannedRun[];
  pairs: PlannedPair[];
}

export type ProgressEvent =
  | { type: "stored"; runId: string; outcome: Run["outcome"]; turns: number }
  | { type: "skipped"; runId: string }
  | { type: "failed"; runId: string; reason: string }
  /** Stopped by the signal: `inFlight` when the run had started (its answered calls are cached), else never begun. */
  | { type: "aborted"; runId: string; inFlight: boolean };

export interface BatchSummary {
  plan: BatchPlan;
  stored: string[];
  skipped: string[];
  failed: { runId: string; reason: string }[];
  aborted: string[];
  pairsStored: string[];
  calls: CallStats;
}

export async function loadScenario(db: Db, id: string): Promise<Scenario> {
  const row = await findScenario(db, id);
  if (!row) throw new SimulationInputError(`unknown scenario "${id}"`);
  return {
    id: row.id,
    domain: row.domain as Scenario["domain"],
    title: row.title,
    background: row.background,
    topics: row.topics,
    parties: row.parties,
    source: row.source,
  };
}

export async function resolveCondition(
  db: Db,
  scenario: Scenario,
  conditionId: string | undefined,
): Promise<{ condition: Condition; isNew: boolean }> {
  const toCondition = (row: ConditionRow): Condition => ({
    id: row.id,
    scenario_id: row.scenarioId,
    axis: row.axis as Condition["axis"],
    variant: row.variant,
    ...(row.expanded ? { expanded: row.expanded } : {}),
  });
  if (conditionId !== undefined) {
    const row = await findCondition(db, conditionId);
    if (!row) throw new SimulationInputError(`unknown condition "${conditionId}"`);
    if (row.scenarioId !== scenario.id)
      throw new SimulationInputError(
        `condition "${conditionId}" belongs to scenario "${row.scenarioId}", not "${scenario.id}"`,
      );
    return { condition: toCondition(row), isNew: false };
  }
  const general = await generalCondition(db, scenario.id);
  if (general) return { condition: toCondition(general), isNew: false };
  return {
    condition: {
      id: sanitiseId(`${scenario.id}:general`),
      scenario_id: scenario.id,
      axis: "general",
      variant: "default",
    },
    isNew: true,
  };
}

/** Works out the batch's run ids and which are already stored. Reads the database, calls nothing. */
export async function planBatch(
  options: Omit<BatchOptions, "onProgress" | "signal" | "concurrency">,
): Promise<BatchPlan> {
  const { db, llm, runs: count } = options;
  if (!Number.isInteger(count) || count < 1)
    throw new SimulationInputError(`the number of runs must be a whole number ≥ 1, got ${count}`);
  const budget = options.budget ?? DEFAULT_TURN_BUDGET;
  if (!Number.isInteger(budget) || budget < 1)
    throw new SimulationInputError(`the turn budget must be a whole number ≥ 1, got ${budget}`);
  const baseSeed = options.seed ?? DEFAULT_BASE_SEED;
  if (!Number.isInteger(baseSeed)) throw new SimulationInputError(`the seed must be a whole number, got ${baseSeed}`);
  if (!options.mediator.trim()) throw new SimulationInputError('the mediator is a model name or "none"');
  const { mediatorMode, mediatorSocial } = mediatorSettingsOf(options);

  const scenario = await loadScenario(db, options.scenarioId);
  const { condition, isNew } = await resolveCondition(db, scenario, options.conditionId);
  const body = condition.expanded ?? scenario;
  const played: PlayedScenario = { background: body.background, topics: body.topics, parties: body.parties };
  const simulatorModel = llm.modelFor("party");
  const mediatorModel = options.mediator === "none" ? null : llm.modelFor("mediator", options.mediator);
  const withUnmediated = mediatorModel === null || (options.withUnmediated ?? true);

  const emotion = options.emotion ?? false;
  const sampling = {
    party: llm.samplingFor("party"),
    mediator: mediatorModel === null ? null : llm.samplingFor("mediator"),
  };
  const partyOrder = played.parties.map((p) => p.id);
  const settings: RunPlanSettings = {
    condition,
    played,
    partyOrder,
    simulatorModel,
    mediatorModel,
    mediatorMode,
    ...(mediatorSocial ? { mediatorSocial } : {}),
    budget,
    baseSeed,
    emotion,
    sampling,
  };
  const slots: { index: number; mediated: boolean }[] = [];
  for (let index = 0; index < count; index++) {
    if (mediatorModel !== null) slots.push({ index, mediated: true });
    if (withUnmediated) slots.push({ index, mediated: false });
  }
  // Every setting is in the identity, so a stored run found here was made exactly as asked.
  const identified = await identifyRuns(
    db,
    slots.map((s) => plannedSettings(settings, s.index, s.mediated)),
  );
  const runs: PlannedRun[] = slots.map((s, i) => ({ ...s, ...identified[i] }));
  const pairs: PlannedPair[] = [];
  if (mediatorModel !== null && withUnmediated) {
    for (let index = 0; index < count; index++) {
      const mediatedRunId = runs.find((r) => r.index === index && r.mediated)!.runId;
      const unmediatedRunId = runs.find((r) => r.index === index && !r.mediated)!.runId;
      pairs.push({ id: matchedPairId(mediatedRunId), index, mediatedRunId, unmediatedRunId, stored: false });
    }
  }
  const storedPairs = await storedMatchedPairIds(
    db,
    pairs.map((p) => p.id),
  );
  for (const p of pairs) p.stored = storedPairs.has(p.id);

  return {
    scenarioId: scenario.id,
    condition,
    conditionIsNew: isNew,
    played,
    partyOrder,
    simulatorModel,
    mediatorModel,
    mediatorMode,
    ...(mediatorSocial ? { mediatorSocial } : {}),
    budget,
    baseSeed,
    emotion,
    sampling,
    runs,
    pairs,
  };
}

/** The mode and social settings a batch asks for, checked. */
function mediatorSettingsOf(options: Pick<BatchOptions, "mediatorMode" | "social">): {
  mediatorMode: MediatorMode;
  mediatorSocial?: SocialSettings;
} {
  const mode = options.mediatorMode ?? "generic";
  const mediatorMode = MEDIATOR_MODES.find((m) => m === mode);
  if (!mediatorMode)
    throw new SimulationInputError(`the mediator mode is one of ${MEDIATOR_MODES.join(", ")}, got "${mode}"`);
  const { frequency, memory } = options.social ?? {};
  if (mediatorMode !== "social") {
    if (frequency !== undefined || memory !== undefined)
      throw new SimulationInputError(`the mediator frequency and memory go with mode "social", not "${mediatorMode}"`);
    return { mediatorMode };
  }
  const f = MEDIATOR_FREQUENCIES.find((x) => x === (frequency ?? DEFAULT_SOCIAL.frequency));
  if (!f)
    throw new SimulationInputError(
      `the mediator frequency is one of ${MEDIATOR_FREQUENCIES.join(", ")}, got "${frequency}"`,
    );
  const m = memory ?? DEFAULT_SOCIAL.memory;
  if (!Number.isInteger(m) || m < 1 || m > 50)
    throw new SimulationInputError(`the mediator memory is a whole number of events from 1 to 50, got ${m}`);
  return { mediatorMode, mediatorSocial: { frequency: f, memory: m } };
}

/** The most LLM calls the runs still to simulate could make (for `--dry-run`). */
export function estimateBatch(plan: BatchPlan): CallEstimate {
  const pending = plan.runs.filter((r) => !r.stored);
  return estimateCalls({
    mediatedRuns: pending.filter((r) => r.mediated).length,
    unmediatedRuns: pending.filter((r) => !r.mediated).length,
    budget: plan.budget,
    mediatorCalls: mediatorCallShape(plan.mediatorMode),
  });
}

/** The settings of one planned run (also used by curation's unmediated replays and fidelity pairs). */
export type RunPlanSettings = Pick<
  BatchPlan,
  "condition" | "played" | "partyOrder" | "simulatorModel" | "mediatorModel" | "budget" | "baseSeed" | "sampling"
> &
  Partial<Pick<BatchPlan, "emotion" | "mediatorMode" | "mediatorSocial">>;

/**
 * The prompt_version of the runs of a plan: a hash of the templates they render (party-emotion with emotion; an
 * unmediated run renders the generic mode's).
 */
export function simulationPromptVersion(emotion = false, mode: MediatorMode = "generic"): string {
  return templateVersion(simulationTemplatesFor(mode, { emotion }));
}

/** The identity of one run of a plan: its mediator's prompts (generic by default), the plan's settings, this index. */
export function plannedSettings(plan: RunPlanSettings, index: number, mediated: boolean): RunSettings {
  const emotion = plan.emotion ?? false;
  const mode = mediated ? (plan.mediatorMode ?? "generic") : "generic";
  let mediator = null;
  if (mediated) {
    if (plan.mediatorModel === null || plan.sampling.mediator === null)
      throw new Error("a mediated run needs the mediator's model and sampling");
    const social = mode === "social" ? (plan.mediatorSocial ?? DEFAULT_SOCIAL) : undefined;
    mediator = { model: plan.mediatorModel, mode, sampling: plan.sampling.mediator, ...(social ? { social } : {}) };
  }
  return plannedRunSettings({
    conditionId: plan.condition.id,
    simulatorModel: plan.simulatorModel,
    simulatorSampling: plan.sampling.party,
    mediator,
    budget: plan.budget,
    baseSeed: plan.baseSeed,
    runIndex: index,
    promptVersion: simulationPromptVersion(emotion, mode),
    emotion,
  });
}

/** A run's setup; its recorded config is its settings, so the stored run is found by them again. */
export function runSetup(plan: RunPlanSettings, planned: Pick<PlannedRun, "runId" | "index" | "mediated">): RunSetup {
  return {
    runId: planned.runId,
    conditionId: plan.condition.id,
    scenario: plan.played,
    partyOrder: plan.partyOrder,
    simulatorModel: plan.simulatorModel,
    mediatorModel: planned.mediated ? plan.mediatorModel : null,
    budget: plan.budget,
    seed: runSeed(plan.baseSeed, planned.index),
    // A run without emotion keeps today's config (and requests) exactly.
    ...(plan.emotion ? { emotion: true } : {}),
    ...(planned.mediated && plan.mediatorMode === "social"
      ? { mediatorSocial: plan.mediatorSocial ?? DEFAULT_SOCIAL }
      : {}),
    config: runConfigOf(plannedSettings(plan, planned.index, planned.mediated)),
  };
}

async function storeBundle(
  db: Db,
  plan: BatchPlan,
  records: { runs?: Run[]; matched_pairs?: MatchedPair[] },
): Promise<void> {
  const bundle: BundleInput = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    conditions: plan.conditionIsNew ? [plan.condition] : [],
    runs: records.runs ?? [],
    matched_pairs: records.matched_pairs ?? [],
  };
  await importBundleFiles(db, [{ file: "<simulate>", text: JSON.stringify(bundle) }]);
}

/** Stores every pair of the plan whose two runs are now stored. */
async function storeReadyPairs(db: Db, plan: BatchPlan, summary: BatchSummary): Promise<void> {
  const pending = plan.pairs.filter((p) => !p.stored);
  if (pending.length === 0) return;
  const stored = await storedRunIds(
    db,
    pending.flatMap((p) => [p.mediatedRunId, p.unmediatedRunId]),
  );
  // Filtered again after the look-up awaited: another worker may have taken some meanwhile.
  const ready = pending.filter((p) => !p.stored && stored.has(p.mediatedRunId) && stored.has(p.unmediatedRunId));
  if (ready.length === 0) return;
  // Taken before the store awaits, so a worker finishing meanwhile does not store them too.
  for (const p of ready) p.stored = true;
  try {
    await storeBundle(db, plan, {
      matched_pairs: ready.map((p) => ({
        id: p.id,
        condition_id: plan.condition.id,
        mediated_run_id: p.mediatedRunId,
        unmediated_run_id: p.unmediatedRunId,
      })),
    });
  } catch (err) {
    for (const p of ready) p.stored = false;
    throw err;
  }
  for (const p of ready) summary.pairsStored.push(p.id);
}

export async function simulateBatch(options: BatchOptions): Promise<BatchSummary> {
  const plan = await planBatch(options);
  const { db, llm, signal, onProgress } = options;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const summary: BatchSummary = {
    plan,
    stored: [],
    skipped: [],
    failed: [],
    aborted: [],
    pairsStored: [],
    calls: emptyStats(),
  };

  for (const r of plan.runs.filter((r) => r.stored)) {
    summary.skipped.push(r.runId);
    onProgress?.({ type: "skipped", runId: r.runId });
  }
  await storeReadyPairs(db, plan, summary); // pairs whose runs an interrupted batch stored

  const queue = plan.runs.filter((r) => !r.stored);
  async function worker(): Promise<void> {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (signal?.aborted) {
        summary.aborted.push(next.runId);
        onProgress?.({ type: "aborted", runId: next.runId, inFlight: false });
        continue;
      }
      const prompts = simulationPromptsFor(next.mediated ? plan.mediatorMode : "generic");
      const attempt = await simulateRun(llm, prompts, runSetup(plan, next), { signal });
      addStats(summary.calls, attempt.stats);
      if (!attempt.ok) {
        if (attempt.aborted) {
          summary.aborted.push(attempt.runId);
          onProgress?.({ type: "aborted", runId: attempt.runId, inFlight: true });
        } else {
          summary.failed.push({ runId: attempt.runId, reason: attempt.reason });
          onProgress?.({ type: "failed", runId: attempt.runId, reason: attempt.reason });
        }
        continue;
      }
      try {
        await storeBundle(db, plan, { runs: [attempt.run] });
      } catch (err) {
        const reason = `could not store the run: ${(err as Error).message}`;
        summary.failed.push({ runId: attempt.run.id, reason });
        onProgress?.({ type: "failed", runId: attempt.run.id, reason });
        continue;
      }
      next.stored = true;
      summary.stored.push(attempt.run.id);
      onProgress?.({
        type: "stored",
        runId: attempt.run.id,
        outcome: attempt.run.outcome,
        turns: attempt.run.turns.length,
      });
      await storeReadyPairs(db, plan, summary);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, queue.length)) }, worker));
  return summary;
}
