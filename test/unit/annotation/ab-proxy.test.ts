// The A/B dashboard's automatic persona-fidelity proxy, from a real SQLite file: the target's
// volatility in each run's preferred emotion trajectory (self-report, else a judge) against its level.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BundleInput, Run } from "../../../app/domain/bundle.ts";
import type { BackboneProxy } from "../../../app/domain/emotion/fidelity-proxy.ts";
import { emotionEvaluationId } from "../../../app/domain/emotion/trajectory.ts";
import { studyDashboardView } from "../../../app/server/annotation/dashboard-view.server.ts";
import { createAbStudy } from "../../../app/server/annotation/studies.server.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { fidelityPairsBundle, fxPairId, probingBundle } from "../../fixtures/probing-fixture.ts";
import { tempDb } from "../../../harness/temp-db.ts";

// Pairs per backbone (fidelityPairsBundle): 0: A level 1, B level 0; 1: A 0, B 2/3; 2: A 1, B 2/3.
// sim-a's runs self-report; the target BUY (turns 1 and 3) drops by d points: volatility d/100.
const DROP: Record<string, number> = { "0:a": 40, "0:b": 10, "1:a": 20, "1:b": 20, "2:a": 30, "2:b": 50 };

function withSelfReport(run: Run): Run {
  const key = run.id.split(":").slice(-2).join(":");
  const score = (turnId: number) => (turnId === 3 ? 60 - DROP[key] : turnId === 1 ? 60 : 50);
  return {
    ...run,
    turns: run.turns.map((t) => ({ ...t, emotion: score(t.turn_id), emotion_reason: `feels ${score(t.turn_id)}` })),
  };
}

/**
 * sim-b's pair 0 is scored by an emotion judge instead: BUY 70 → 30 on side A (level 1), 50 → 50 on side B (level 0).
 */
function judged(runId: string, [first, second]: [number, number]) {
  const scores = [
    { turn_id: 1, score: first, reason: "judged" },
    { turn_id: 3, score: second, reason: "judged" },
  ];
  const seller = [
    { turn_id: 2, score: 50, reason: "judged" },
    { turn_id: 4, score: 50, reason: "judged" },
  ];
  return {
    id: emotionEvaluationId(runId, "mock-judge"),
    run_id: runId,
    method: "emotion" as const,
    backbone: "mock-judge",
    output: { BUY: { scores }, SELL: { scores: seller } },
  };
}

function bundle(): BundleInput {
  const pairs = fidelityPairsBundle(["sim-a", "sim-b", "sim-c"], 3);
  const runs = pairs.runs!.map((r) => (r.simulator_backbone === "sim-a" ? withSelfReport(r) : r));
  const evaluations = [judged(`${fxPairId("sim-b", 0)}:a`, [70, 30]), judged(`${fxPairId("sim-b", 0)}:b`, [50, 50])];
  return { ...pairs, runs, evaluations };
}

describe("A/B dashboard: the automatic fidelity proxy", async () => {
  const t = await tempDb();
  let proxy: { byBackbone: BackboneProxy[]; overall: BackboneProxy | null };
  beforeAll(async () => {
    await importBundleFiles(t.db, [
      { file: "probe.json", text: JSON.stringify(probingBundle()) },
      { file: "ab.json", text: JSON.stringify(bundle()) },
    ]);
    const study = await createAbStudy(t.db, { name: "all pairs", pool: "expert" });
    proxy = ((await studyDashboardView(t.db, study, { excludeFlagged: false })).fidelity as { proxy: typeof proxy })
      .proxy;
  });
  afterAll(() => t.cleanup());

  it("measures each self-reporting backbone's pairs: agreement and r of level against the target's volatility", () => {
    const simA = proxy.byBackbone.find((p) => p.backbone === "sim-a")!;
    // Pair 0: level 1 at .40 > level 0 at .10 → ordered; pair 1: .20 = .20 → a tie; pair 2: level 1 at .30 < level 2/3
    // at .50 → not.
    expect(simA).toMatchObject({ pairs: 3, measuredPairs: 3, ordered: 1, ties: 1, observations: 6 });
    expect(simA.agreement).toBeCloseTo(1 / 3, 12);
    // Levels 1, 0, 0, 2/3, 1, 2/3 (mean 5/9) against .4, .1, .2, .2, .3, .5 (mean .28333):
    // Sxy = .22222, Sxx = 84/81, Syy = .108333 → r = .22222 / √(1.037 · .108333) = .66299.
    expect(simA.r).toBeCloseTo(0.66299, 4);
  });

  it("reads a judged trajectory where a run has no self-report, and gives no number where the runs carry no emotion", () => {
    const simB = proxy.byBackbone.find((p) => p.backbone === "sim-b")!;
    expect(simB).toMatchObject({ pairs: 3, measuredPairs: 1, ordered: 1, agreement: 1, observations: 2 });
    const simC = proxy.byBackbone.find((p) => p.backbone === "sim-c")!;
    expect(simC).toMatchObject({ pairs: 3, measuredPairs: 0, agreement: null, r: null, observations: 0 });
    expect(proxy.overall).toMatchObject({
      backbone: "all",
      pairs: 9,
      measuredPairs: 4,
      ordered: 2,
      ties: 1,
      observations: 8,
    });
  });
});
