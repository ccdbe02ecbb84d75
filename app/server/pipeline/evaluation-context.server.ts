/**
 * Loads what an evaluator needs to know about one stored run: the scenario its condition played
 * and its public turns. The text renderings for judge prompts are pure:
 * app/domain/prompts/transcript.ts.
 */
import type { ContextTurn, EvaluationContext } from "../../domain/prompts/transcript.ts";
import type { Db } from "../db.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findRun, publicTurns } from "../models/run.server.ts";
import { findScenario } from "../models/scenario.server.ts";

export class RunNotFoundError extends Error {
  constructor(readonly runId: string) {
    super(`there is no run "${runId}"`);
    this.name = "RunNotFoundError";
  }
}

export function loadEvaluationContext(db: Db, runId: string): EvaluationContext {
  const run = findRun(db, runId);
  if (!run) throw new RunNotFoundError(runId);
  const condition = findCondition(db, run.conditionId)!;
  const scenario = findScenario(db, run.scenarioId)!;
  const played = condition.expanded ?? scenario;
  const turns = publicTurns(db, runId).map((t) => ({ ...t, role: t.role as ContextTurn["role"] }));
  return { runId, mediated: run.mediated, background: played.background, topics: played.topics, parties: played.parties, partyOrder: run.partyOrder, turns };
}
