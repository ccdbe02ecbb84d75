/**
 * What an annotator may see of an item: the blinded scenario and turns every task type's view is
 * built from (each type's handlers.server.ts builds its own view from these; taskView in
 * task-types/registry.server.ts picks it by the item's type). Blinding is enforced here, by
 * construction: only the fields listed below leave the server — never run or condition ids, model
 * names, reactiveness levels, evaluator output, private thoughts or profiles, or anyone else's labels.
 */
import { MEDIATOR_ID, type ScenarioBody } from "../../domain/bundle.ts";
import { type ConsensusLabel, CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { TaskScenario, TaskTurn } from "../../task-types/task-view.ts";
import type { Db } from "../db.server.ts";
import { notFound } from "../http/errors.server.ts";
import { ownLabelOnSnippet } from "../models/label.server.ts";
import { playedScenarioRow, turnsInRange } from "../models/run.server.ts";
import { findSnippet, snippetAt } from "../models/snippet.server.ts";
import { findItem, type ItemRow } from "../models/study.server.ts";

export type { ItemRow, TaskScenario, TaskTurn };

export async function loadItem(db: Db, studyId: number, itemId: number): Promise<ItemRow> {
  const item = await findItem(db, itemId);
  if (!item || item.studyId !== studyId) throw notFound(`Item ${itemId} of study ${studyId}`);
  return item;
}

/** The scenario as played in a run (a condition's expanded scenario, else the base), with its title. */
export async function playedScenarioOfRun(db: Db, runId: string): Promise<{ title: string; body: ScenarioBody }> {
  const played = await playedScenarioRow(db, runId);
  if (!played) throw notFound(`Run ${runId}`);
  return played;
}

export function blindScenario(title: string, body: ScenarioBody): TaskScenario {
  return {
    title,
    background: body.background,
    topics: body.topics.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      options: t.options.map((o) => ({ label: o.label, description: o.description })),
    })),
    // Names and roles only: preferences, weights and personas are private to the simulation.
    parties: body.parties.map((p) => ({ id: p.id, name: p.name, role: p.role })),
  };
}

export async function turnsBetween(
  db: Db,
  runId: string,
  startTurn: number,
  endTurn: number,
  names: Map<string, string>,
): Promise<TaskTurn[]> {
  return (await turnsInRange(db, runId, startTurn, endTurn)).map((t) => ({
    turnId: t.turnId,
    speakerId: t.speaker,
    speakerName: t.speaker === MEDIATOR_ID ? "Mediator" : (names.get(t.speaker) ?? t.speaker),
    isMediator: t.role === "mediator",
    utterance: t.utterance,
  }));
}

export interface SnippetContext {
  runId: string;
  position: number;
  startTurn: number;
  endTurn: number;
  previous: { startTurn: number; endTurn: number } | null;
}

export async function snippetContext(db: Db, snippetId: number): Promise<SnippetContext> {
  const snippet = await findSnippet(db, snippetId);
  if (!snippet) throw notFound(`Snippet ${snippetId}`);
  const previous = await snippetAt(db, snippet.runId, snippet.position - 1);
  return {
    runId: snippet.runId,
    position: snippet.position,
    startTurn: snippet.startTurn,
    endTurn: snippet.endTurn,
    previous: previous ? { startTurn: previous.startTurn, endTurn: previous.endTurn } : null,
  };
}

/** The annotator's own latest label on the snippet before this one in the same study, for carry-forward. */
export async function previousOwnLabel(
  db: Db,
  item: ItemRow,
  annotatorId: number,
  known?: SnippetContext,
): Promise<ConsensusLabel | null> {
  if (item.kind !== CONSENSUS_SNIPPET || item.snippetId === null) return null;
  const context = known ?? (await snippetContext(db, item.snippetId));
  if (context.position <= 1) return null;
  const payload = await ownLabelOnSnippet(db, item.studyId, annotatorId, context.runId, context.position - 1);
  return payload === undefined ? null : (payload as ConsensusLabel);
}
