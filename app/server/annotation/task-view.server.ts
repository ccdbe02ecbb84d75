/**
 * What an annotator may see of an item, per task type (the type's server handler in task-types/
 * names its builder here; taskView there picks it by the item's type). Blinding is enforced here, by construction: only the
 * fields listed below leave the server — never run or condition ids, model names, reactiveness
 * levels, evaluator output, private thoughts or profiles, or anyone else's labels.
 */
import { MEDIATOR_ID, type ScenarioBody } from "../../domain/bundle.ts";
import type { ConsensusLabel } from "../../task-types/consensus-snippet/label.ts";
import type { AbTaskView } from "../../task-types/ab-reactiveness/view.ts";
import type { ConsensusTaskView } from "../../task-types/consensus-snippet/view.ts";
import type { TaskScenario, TaskTurn } from "../../task-types/task-view.ts";
import type { TaskView } from "../../task-types/registry.ts";
import { AB_REACTIVENESS } from "../../task-types/ab-reactiveness/label.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { Db } from "../db.server.ts";
import { notFound } from "../http/errors.server.ts";
import { findAbPair } from "../models/ab-pair.server.ts";
import { ownLabelOnSnippet } from "../models/label.server.ts";
import { playedScenarioRow, turnsInRange } from "../models/run.server.ts";
import { findSnippet, snippetAt } from "../models/snippet.server.ts";
import { findItem, type ItemRow } from "../models/study.server.ts";

export type { AbTaskView, ConsensusTaskView, ItemRow, TaskScenario, TaskTurn, TaskView };

export function loadItem(db: Db, studyId: number, itemId: number): ItemRow {
  const item = findItem(db, itemId);
  if (!item || item.studyId !== studyId) throw notFound(`Item ${itemId} of study ${studyId}`);
  return item;
}

/** The scenario as played in a run (a condition's expanded scenario, else the base), with its title. */
export function playedScenarioOfRun(db: Db, runId: string): { title: string; body: ScenarioBody } {
  const played = playedScenarioRow(db, runId);
  if (!played) throw notFound(`Run ${runId}`);
  return played;
}

function blindScenario(title: string, body: ScenarioBody): TaskScenario {
  return {
    title,
    background: body.background,
    topics: body.topics.map((t) => ({ id: t.id, name: t.name, description: t.description, options: t.options.map((o) => ({ label: o.label, description: o.description })) })),
    // Names and roles only: preferences, weights and personas are private to the simulation.
    parties: body.parties.map((p) => ({ id: p.id, name: p.name, role: p.role })),
  };
}

function turnsBetween(db: Db, runId: string, startTurn: number, endTurn: number, names: Map<string, string>): TaskTurn[] {
  return turnsInRange(db, runId, startTurn, endTurn).map((t) => ({
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

export function snippetContext(db: Db, snippetId: number): SnippetContext {
  const snippet = findSnippet(db, snippetId);
  if (!snippet) throw notFound(`Snippet ${snippetId}`);
  const previous = snippetAt(db, snippet.runId, snippet.position - 1);
  return {
    runId: snippet.runId,
    position: snippet.position,
    startTurn: snippet.startTurn,
    endTurn: snippet.endTurn,
    previous: previous ? { startTurn: previous.startTurn, endTurn: previous.endTurn } : null,
  };
}

export function consensusTaskView(db: Db, item: ItemRow): ConsensusTaskView {
  const context = snippetContext(db, item.snippetId as number);
  const { title, body } = playedScenarioOfRun(db, context.runId);
  const names = new Map(body.parties.map((p) => [p.id, p.name]));
  return {
    kind: CONSENSUS_SNIPPET,
    scenario: blindScenario(title, body),
    previousSnippet: context.previous ? turnsBetween(db, context.runId, context.previous.startTurn, context.previous.endTurn, names) : null,
    snippet: turnsBetween(db, context.runId, context.startTurn, context.endTurn, names),
  };
}

export function abTaskView(db: Db, item: ItemRow): AbTaskView {
  const pair = findAbPair(db, item.abPairId as string);
  if (!pair) throw notFound(`A/B pair of item ${item.id}`);
  const { title, body } = playedScenarioOfRun(db, pair.runAId);
  const names = new Map(body.parties.map((p) => [p.id, p.name]));
  const whole = (runId: string) => turnsBetween(db, runId, 1, Number.MAX_SAFE_INTEGER, names);
  return {
    kind: AB_REACTIVENESS,
    scenario: blindScenario(title, body),
    conversationA: whole(pair.runAId),
    conversationB: whole(pair.runBId),
    targetParty: { id: pair.targetParty, name: names.get(pair.targetParty) ?? pair.targetParty },
  };
}

/** The annotator's own latest label on the snippet before this one in the same study, for carry-forward. */
export function previousOwnLabel(db: Db, item: ItemRow, annotatorId: number, known?: SnippetContext): ConsensusLabel | null {
  if (item.kind !== CONSENSUS_SNIPPET || item.snippetId === null) return null;
  const context = known ?? snippetContext(db, item.snippetId);
  if (context.position <= 1) return null;
  const payload = ownLabelOnSnippet(db, item.studyId, annotatorId, context.runId, context.position - 1);
  return payload === undefined ? null : (payload as ConsensusLabel);
}
