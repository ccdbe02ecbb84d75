/**
 * What an annotator sees of an item, per task type: the blinded view the server builds
 * (app/server/annotation/task-view.server.ts) and the task components and HIT renderer read.
 * Only these fields ever leave the server.
 */
import type { AB_REACTIVENESS, CONSENSUS_SNIPPET } from "./ids.ts";

export interface TaskTurn {
  turnId: number;
  speakerId: string;
  speakerName: string;
  isMediator: boolean;
  utterance: string;
}

/** The blinded scenario: names and roles of the parties, never their private preferences. */
export interface TaskScenario {
  title: string;
  background: string;
  topics: { id: string; name: string; description: string; options: { label: string; description: string }[] }[];
  parties: { id: string; name: string; role: string }[];
}

export interface ConsensusTaskView {
  kind: typeof CONSENSUS_SNIPPET;
  scenario: TaskScenario;
  previousSnippet: TaskTurn[] | null;
  snippet: TaskTurn[];
}

export interface AbTaskView {
  kind: typeof AB_REACTIVENESS;
  scenario: TaskScenario;
  conversationA: TaskTurn[];
  conversationB: TaskTurn[];
  targetParty: { id: string; name: string };
}

export type TaskView = ConsensusTaskView | AbTaskView;

/** The annotator's place in a study: items submitted of items in the study. */
export interface TaskProgressValue {
  done: number;
  total: number;
}

/** A validation problem shown beside its field: a dotted path into the payload and a message. */
export type { LabelProblem as FieldProblem } from "../labels.ts";
