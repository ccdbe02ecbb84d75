/**
 * Rejection sampling's replays: a written scenario is played N times without a mediator under
 * its general condition, through the same run setup `socrates simulate` uses (same settings,
 * hence the same identity, ids, seeds and prompts), so an accepted scenario's replays are exactly
 * its unmediated general runs and a later `simulate --mediator none` finds them stored. Replays stop at the first that
 * resolves: one is enough to reject the candidate.
 */
import type { Condition, Run, Scenario } from "../../domain/bundle.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { identifiedRunId, settingsHash } from "../../domain/simulation/run-identity.ts";
import { DEFAULT_BASE_SEED, DEFAULT_TURN_BUDGET, sanitiseId } from "../../domain/simulation/schedule.ts";
import { addStats, emptyStats, simulateRun, type CallStats } from "../../domain/simulation/simulate-run.ts";
import { plannedSettings, runSetup, type RunPlanSettings } from "../pipeline/simulate.server.ts";
import { simulationPrompts } from "../pipeline/simulation-prompts.server.ts";

export interface ReplayRecord {
  /** 1-based. */
  replay: number;
  outcome: Run["outcome"];
  runId?: string;
}

export type ReplayOutcome =
  | {
      ok: true;
      runs: Run[];
      records: ReplayRecord[];
      resolvedOn: number | null;
      condition: Condition;
      stats: CallStats;
    }
  /** A replay could not be completed (a failed call or an interruption): nothing to record yet. */
  | { ok: false; reason: string; aborted: boolean; stats: CallStats };

export function generalConditionOf(scenario: Scenario): Condition {
  return { id: sanitiseId(`${scenario.id}:general`), scenario_id: scenario.id, axis: "general", variant: "default" };
}

export async function replayUnmediated(
  llm: Llm,
  scenario: Scenario,
  replays: number,
  signal?: AbortSignal,
): Promise<ReplayOutcome> {
  const condition = generalConditionOf(scenario);
  const plan: RunPlanSettings = {
    condition,
    played: { background: scenario.background, topics: scenario.topics, parties: scenario.parties },
    partyOrder: scenario.parties.map((p) => p.id),
    simulatorModel: llm.modelFor("party"),
    mediatorModel: null,
    budget: DEFAULT_TURN_BUDGET,
    baseSeed: DEFAULT_BASE_SEED,
    sampling: { party: llm.samplingFor("party"), mediator: null },
  };
  const stats = emptyStats();
  const runs: Run[] = [];
  const records: ReplayRecord[] = [];
  for (let index = 0; index < replays; index++) {
    // A new scenario has no stored runs: the id is the one a run of these settings is stored under.
    const settings = plannedSettings(plan, index, false);
    const runId = identifiedRunId(settings, settingsHash(settings));
    const attempt = await simulateRun(llm, simulationPrompts, runSetup(plan, { runId, index, mediated: false }), {
      signal,
    });
    addStats(stats, attempt.stats);
    if (!attempt.ok)
      return { ok: false, reason: `replay ${index + 1}: ${attempt.reason}`, aborted: attempt.aborted, stats };
    runs.push(attempt.run);
    records.push({ replay: index + 1, outcome: attempt.run.outcome, runId: attempt.run.id });
    if (attempt.run.outcome === "resolved") return { ok: true, runs, records, resolvedOn: index + 1, condition, stats };
  }
  return { ok: true, runs, records, resolvedOn: null, condition, stats };
}
