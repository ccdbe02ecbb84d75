/**
 * What an evaluator needs to know about one stored run: the scenario its condition played, its
 * turns, and text renderings of both for judge prompts. Judges only ever see what was said
 * aloud, so the renderings leave out private thoughts and the parties' private briefs.
 */
import { MEDIATOR_ID, type Party, type Topic } from "../../domain/bundle.ts";
import type { Db } from "../db.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findRun, publicTurns } from "../models/run.server.ts";
import { findScenario } from "../models/scenario.server.ts";

export interface ContextTurn {
  turnId: number;
  speaker: string;
  role: "party" | "mediator";
  utterance: string;
}

export interface EvaluationContext {
  runId: string;
  mediated: boolean;
  background: string;
  topics: Topic[];
  parties: Party[];
  /** Parties in their speaking order. */
  partyOrder: string[];
  turns: ContextTurn[];
}

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

export function describeTopic(topic: Topic): string {
  return [`${topic.id}: ${topic.name}`, `  ${topic.description}`, ...topic.options.map((o) => `  (${o.label}) ${o.description}`)].join("\n");
}

export function describeTopics(topics: Topic[]): string {
  return topics.map(describeTopic).join("\n\n");
}

/** Public facts only: id, name and relation. Roles carry objectives and fallbacks, which are private. */
export function describeParties(parties: Party[]): string {
  return parties.map((p) => `- ${p.id}: ${p.name} (${p.relation})`).join("\n");
}

export function turnLine(turn: ContextTurn): string {
  return `[${turn.turnId}] ${turn.speaker}: ${turn.utterance}`;
}

export function transcript(turns: ContextTurn[]): string {
  return turns.length === 0 ? "(nothing has been said yet)" : turns.map(turnLine).join("\n");
}

export function mediatorTurnIds(ctx: Pick<EvaluationContext, "turns">): number[] {
  return ctx.turns.filter((t) => t.speaker === MEDIATOR_ID).map((t) => t.turnId);
}
