/**
 * How many more labels to order per item for a crowd batch: k minus the labels the item already
 * holds. Counted labels fill their place; pending ones (from workers whose identity MTurk or
 * Prolific has not confirmed yet) are expected to count too, so they are not ordered again — an
 * item ordered k − counted would end above k once they are confirmed. If a pending label is
 * later refused, the next export finds the item short again and orders what is missing then.
 * Surplus labels fill no place. Pure: the caller supplies the counts.
 */

export interface ItemLabelCounts {
  itemId: number;
  counted: number;
  pending: number;
}

/** Items that need the same number of assignments: one MTurk batch (one "assignments per task"). */
export interface OrderGroup {
  assignments: number;
  itemIds: number[];
}

export interface LabelOrder {
  /** Largest need first; every item in one group needs exactly `assignments` more labels. */
  groups: OrderGroup[];
  /** Items that get assignments, and how many assignments in all. */
  items: number;
  assignments: number;
  /** Items that already hold k counted labels (left out). */
  complete: number;
  /** Items short of counted labels whose gap pending labels fill (left out until confirmed or refused). */
  awaiting: number;
}

export function missingLabels(counts: Pick<ItemLabelCounts, "counted" | "pending">, k: number): number {
  return Math.max(0, k - counts.counted - counts.pending);
}

export function planLabelOrder(items: readonly ItemLabelCounts[], k: number): LabelOrder {
  const byNeed = new Map<number, number[]>();
  let complete = 0;
  let awaiting = 0;
  for (const item of items) {
    const need = missingLabels(item, k);
    if (item.counted >= k) complete++;
    else if (need === 0) awaiting++;
    else byNeed.set(need, [...(byNeed.get(need) ?? []), item.itemId]);
  }
  const groups = [...byNeed.entries()]
    .sort(([a], [b]) => b - a)
    .map(([assignments, itemIds]) => ({ assignments, itemIds }));
  return {
    groups,
    items: groups.reduce((n, g) => n + g.itemIds.length, 0),
    assignments: groups.reduce((n, g) => n + g.assignments * g.itemIds.length, 0),
    complete,
    awaiting,
  };
}

/** The export's cost line in words: "45 assignments for 20 items missing labels; 5 items already complete". */
export function describeLabelOrder(order: LabelOrder): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const parts = [
    `${plural(order.assignments, "assignment")} for ${plural(order.items, "item")} missing labels`,
    `${plural(order.complete, "item")} already complete`,
  ];
  if (order.awaiting) parts.push(`${plural(order.awaiting, "item")} waiting only on pending labels`);
  return parts.join("; ");
}
