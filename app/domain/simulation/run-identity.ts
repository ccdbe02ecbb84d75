/**
 * A simulated run's identity: every setting that changes what the run says, in one canonical
 * object, and its hash. Planners (simulate, the benchmark grid, fidelity pairs, curation replays)
 * build the object from what they are about to run; the bundle store and the migration build it
 * from what a stored run recorded (its columns and `config`). A stored run is reused only when
 * the two hashes are equal, so a changed seed, budget, emotion setting, condition, mediator (model,
 * mode, prompt), simulator or sampling parameter makes new runs. Format: docs/pipeline.md.
 */
import { canonicalJson } from "../bundle-checks.ts";
import { sha256Hex } from "../sha256.ts";
import { runSeed, sanitiseId } from "./schedule.ts";
import { mediatorModeKey, socialSettingsFrom, type SocialSettings } from "./mediator-settings.ts";

/** The sampling parameters a role's calls were sent with (null: left to the server's default). */
export interface RoleSampling {
  temperature: number | null;
  max_tokens: number | null;
}

export interface RunSettings {
  condition_id: string;
  simulator: string;
  /** The mediator's model and prompt mode, or null for an unmediated run. */
  mediator: string | null;
  mediator_mode: string | null;
  /** The social mediator's frequency and memory; absent for every other mode (their hashes are what they were). */
  mediator_social?: SocialSettings;
  turn_budget: number | null;
  base_seed: number | null;
  run_index: number | null;
  /** The run seed (from base_seed and run_index for our runs). */
  seed: number | null;
  /** Hash of the prompt templates the run rendered. */
  prompt_version: string | null;
  /** The parties self-reported their emotion every turn. */
  emotion: boolean;
  /**
   * Per role. Absent only on runs recorded before runs recorded their sampling: their identity is
   * what they recorded, so they match a plan whatever its sampling (see `identityHashes`).
   */
  sampling?: { party: RoleSampling; mediator?: RoleSampling };
}

export interface PlannedRunInput {
  conditionId: string;
  simulatorModel: string;
  simulatorSampling: RoleSampling;
  /** Null for an unmediated run. */
  mediator: { model: string; mode: string; sampling: RoleSampling; social?: SocialSettings } | null;
  budget: number;
  baseSeed: number;
  runIndex: number;
  promptVersion: string;
  emotion: boolean;
}

/** The settings of a run about to be simulated. */
export function plannedRunSettings(input: PlannedRunInput): RunSettings {
  const { mediator } = input;
  return {
    condition_id: input.conditionId,
    simulator: input.simulatorModel,
    mediator: mediator?.model ?? null,
    mediator_mode: mediator ? mediator.mode : null,
    ...(mediator?.social ? { mediator_social: mediator.social } : {}),
    turn_budget: input.budget,
    base_seed: input.baseSeed,
    run_index: input.runIndex,
    seed: runSeed(input.baseSeed, input.runIndex),
    prompt_version: input.promptVersion,
    emotion: input.emotion,
    sampling: { party: input.simulatorSampling, ...(mediator ? { mediator: mediator.sampling } : {}) },
  };
}

/** What a stored run records: its backbone columns, seed and `config` (bundle field names). */
export interface RecordedRun {
  condition_id: string;
  simulator_backbone: string;
  mediator_backbone: string | null;
  config: Record<string, unknown>;
  seed?: number | null;
}

const numberOrNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function samplingOf(v: unknown): RoleSampling | undefined {
  if (!v || typeof v !== "object") return undefined;
  const s = v as Record<string, unknown>;
  return { temperature: numberOrNull(s.temperature), max_tokens: numberOrNull(s.max_tokens) };
}

/** The settings a stored run recorded: its identity. */
export function recordedRunSettings(run: RecordedRun): RunSettings {
  const c = run.config;
  const mediated = run.mediator_backbone !== null;
  const recorded = c.sampling && typeof c.sampling === "object" ? (c.sampling as Record<string, unknown>) : undefined;
  const party = samplingOf(recorded?.party);
  const mediator = samplingOf(recorded?.mediator);
  const social = mediated ? socialSettingsFrom(c.mediator_social) : null;
  return {
    condition_id: run.condition_id,
    simulator: run.simulator_backbone,
    mediator: run.mediator_backbone,
    // Runs of `simulate` recorded no mode: theirs is the generic prompt.
    mediator_mode: mediated ? (typeof c.mediator_mode === "string" ? c.mediator_mode : "generic") : null,
    ...(social ? { mediator_social: social } : {}),
    turn_budget: numberOrNull(c.turn_budget),
    base_seed: numberOrNull(c.base_seed),
    run_index: numberOrNull(c.run_index),
    seed: numberOrNull(run.seed),
    prompt_version: typeof c.prompt_version === "string" ? c.prompt_version : null,
    emotion: c.emotion === true,
    ...(party ? { sampling: { party, ...(mediated && mediator ? { mediator } : {}) } } : {}),
  };
}

/** The `config` a run records, from which `recordedRunSettings` gives its settings back. */
export function runConfigOf(settings: RunSettings): Record<string, unknown> {
  return {
    turn_budget: settings.turn_budget,
    base_seed: settings.base_seed,
    run_index: settings.run_index,
    prompt_version: settings.prompt_version,
    ...(settings.mediator_mode !== null ? { mediator_mode: settings.mediator_mode } : {}),
    ...(settings.mediator_social ? { mediator_social: settings.mediator_social } : {}),
    ...(settings.emotion ? { emotion: true } : {}),
    ...(settings.sampling ? { sampling: settings.sampling } : {}),
  };
}

export function settingsHash(settings: RunSettings): string {
  return sha256Hex(`run-settings\n${canonicalJson(settings)}`);
}

/** The settings without sampling: what a run recorded before runs recorded their sampling. */
export function withoutSampling(settings: RunSettings): RunSettings {
  const { sampling: _sampling, ...rest } = settings;
  return rest;
}

/**
 * The hashes a planned run is looked up by: its own, then the one an older run with the same
 * recorded settings (and no recorded sampling) carries. A run recorded with sampling always
 * has it in its hash, so the second never finds a run made with other sampling parameters.
 */
export function identityHashes(settings: RunSettings): { hash: string; legacy: string } {
  return { hash: settingsHash(settings), legacy: settingsHash(withoutSampling(settings)) };
}

/**
 * The identity columns of a stored run: its settings hash, and the hash without sampling (for readers without an LLM
 * configuration).
 */
export function recordedIdentity(run: RecordedRun): { settingsHash: string; settingsKey: string } {
  const settings = recordedRunSettings(run);
  return { settingsHash: settingsHash(settings), settingsKey: settingsHash(withoutSampling(settings)) };
}

/**
 * The id of a new run: what it plays and by whom, its index, and the start of its settings hash
 * (so two settings of the same slot never share an id). Runs stored before keep their ids and
 * are found by hash.
 */
export function identifiedRunId(settings: RunSettings, hash: string): string {
  const mediator =
    settings.mediator === null
      ? "none"
      : settings.mediator_mode && settings.mediator_mode !== "generic"
        ? `${settings.mediator}:${mediatorModeKey(settings.mediator_mode, settings.mediator_social ?? null)}`
        : settings.mediator;
  return sanitiseId(
    `${settings.condition_id}:${mediator}:${settings.simulator}:r${settings.run_index ?? 0}:${hash.slice(0, 10)}`,
  );
}
