/**
 * Generates persona-fidelity A/B pairs: stores the plan's new fidelity conditions, simulates the
 * pending runs a few at a time (simulateRun with the simulation prompts, unmediated), stores each
 * run the moment it completes, and stores a pair once both its runs are stored. Every write goes
 * through importBundleFiles (all-or-nothing, idempotent), so a killed batch leaves no half run and
 * re-running it simulates only what is missing — the LLM cache replays the interrupted runs.
 */
import { BUNDLE_FORMAT, BUNDLE_VERSION, type AbPairRecord, type Condition, type Run } from "../../domain/bundle.ts";
import { addStats, emptyStats, simulateRun, type CallStats } from "../../domain/simulation/simulate-run.ts";
import { importBundleFiles } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { storedRunIds } from "../models/run.server.ts";
import { runSetup } from "../pipeline/simulate.server.ts";
import { simulationPrompts } from "../pipeline/simulation-prompts.server.ts";
import { pendingRuns, planFidelity, runSettings, type FidelityOptions, type FidelityPlan } from "./plan.server.ts";

export type FidelityEvent =
  | { type: "stored"; runId: string; outcome: Run["outcome"]; turns: number; calls: CallStats }
  | { type: "skipped"; runId: string }
  | { type: "failed"; runId: string; reason: string; calls: CallStats }
  | { type: "aborted"; runId: string }
  | { type: "pair"; pairId: string };

export interface FidelitySummary {
  plan: FidelityPlan;
  conditionsCreated: number;
  runsStored: string[];
  pairsStored: string[];
  /** Pairs that were stored before this batch. */
  pairsAlreadyStored: string[];
  /** Pairs left unstored because a run failed or the batch was interrupted. */
  pairsFailed: string[];
  failed: { runId: string; reason: string }[];
  aborted: string[];
  calls: CallStats;
}

export interface GenerateOptions extends FidelityOptions {
  concurrency?: number;
  signal?: AbortSignal;
  onEvent?: (event: FidelityEvent) => void;
}

async function store(
  db: Db,
  records: { conditions?: Condition[]; runs?: Run[]; ab_pairs?: AbPairRecord[] },
): Promise<void> {
  const bundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...records };
  await importBundleFiles(db, [{ file: "<fidelity>", text: JSON.stringify(bundle) }]);
}

/** Stores every pair of the plan whose two runs are now stored. */
async function storeReadyPairs(
  db: Db,
  plan: FidelityPlan,
  summary: FidelitySummary,
  onEvent?: (e: FidelityEvent) => void,
): Promise<void> {
  const pending = plan.pairs.filter((p) => !p.stored);
  const stored = await storedRunIds(
    db,
    pending.flatMap((p) => [p.runA.runId, p.runB.runId]),
  );
  // Filtered again after the look-up awaited: another worker may have taken some meanwhile.
  const ready = pending.filter((p) => !p.stored && stored.has(p.runA.runId) && stored.has(p.runB.runId));
  if (ready.length === 0) return;
  // Taken before the store awaits, so a worker finishing meanwhile does not store them too.
  for (const p of ready) p.stored = true;
  try {
    await store(db, { ab_pairs: ready.map((p) => p.record) });
  } catch (err) {
    for (const p of ready) p.stored = false;
    throw err;
  }
  for (const p of ready) {
    summary.pairsStored.push(p.record.id);
    await onEvent?.({ type: "pair", pairId: p.record.id });
  }
}

export async function generateFidelityPairs(options: GenerateOptions): Promise<FidelitySummary> {
  const plan = await planFidelity(options);
  const { db, llm, signal, onEvent } = options;
  const summary: FidelitySummary = {
    plan,
    conditionsCreated: plan.newConditions.length,
    runsStored: [],
    pairsStored: [],
    pairsAlreadyStored: plan.pairs.filter((p) => p.stored).map((p) => p.record.id),
    pairsFailed: [],
    failed: [],
    aborted: [],
    calls: emptyStats(),
  };
  if (plan.newConditions.length > 0) await store(db, { conditions: plan.newConditions });
  for (const r of plan.pairs.flatMap((p) => [p.runA, p.runB]).filter((r) => r.stored))
    onEvent?.({ type: "skipped", runId: r.runId });
  await storeReadyPairs(db, plan, summary, onEvent); // pairs whose runs an interrupted batch stored

  const queue = pendingRuns(plan);
  async function worker(): Promise<void> {
    for (let next = queue.shift(); next; next = queue.shift()) {
      if (signal?.aborted) {
        summary.aborted.push(next.runId);
        onEvent?.({ type: "aborted", runId: next.runId });
        continue;
      }
      const attempt = await simulateRun(
        llm,
        simulationPrompts,
        runSetup(runSettings(plan, next), { ...next, mediated: false }),
        { signal },
      );
      addStats(summary.calls, attempt.stats);
      if (!attempt.ok) {
        if (attempt.aborted) summary.aborted.push(attempt.runId);
        else summary.failed.push({ runId: attempt.runId, reason: attempt.reason });
        onEvent?.(
          attempt.aborted
            ? { type: "aborted", runId: attempt.runId }
            : { type: "failed", runId: attempt.runId, reason: attempt.reason, calls: summary.calls },
        );
        continue;
      }
      try {
        await store(db, { runs: [attempt.run] });
      } catch (err) {
        const reason = `could not store the run: ${(err as Error).message}`;
        summary.failed.push({ runId: attempt.run.id, reason });
        onEvent?.({ type: "failed", runId: attempt.run.id, reason, calls: summary.calls });
        continue;
      }
      next.stored = true;
      summary.runsStored.push(attempt.run.id);
      onEvent?.({
        type: "stored",
        runId: attempt.run.id,
        outcome: attempt.run.outcome,
        turns: attempt.run.turns.length,
        calls: summary.calls,
      });
      await storeReadyPairs(db, plan, summary, onEvent);
    }
  }
  const concurrency = Math.max(1, options.concurrency ?? 4);
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, queue.length)) }, worker));
  summary.pairsFailed = plan.pairs.filter((p) => !p.stored).map((p) => p.record.id);
  return summary;
}
