/**
 * Shapes the task components take. They mirror what the server's task view sends to the browser
 * (app/server/annotation/task-view.server.ts), restated here so browser code never imports a
 * *.server.ts module.
 */

export interface TaskTurn {
  turnId: number;
  speakerId: string;
  speakerName: string;
  isMediator: boolean;
  utterance: string;
}

export interface TaskScenario {
  title: string;
  background: string;
  topics: { id: string; name: string; description: string; options: { label: string; description: string }[] }[];
  parties: { id: string; name: string; role: string }[];
}

export interface TaskProgressValue {
  done: number;
  total: number;
}

/** A validation problem: a dotted path into the payload (e.g. `topics.PRICE.positions.BUYER`) and a message. */
export interface FieldProblem {
  path: string;
  message: string;
}
