/**
 * Issue 33, Build 2: the human-calibrated estimates of a plan's mediators on a real database (a
 * judged grid and an expert study labelled through the real submit). The judge's and the experts'
 * values per run are recomputed here from the stored rows and the submitted scores, and every
 * row's estimates are checked against classicalMean / ppiMean on those vectors, the overall rows
 * against the stratified combination written out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeMean,
  classicalMean,
  ppiMean,
  type MeanEstimate,
} from "../../../app/domain/estimation/mean-estimators.ts";
import type { RunQuantity } from "../../../app/domain/estimation/run-quantities.ts";
import { normalQuantileUpper } from "../../../app/domain/stats/distributions.ts";
import { playedScenarioOfRun } from "../../../app/server/annotation/task-view.server.ts";
import { planGrid } from "../../../app/server/benchmark/plan-file.server.ts";
import { CalibrationInputError, calibratedEstimates } from "../../../app/server/estimation/calibrated.server.ts";
import type { CalibratedEstimates } from "../../../app/domain/estimation/calibrated.ts";
import { judgeScore, labelledPlanDb, type LabelledPlan } from "./fixture.ts";

let t: LabelledPlan;
let result: CalibratedEstimates;

interface Expected {
  runId: string;
  mediator: string | null;
  domain: string;
  judge: Record<RunQuantity, number | null>;
  /** null: no expert scored the run. */
  human: Record<RunQuantity, number | null> | null;
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Each run's values recomputed from the stored snippets, the judge's stored scores and the submitted scores. */
async function expectedRuns(): Promise<Expected[]> {
  const units = (await planGrid(t.db, t.loaded.plan)).units.filter((u) => u.part === "main");
  const snippetsOf = t.db.$client.prepare(
    "SELECT position, end_turn AS endTurn FROM snippets WHERE run_id = ? ORDER BY position",
  );
  const perUnit = await Promise.all(
    units.map(
      async (u) =>
        await Promise.all(
          [
            { runId: u.unmediatedRunId, mediator: null as string | null },
            ...u.mediated.map((m) => ({ runId: m.runId, mediator: m.mediator as string | null })),
          ].map(async ({ runId, mediator }) => {
            const snippets = snippetsOf.all(runId) as { position: number; endTurn: number }[];
            const topics = (await playedScenarioOfRun(t.db, runId)).body.topics.map((k) => k.id);
            const judgeC = snippets.map((s) =>
              mean(topics.map((k) => ((judgeScore(t.db, runId, k, s.endTurn) as number) - 1) / 4)),
            );
            const scores = snippets.map((s) =>
              t.submitted.filter((x) => x.runId === runId && x.position === s.position).map((x) => x.score),
            );
            const humanC = scores.map((list) => (list.length === 0 ? null : (mean(list) - 1) / 4));
            const complete = humanC.every((c) => c !== null);
            return {
              runId,
              mediator,
              domain: u.domain,
              judge: { outcome: judgeC[judgeC.length - 1], trajectory: mean(judgeC) },
              human: scores.some((l) => l.length > 0)
                ? {
                    outcome: humanC[humanC.length - 1],
                    trajectory: complete ? mean(humanC as number[]) : null,
                  }
                : null,
            };
          }),
        ),
    ),
  );
  return perUnit.flat();
}

