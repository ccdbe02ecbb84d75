/** The descriptors that read the run itself or its MI judges: IF, FI, MI. */
import { describe, expect, it } from "vitest";
import { fi } from "../../../../app/domain/metrics/benchmark/fi.ts";
import { ifMetric } from "../../../../app/domain/metrics/benchmark/if.ts";
import { mi } from "../../../../app/domain/metrics/benchmark/mi.ts";
import { explainMetric } from "../../../../app/domain/metrics/metric-format.ts";
import { computeWithDefaults, runData } from "./fixtures.ts";

describe("run-level descriptors", () => {
  it("IF counts mediator turns per party turn", () => {
    const row = computeWithDefaults(ifMetric, { run: runData() })!;
    expect(row).toEqual({ value: 2 / 6, detail: { mediatorTurns: 2, partyTurns: 6 } });
    expect(explainMetric({ metric: "IF", ...row })).toBe("2 mediator / 6 party turns");
  });

  it("FI places the first intervention, and gives no row for a run without turns", () => {
    const row = computeWithDefaults(fi, { run: runData() })!;
    expect(row.value).toBe(3 / 8);
    expect(row.detail).toEqual({ firstTurn: 3, totalTurns: 8, interventions: 2 });
    expect(computeWithDefaults(fi, { run: runData({ speakers: [], mediatorTurns: [], partyTurns: 0 }) })).toBeNull();
    const none = computeWithDefaults(fi, { run: runData({ mediatorTurns: [] }) })!;
    expect(none.value).toBeNull();
    expect(none.detail.reason).toBe("no interventions");
  });

  it("MI averages the applicable scores of one judge and counts unjudged turns", () => {
    const judgments = [
      {
        backbone: "j",
        turnId: 3,
        perceptionAlignment: 4,
        emotionalDynamics: -1,
        cognitiveChallenges: 2,
        communicationBreakdowns: 3,
      },
    ];
    const row = computeWithDefaults(mi, { run: runData(), backbone: "j", judgments })!;
    expect(row.value).toBe(3);
    expect(row.detail).toMatchObject({
      backbone: "j",
      interventions: 1,
      mediatorTurns: 2,
      unjudged: 1,
      applicableScores: 3,
      notApplicableScores: 1,
    });
    expect(mi.placeholder!({ id: "r1", mediated: true })).toMatch(/^not judged yet/);
  });
});
