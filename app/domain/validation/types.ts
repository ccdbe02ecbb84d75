/**
 * Input rows of the validation analytics, shaped like the rows the dashboard's SQL returns:
 * one row per study item and one per submitted label (its latest revision). Ids are whatever
 * the database uses (integer item ids, annotator ids as strings).
 */
import type { AbLabelPayload } from "../../task-types/ab-reactiveness/label.ts";
import type { ConsensusLabel } from "../../task-types/consensus-snippet/label.ts";

export type ItemId = number | string;
export type Pool = "expert" | "crowd";

/** A consensus-snippet study item: one snippet of one run, with the topics to be scored. */
export interface ConsensusItem {
  itemId: ItemId;
  runId: string;
  /** The snippet's 1-based position in its run. */
  snippetPosition: number;
  isLastSnippet: boolean;
  topicIds: string[];
  isGold: boolean;
}

export interface ConsensusLabelRow {
  itemId: ItemId;
  annotatorId: string;
  pool: Pool;
  payload: ConsensusLabel;
  /** Total seconds on task over the label's revisions; null when not measured. */
  secondsOnTask: number | null;
}

/** An A/B reactiveness study item: one pair of conversations. */
export interface AbItem {
  itemId: ItemId;
  pairId: string;
  /** Simulator backbone that produced both conversations. */
  backbone: string;
  levelA: number;
  levelB: number;
  isGold: boolean;
}

export interface AbLabelRow {
  itemId: ItemId;
  annotatorId: string;
  payload: AbLabelPayload;
}
