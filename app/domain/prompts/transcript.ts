/**
 * Text renderings of a stored run for the judge prompts. Judges only ever see what was said
 * aloud, so the renderings leave out private thoughts and the parties' private briefs. The
 * context itself is loaded by app/server/pipeline/evaluation-context.server.ts.
 */
import { MEDIATOR_ID, type Party, type Topic } from "../bundle.ts";

export interface ContextTurn {
  turnId: number;
  speaker: string;
  role: "party" | "mediator";
  utterance: string;
}

/** What an evaluator needs to know about one stored run: the scenario its condition played and its turns. */
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

export function describeTopic(topic: Topic): string {
  return [
    `${topic.id}: ${topic.name}`,
    `  ${topic.description}`,
    ...topic.options.map((o) => `  (${o.label}) ${o.description}`),
  ].join("\n");
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
