/**
 * A run's stored emotion trajectories (the parties' self-report, then each emotion judge's),
 * read through the repositories — for the run page and the A/B dashboard's automatic proxy.
 */
import { partyVolatility } from "../domain/emotion/measures.ts";
import { EMOTION_METHOD, runEmotionTrajectories, type EmotionTrajectory } from "../domain/emotion/trajectory.ts";
import { preferredRunTrajectory } from "./benchmark/run-emotion.server.ts";
import type { Db } from "./db.server.ts";
import { evaluationsOfRun } from "./models/evaluation.server.ts";
import { emotionTurns, playedScenarioRow } from "./models/run.server.ts";

/** Every emotion trajectory of the run; `partyIds` in the run's party order (read from the played scenario when omitted). */
export function storedEmotionTrajectories(db: Db, runId: string, partyIds?: readonly string[]): EmotionTrajectory[] {
  const parties = partyIds ?? playedScenarioRow(db, runId)?.body.parties.map((p) => p.id) ?? [];
  const evaluations = evaluationsOfRun(db, runId)
    .filter((e) => e.method === EMOTION_METHOD)
    .map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  return runEmotionTrajectories(emotionTurns(db, runId), evaluations, parties);
}

/**
 * `volatilityOf(runId, partyId)` for the fidelity proxy: the party's volatility in the run's
 * preferred trajectory (the self-report, else `judgeBackbone`'s, else the first judge's), null
 * when the run has no emotion, too few scores of that party, or an incomplete judged trajectory
 * (as the emotion metrics and the report's proxy treat it). Reads each run once.
 */
export function preferredVolatilityReader(db: Db, judgeBackbone?: string): (runId: string, partyId: string) => number | null {
  const preferred = new Map<string, EmotionTrajectory | null>();
  return (runId, partyId) => {
    if (!preferred.has(runId)) preferred.set(runId, preferredRunTrajectory(db, runId, judgeBackbone));
    const trajectory = preferred.get(runId);
    if (!trajectory || trajectory.failedParties.length > 0) return null;
    return partyVolatility(trajectory.parties[partyId] ?? []);
  };
}
