/**
 * Human-scale quantities per run (app/domain/estimation/run-quantities.ts): worked cases, with
 * incomplete runs counted as null rather than imputed.
 */
import { describe, expect, it } from "vitest";
import { runQuantities, type SnippetScore } from "../../../app/domain/estimation/run-quantities.ts";
import type { AlignmentItem } from "../../../app/domain/validation/alignment-table.ts";

function item(runId: string, position: number, last: boolean, topicIds = ["t1", "t2"], isGold = false): AlignmentItem {
  return {
    itemId: `${runId}#${position}`,
    runId,
    snippetPosition: position,
    isLastSnippet: last,
    topicIds,
    isGold,
    endTurn: position * 4,
  };
}

/** Scores on 1–5 by "run#position/topic"; absent keys have no score. */
function scores(table: Record<string, number>): SnippetScore {
  return (it, topic) => table[`${it.itemId}/${topic}`] ?? null;
}

describe("runQuantities", () => {
  it("a whole run: outcome = C at its last snippet, trajectory = the mean C over its snippets", () => {
    const items = [item("r1", 2, false), item("r1", 3, true), item("r1", 1, false)]; // any input order
    const values = runQuantities(
      items,
      scores({ "r1#1/t1": 1, "r1#1/t2": 3, "r1#2/t1": 4, "r1#2/t2": 4, "r1#3/t1": 5, "r1#3/t2": 4 }),
    );
    // C per snippet: ((1−1)/4 + (3−1)/4)/2 = 0.25; (0.75 + 0.75)/2 = 0.75; (1 + 0.75)/2 = 0.875.
    const r1 = values.get("r1");
    expect(r1?.outcome).toBeCloseTo(0.875, 15);
    expect(r1?.trajectory).toBeCloseTo((0.25 + 0.75 + 0.875) / 3, 15);
  });

  it("a topic without a score in a middle snippet: the outcome stands, the trajectory is null", () => {
    const values = runQuantities(
      [item("r2", 1, false), item("r2", 2, true)],
      scores({ "r2#1/t1": 2, "r2#2/t1": 3, "r2#2/t2": 5 }),
    );
    expect(values.get("r2")).toEqual({ outcome: 0.75, trajectory: null });
  });

  it("no final snippet among the items: both null; a gap before it: only the outcome", () => {
    const all = { "r3#1/t1": 2, "r3#1/t2": 2, "r3#2/t1": 2, "r3#2/t2": 2, "r4#1/t1": 5, "r4#1/t2": 5 };
    const values = runQuantities(
      [item("r3", 1, false), item("r3", 2, false), item("r4", 1, false), item("r4", 3, true)],
      scores({ ...all, "r4#3/t1": 1, "r4#3/t2": 2 }),
    );
    expect(values.get("r3")).toEqual({ outcome: null, trajectory: null });
    expect(values.get("r4")).toEqual({ outcome: 0.125, trajectory: null });
  });

  it("a final snippet missing a score leaves the outcome null; a snippet with no topics counts as missing", () => {
    const values = runQuantities(
      [item("r5", 1, true), item("r6", 1, false, []), item("r6", 2, true, ["t1"])],
      scores({ "r5#1/t1": 4, "r6#2/t1": 3 }),
    );
    expect(values.get("r5")).toEqual({ outcome: null, trajectory: null });
    expect(values.get("r6")).toEqual({ outcome: 0.5, trajectory: null });
  });

  it("ignores gold items and keeps one entry per run", () => {
    const values = runQuantities(
      [item("r7", 1, true, ["t1"]), item("g", 1, true, ["t1"], true)],
      scores({ "r7#1/t1": 2, "g#1/t1": 5 }),
    );
    expect([...values.keys()]).toEqual(["r7"]);
    expect(values.get("r7")).toEqual({ outcome: 0.25, trajectory: 0.25 });
  });
});
