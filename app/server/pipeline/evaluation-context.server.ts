/**
 * Loads what an evaluator needs to know about one stored run: the scenario its condition played
 * and its public turns; apart from that, each party's private thoughts for the emotion judge.
 * A run this process holds in memory (the benchmark runner's just-simulated runs) gives the same
 * from the record itself (`heldRun`), without reading it back.
 * The text renderings for judge prompts are pure: app/domain/prompts/transcript.ts.
 */
import type { Run } from "../../domain/bundle.ts";
import type { ContextTurn, EvaluationContext } from "../../domain/prompts/transcript.ts";
import type { PlayedScenario } from "../../domain/visibility.ts";
import type { Db } from "../db.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findRun, publicTurns, runTurnRows } from "../models/run.server.ts";
import { findScenario } from "../models/scenario.server.ts";

export class RunNotFoundError extends Error {
  constructor(readonly runId: string) {
    super(`there is no run "${runId}"`);
    this.name = "RunNotFoundError";
  }
}

export async function loadEvaluationContext(db: Db, runId: string): Promise<EvaluationContext> {
  const run = await findRun(db, runId);
  if (!run) throw new RunNotFoundError(runId);
  const condition = (await findCondition(db, run.conditionId))!;
  const scenario = (await findScenario(db, run.scenarioId))!;
  const played = condition.expanded ?? scenario;
  const turns = (await publicTurns(db, runId)).map((t) => ({ ...t, role: t.role as ContextTurn["role"] }));
  return {
    runId,
    mediated: run.mediated,
    background: played.background,
    topics: played.topics,
    parties: played.parties,
    partyOrder: run.partyOrder,
    turns,
  };
}

/** One private thought of a party, at the turn it spoke. */
export interface PartyThought {
  turnId: number;
  thought: string;
}

/**
 * Each party's private thoughts, by party id — for the emotion judge only, which shows a party
 * its own thoughts and nobody else's. Kept apart from the context above, which stays thought-free.
 */
export async function loadPartyThoughts(db: Db, runId: string): Promise<Map<string, PartyThought[]>> {
  return thoughtsByParty(await runTurnRows(db, runId));
}

function thoughtsByParty(turns: readonly { turnId: number; role: string; speaker: string; thought: string | null }[]) {
  const byParty = new Map<string, PartyThought[]>();
  for (const turn of turns) {
    if (turn.role !== "party" || !turn.thought) continue;
    const list = byParty.get(turn.speaker) ?? [];
    list.push({ turnId: turn.turnId, thought: turn.thought });
    byParty.set(turn.speaker, list);
  }
  return byParty;
}

/** A run the caller holds in memory: what the evaluators would otherwise read back from the database. */
export interface HeldRun {
  context: EvaluationContext;
  thoughts: ReadonlyMap<string, readonly PartyThought[]>;
}

/** The context and thoughts of a run record (as stored: its turns in order) and the scenario its condition played. */
export function heldRun(run: Run, played: PlayedScenario): HeldRun {
  const turns = run.turns.map((t) => ({ turnId: t.turn_id, speaker: t.speaker, role: t.role, utterance: t.utterance }));
  return {
    context: {
      runId: run.id,
      mediated: run.mediated,
      background: played.background,
      topics: played.topics,
      parties: played.parties,
      partyOrder: run.party_order,
      turns,
    },
    thoughts: thoughtsByParty(
      run.turns.map((t) => ({ turnId: t.turn_id, role: t.role, speaker: t.speaker, thought: t.thought ?? null })),
    ),
  };
}
