/**
 * Label status decisions (app/domain/label-status.ts): what a new label is stored as, and what a
 * pending one becomes once its channel confirms the work. Every writer of labels asks here, so k
 * is a hard cap on counted labels in every channel. Call inside the writer's transaction.
 */
import { statusWithinCap, type LabelStatus } from "../../domain/label-status.ts";
import type { Db } from "../db.server.ts";
import { countedLabelsOnItem, labelStatusOf, setLabelStatus } from "../models/label.server.ts";

/**
 * The status for a label about to be created on an item of a study with k = `labelsPerItem`:
 * pending while its author's identity awaits the channel's confirmation, else counted or surplus.
 */
export async function statusForNewLabel(
  db: Db,
  itemId: number,
  labelsPerItem: number,
  confirmed: boolean,
): Promise<LabelStatus> {
  return confirmed ? statusWithinCap(await countedLabelsOnItem(db, itemId), labelsPerItem) : "pending";
}

/**
 * Confirms a pending label: counted while the item has room, else surplus. Other statuses stay. Returns the status now
 * held.
 */
export async function confirmLabel(
  db: Db,
  labelId: number,
  itemId: number,
  labelsPerItem: number,
): Promise<LabelStatus> {
  const status = await labelStatusOf(db, labelId);
  if (status === undefined) throw new Error(`No label ${labelId}`);
  if (status !== "pending") return status;
  const next = statusWithinCap(await countedLabelsOnItem(db, itemId), labelsPerItem);
  await setLabelStatus(db, labelId, next);
  return next;
}
