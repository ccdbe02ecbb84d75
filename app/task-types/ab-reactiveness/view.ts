/** What an annotator sees of an A/B pair: the blinded scenario, both conversations and the party compared. */
import type { TaskScenario, TaskTurn } from "../task-view.ts";
import type { AB_REACTIVENESS } from "./label.ts";

export interface AbTaskView {
  kind: typeof AB_REACTIVENESS;
  scenario: TaskScenario;
  conversationA: TaskTurn[];
  conversationB: TaskTurn[];
  targetParty: { id: string; name: string };
}
