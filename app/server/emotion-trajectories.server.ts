/**
 * A run's stored emotion trajectories (the parties' self-report, then each emotion judge's), read
 * through the repositories: the run page shows them all; the report's emotion tables and both
 * places the automatic persona-fidelity proxy appears (the report's Table 1 and the A/B
 * dashboard) read each run's preferred one.
 */
import { fidelityProxy, type BackboneProxy, type ProxyPair } from "../domain/emotion/fidelity-proxy.ts";
import { partyVolatility } from "../domain/emotion/measures.ts";
import {
  EMOTION_METHOD,
  preferredTrajectory,
  runEmotionTrajectories,
  type EmotionTrajectory,
} from "../domain/emotion/trajectory.ts";
import type { Db } from "./db.server.ts";
import { listAbPairsWithBackbone } from "./models/ab-pair.server.ts";
import { evaluationsOfRunByMethod } from "./models/evaluation.server.ts";
import { emotionTurns, playedScenarioRow } from "./models/run.server.ts";
import { usableEvaluationIds } from "./pipeline/evaluation-identity.server.ts";

/**
 * Every emotion trajectory of the run; `partyIds` in the run's party order (read from the played scenario when
 * omitted).
 */
export async function storedEmotionTrajectories(
  db: Db,
  runId: string,
  partyIds?: readonly string[],
): Promise<EmotionTrajectory[]> {
  const parties = partyIds ?? (await playedScenarioRow(db, runId))?.body.parties.map((p) => p.id) ?? [];
  // Only the evaluations the current judge prompt may use (resolveEvaluationIds): one per backbone.
  const rows = await evaluationsOfRunByMethod(db, runId, EMOTION_METHOD);
  const usable = usableEvaluationIds(rows);
  const evaluations = rows
    .filter((e) => usable.has(e.id))
    .map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  return runEmotionTrajectories(await emotionTurns(db, runId), evaluations, parties);
}

/**
 * The run's preferred trajectory: the self-report, else `judgeBackbone`'s, else the first judge's; null without
 * emotion.
 */
export async function preferredRunTrajectory(
  db: Db,
  runId: string,
  judgeBackbone?: string,
): Promise<EmotionTrajectory | null> {
  return preferredTrajectory(await storedEmotionTrajectories(db, runId), judgeBackbone);
}

/**
 * `volatilityOf(runId, partyId)` for the fidelity proxy over `pairs`: the party's volatility in the
 * run's preferred trajectory, null when the run has no emotion, too few scores of that party, or an
 * incomplete judged trajectory (the emotion metrics are null on it too), or is not a run of `pairs`.
 * Reads each run of the pairs once, up front (the proxy itself is synchronous).
 */
export async function preferredVolatilityReader(
  db: Db,
  pairs: readonly ProxyPair[],
  judgeBackbone?: string,
): Promise<(runId: string, partyId: string) => number | null> {
  const preferred = new Map<string, EmotionTrajectory | null>();
  for (const runId of pairs.flatMap((p) => [p.runA, p.runB])) {
    if (!preferred.has(runId)) preferred.set(runId, await preferredRunTrajectory(db, runId, judgeBackbone));
  }
  return (runId, partyId) => {
    const trajectory = preferred.get(runId);
    if (!trajectory || trajectory.failedParties.length > 0) return null;
    return partyVolatility(trajectory.parties[partyId] ?? []);
  };
}

/** The stored A/B pairs (those named, else all) as the proxy reads them: backbone = the runs' simulator backbone. */
export async function storedProxyPairs(db: Db, pairIds?: ReadonlySet<string>): Promise<ProxyPair[]> {
  return (await listAbPairsWithBackbone(db))
    .filter((p) => !pairIds || pairIds.has(p.id))
    .map((p) => ({
      pairId: p.id,
      backbone: p.backbone,
      runA: p.runAId,
      runB: p.runBId,
      targetParty: p.targetParty,
      levelA: p.levelA,
      levelB: p.levelB,
    }));
}

/** The automatic persona-fidelity proxy over these pairs, each run read through its preferred trajectory. */
export async function storedFidelityProxy(
  db: Db,
  pairs: readonly ProxyPair[],
  judgeBackbone?: string,
): Promise<BackboneProxy[]> {
  return pairs.length === 0 ? [] : fidelityProxy(pairs, await preferredVolatilityReader(db, pairs, judgeBackbone));
}
