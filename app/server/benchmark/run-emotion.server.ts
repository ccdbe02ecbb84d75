/**
 * A run's preferred emotion trajectory from the database (the self-report, else the named judge
 * backbone's, else the first judge's): what the report's emotion tables and the automatic
 * persona-fidelity proxy read. Three small queries per run.
 */
import { preferredTrajectory, runEmotionTrajectories, EMOTION_METHOD, type EmotionTrajectory } from "../../domain/emotion/trajectory.ts";
import type { Db } from "../db.server.ts";
import { evaluationsOfRun } from "../models/evaluation.server.ts";
import { emotionTurns, playedScenarioRow } from "../models/run.server.ts";

export function preferredRunTrajectory(db: Db, runId: string, judgeBackbone?: string): EmotionTrajectory | null {
  const played = playedScenarioRow(db, runId);
  if (!played) return null;
  const evaluations = evaluationsOfRun(db, runId)
    .filter((e) => e.method === EMOTION_METHOD)
    .map((e) => ({ id: e.id, method: e.method, backbone: e.backbone, output: e.output, errors: e.errors ?? [] }));
  const partyIds = played.body.parties.map((p) => p.id);
  return preferredTrajectory(runEmotionTrajectories(emotionTurns(db, runId), evaluations, partyIds), judgeBackbone);
}
