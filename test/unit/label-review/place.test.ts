import { describe, expect, it } from "vitest";
import { itemPlaces, type PlaceItem } from "../../../app/domain/label-review/place.ts";

const snippet = (itemId: number, runId: string, snippetPosition: number): PlaceItem => ({
  itemId,
  kind: "consensus-snippet",
  runId,
  snippetPosition,
  targetName: null,
});
const pair = (itemId: number, targetName: string): PlaceItem => ({
  itemId,
  kind: "ab-reactiveness",
  runId: null,
  snippetPosition: null,
  targetName,
});

describe("item places", () => {
  it("numbers trajectories in study order and counts each one's snippets", () => {
    const places = itemPlaces(
      [snippet(10, "run-x", 1), snippet(11, "run-x", 2), snippet(12, "run-y", 1), snippet(13, "run-y", 3)],
      new Map([
        ["run-x", 2],
        ["run-y", 6],
      ]),
    );
    expect([...places.values()]).toEqual([
      "Trajectory 1 · snippet 1 of 2",
      "Trajectory 1 · snippet 2 of 2",
      "Trajectory 2 · snippet 1 of 6",
      "Trajectory 2 · snippet 3 of 6",
    ]);
  });

  it("an A/B item is a numbered pair about its target party; run ids never appear", () => {
    const places = itemPlaces([pair(5, "Ada"), pair(6, "Ben")], new Map());
    expect(places.get(5)).toBe("Pair 1 of 2 · about Ada");
    expect(places.get(6)).toBe("Pair 2 of 2 · about Ben");
    const consensus = itemPlaces([snippet(1, "run-secret-id", 1)], new Map());
    expect(consensus.get(1)).not.toContain("run-secret-id");
  });
});
