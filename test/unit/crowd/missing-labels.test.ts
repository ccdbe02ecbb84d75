/**
 * The order `mturk export` places per item: k minus the labels already held. The case:
 * 20 items short of k = 3 holding 15 labels between them need 45 assignments, not 20 × 3 = 60.
 */
import { describe, expect, it } from "vitest";
import { estimateBatchesCost, estimateCost } from "../../../app/domain/crowd/hit-config.ts";
import {
  describeLabelOrder,
  missingLabels,
  planLabelOrder,
  type ItemLabelCounts,
} from "../../../app/domain/crowd/missing-labels.ts";

const K = 3;
let nextId = 1;
const items = (n: number, counted: number, pending = 0): ItemLabelCounts[] =>
  Array.from({ length: n }, () => ({ itemId: nextId++, counted, pending }));

describe("missing labels per item", () => {
  // 20 items short of k: 10 untouched, 5 with one label, 5 with two; and 5 already complete.
  const study = [...items(10, 0), ...items(5, 1), ...items(5, 2), ...items(5, 3)];

  it("orders 45 assignments for the 20 items missing labels, not 60, and leaves the 5 complete ones out", () => {
    const order = planLabelOrder(study, K);
    expect(order).toMatchObject({ items: 20, assignments: 45, complete: 5, awaiting: 0 });
    expect(order.groups.map((g) => [g.assignments, g.itemIds.length])).toEqual([
      [3, 10],
      [2, 5],
      [1, 5],
    ]);
    expect(describeLabelOrder(order)).toBe("45 assignments for 20 items missing labels; 5 items already complete");
  });

  it("costs what it orders: 45 assignments at the reward, with MTurk's fee per batch", () => {
    const order = planLabelOrder(study, K);
    const cost = estimateBatchesCost(
      order.groups.map((g) => ({ hits: g.itemIds.length, assignmentsPerHit: g.assignments })),
      0.4,
      60,
      "test",
    );
    expect(cost).toMatchObject({ hits: 20, assignments: 45, rewardsTotalUsd: 18, feesTotalUsd: 3.6, totalUsd: 21.6 });
    // What the old export charged: every short item ordered k again.
    expect(estimateCost(20, { rewardUsd: 0.4, assignmentsPerHit: K }, 60, "test").totalUsd).toBe(28.8);
  });

  it("counts pending labels as held (so confirmed ones never push an item above k), and says which items wait only on them", () => {
    expect(missingLabels({ counted: 1, pending: 1 }, K)).toBe(1);
    expect(missingLabels({ counted: 2, pending: 3 }, K)).toBe(0);
    const order = planLabelOrder([...items(1, 1, 1), ...items(1, 0, 3), ...items(1, 3, 1)], K);
    expect(order).toMatchObject({ items: 1, assignments: 1, complete: 1, awaiting: 1 });
    expect(describeLabelOrder(order)).toBe(
      "1 assignment for 1 item missing labels; 1 item already complete; 1 item waiting only on pending labels",
    );
  });

  it("applies MTurk's higher fee only to batches of 10 or more assignments per HIT", () => {
    const cost = estimateBatchesCost(
      [
        { hits: 1, assignmentsPerHit: 10 },
        { hits: 1, assignmentsPerHit: 2 },
      ],
      1,
      60,
      "test",
    );
    expect(cost).toMatchObject({ assignments: 12, rewardsTotalUsd: 12, feesTotalUsd: 10 * 0.4 + 2 * 0.2 });
  });
});
