/**
 * What every task type's blinded view is made of (app/server/annotation/task-view.server.ts builds
 * them; each type declares its own view in its folder's view.ts, and the registry's TaskView is
 * their union). Only these fields ever leave the server.
 */
import type { LabelProblem } from "./task-type.ts";

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

/** The annotator's place in a study: items submitted of items in the study. */
export interface TaskProgressValue {
  done: number;
  total: number;
}

/** A validation problem shown beside its field: a dotted path into the payload and a message. */
export type FieldProblem = LabelProblem;
