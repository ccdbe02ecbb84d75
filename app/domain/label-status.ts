/**
 * Which stored labels count. A label is stored whatever its channel, so no work is lost; its
 * status says whether statistics may use it:
 * - counted: from a verified identity, within the item's k (labels per item);
 * - pending: from a crowd identity its channel has not confirmed yet (an ExternalQuestion answer
 *   before MTurk lists the assignment, a Prolific session before the export lists it);
 * - surplus: verified, but the item already had k counted labels.
 * k is a hard cap: at most k labels per item are ever counted. Surplus labels enter statistics
 * only when the study opts in (`countSurplus` in its settings).
 */
export const LABEL_STATUSES = ["counted", "pending", "surplus"] as const;
export type LabelStatus = (typeof LABEL_STATUSES)[number];

/** The status a verified label takes when it is stored or confirmed: counted while the item has room. */
export function statusWithinCap(countedOnItem: number, labelsPerItem: number): "counted" | "surplus" {
  return countedOnItem < labelsPerItem ? "counted" : "surplus";
}

/** The statuses a study's statistics read. */
export function statusesInStatistics(countSurplus: boolean): LabelStatus[] {
  return countSurplus ? ["counted", "surplus"] : ["counted"];
}