function closeTo(actual: MeanEstimate | null, expected: MeanEstimate | null, what: string) {
  if (expected === null) {
    expect(actual, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  for (const key of ["estimate", "lower", "upper", "se", "lambda"] as const)
    expect(actual![key], `${what}: ${key}`).toBeCloseTo(expected[key], 12);
  expect(actual!.labelled, `${what}: labelled`).toBe(expected.labelled);
}

beforeAll(async () => {
  t = await labelledPlanDb();
  result = await calibratedEstimates(t.db, { loaded: t.loaded, studyIds: [t.studyId] });
}, 120_000);
afterAll(() => t?.cleanup());

describe("calibratedEstimates on a labelled plan", () => {
  it("records every setting that changes the numbers", async () => {
    expect(result.settings).toEqual({ alpha: 0.05, quantities: ["outcome", "trajectory"], target: 0.05 });
    expect(result).toMatchObject({ evaluator: "judge-main", s0: 1, studyIds: [t.studyId], planHash: t.loaded.hash });
    expect(result.runs).toBe((await expectedRuns()).length);
  });

  it("matches classicalMean and ppiMean on the recomputed vectors in every mediator × domain stratum", async () => {
    const runs = await expectedRuns();
    let withPpi = 0;
    for (const row of result.rows.filter((r) => r.domain !== null)) {
      const q = row.quantity;
      const what = `${q} ${row.mediator ?? "unmediated"} ${row.domain}`;
      const own = runs.filter((r) => r.mediator === row.mediator && r.domain === row.domain);
      const labelled = own.filter((r) => r.human?.[q] != null);
      const unlabelled = own.filter((r) => r.human?.[q] == null);
      expect(row.runs, what).toBe(own.length);
      expect(row.labelled, what).toBe(labelled.length);
      expect(row.incomplete, what).toBe(own.filter((r) => r.human !== null && r.human[q] === null).length);
      const y = labelled.map((r) => r.human![q] as number);
      closeTo(row.humanOnly, classicalMean(y), `${what} human-only`);
      closeTo(row.judgeOnly, classicalMean(own.map((r) => r.judge[q] as number)), `${what} judge-only`);
      const ppi =
        unlabelled.length === 0
          ? classicalMean(y)
          : ppiMean({
              y,
              fLabelled: labelled.map((r) => r.judge[q] as number),
              fUnlabelled: unlabelled.map((r) => r.judge[q] as number),
            });
      closeTo(row.ppi, ppi, `${what} PPI++`);
      if (ppi && unlabelled.length > 0) withPpi += 1;
      expect(row.active, what).toBeNull();
    }
    // The fixture leaves some strata with fewer than two labels; enough have a real PPI++ estimate.
    expect(withPpi).toBeGreaterThan(4);
    // The incomplete trajectory at the study's end is counted, not imputed.
    expect(result.rows.some((r) => r.quantity === "trajectory" && r.incomplete > 0)).toBe(true);
  });

  it("combines the domains with weights N_d/N and variances with (N_d/N)² for each mediator overall", () => {
    const z = normalQuantileUpper(0.025);
    for (const overall of result.rows.filter((r) => r.domain === null)) {
      const domains = result.rows.filter(
        (r) => r.quantity === overall.quantity && r.mediator === overall.mediator && r.domain !== null,
      );
      const N = domains.reduce((s, d) => s + d.judged, 0);
      expect(overall.runs).toBe(domains.reduce((s, d) => s + d.runs, 0));
      for (const key of ["humanOnly", "ppi"] as const) {
        if (domains.some((d) => d[key] === null)) {
          expect(overall[key], key).toBeNull();
          continue;
        }
        const estimate = domains.reduce((s, d) => s + (d.judged / N) * d[key]!.estimate, 0);
        const se = Math.sqrt(domains.reduce((s, d) => s + ((d.judged / N) * d[key]!.se) ** 2, 0));
        expect(overall[key]!.estimate).toBeCloseTo(estimate, 12);
        expect(overall[key]!.se).toBeCloseTo(se, 12);
        expect(overall[key]!.halfWidth).toBeCloseTo(z * se, 12);
      }
    }
    expect(result.rows.some((r) => r.domain === null && r.ppi !== null)).toBe(true);
  });

  it("gives the labels to reach the target half-width, and narrower targets need more", async () => {
    const row = result.rows.find((r) => r.domain === null && r.ppi !== null)!;
    const wide = await calibratedEstimates(t.db, {
      loaded: t.loaded,
      studyIds: [t.studyId],
      settings: { target: 0.2 },
    });
    const same = wide.rows.find(
      (r) => r.quantity === row.quantity && r.mediator === row.mediator && r.domain === null,
    )!;
    expect(same.ppi).toEqual(row.ppi);
    expect(row.labelsToTarget.ppi).toBe(
      row.ppi!.halfWidth <= 0.05
        ? 0
        : Math.ceil(row.ppi!.labelled * (row.ppi!.halfWidth / 0.05) ** 2) - row.ppi!.labelled,
    );
    expect(same.labelsToTarget.ppi!).toBeLessThanOrEqual(row.labelsToTarget.ppi!);
    expect(wide.settings.target).toBe(0.2);
  });

  it("adds the active estimate where a design gives every run an inclusion probability", async () => {
    const runs = await expectedRuns();
    const pi = (runId: string) => 0.3 + (runId.charCodeAt(runId.length - 1) % 5) / 10;
    const withDesign = await calibratedEstimates(t.db, {
      loaded: t.loaded,
      studyIds: [t.studyId],
      settings: { quantities: ["outcome"] },
      design: { inclusionProbability: pi },
    });
    const row = withDesign.rows.find((r) => r.domain !== null && r.labelled >= 2)!;
    const own = runs.filter((r) => r.mediator === row.mediator && r.domain === row.domain);
    const expected = activeMean(
      own.map((r) => ({ f: r.judge.outcome!, pi: pi(r.runId), y: r.human?.outcome ?? null })),
    );
    closeTo(row.active, expected, "active");
  });

  it("refuses a study that does not exist or is not an expert consensus study, naming where it was given", async () => {
    await expect(calibratedEstimates(t.db, { loaded: t.loaded, studyIds: [t.studyId, 999] })).rejects.toThrow(
      new CalibrationInputError("--study: study 999 does not exist (see the Studies page)"),
    );
  });
});
