/** What an annotator sees of a snippet: the blinded scenario, the snippet and (dimmed) the one before. */
import type { TaskScenario, TaskTurn } from "../task-view.ts";
import type { CONSENSUS_SNIPPET } from "./label.ts";

export interface ConsensusTaskView {
  kind: typeof CONSENSUS_SNIPPET;
  scenario: TaskScenario;
  previousSnippet: TaskTurn[] | null;
  snippet: TaskTurn[];
}
