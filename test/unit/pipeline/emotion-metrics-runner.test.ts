/**
 * The metrics runner on emotion, over a real SQLite file: a bundle whose mediated run's turns
 * carry self-reported emotion, with a topic-localized evaluation, stores ER/EF/EV/EC with the
 * hand-computed values; an emotion-judge evaluation with a recorded error for one party stores
 * that trajectory's rows null and incomplete, and the runner and the CLI count them.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { emotionEvaluationId } from "../../../app/domain/emotion/trajectory.ts";
import { importBundleRecords } from "../../../app/server/bundle-store.server.ts";
import { computeMetrics, getRunMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { fixtureBundle } from "../../fixtures/bundle-fixture.ts";
import { runCli } from "../../helpers/cli.ts";
import { tempDb } from "../../../harness/temp-db.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * fx-1:med: BUY, SELL, MEDIATOR, BUY, SELL, BUY, SELL (T = 7, mediator turn 3).
 * Self-report: BUY 20 @1, 60 @4, 70 @6; SELL 40 @2, 30 @5, 90 @7.
 *   t =        0    1    2    3    4    5    6    7
 *   E_BUY      —   .2   .2   .2   .6   .6   .7   .7
 *   E_SELL     —    —   .4   .4   .4   .3   .3   .9
 *   Ē          —    —   .3   .3   .5   .45  .5   .8
 * The fixture's topic judge (s0 = 1): PRICE 2 @1, 4 @4; DATE 5 @5, remapped (s − 1)/4 and averaged:
 *   C          0  .125 .125 .125 .375 .875 .875 .875
 * fx-1:unmed (BUY, SELL, BUY, SELL) has no self-report; an emotion judge scored BUY and failed on SELL.
 */
const SELF: Record<number, [number, string]> = {
  1: [20, "cornered on price"],
  2: [40, "wary"],
  4: [60, "a real offer"],
  5: [30, "pushed"],
  6: [70, "calmer"],
  7: [90, "a deal in sight"],
};
const JUDGE = "mock-emotion";
const UNMED_EMOTION = emotionEvaluationId("fx-1:unmed", JUDGE);

function emotionBundle() {
  const bundle = fixtureBundle();
  const { format: _f, version: _v, ...records } = bundle;
  const med = records.runs[0];
  med.turns = med.turns.map((t) =>
    t.role === "party" ? { ...t, emotion: SELF[t.turn_id][0], emotion_reason: SELF[t.turn_id][1] } : t,
  );
  records.evaluations.push({
    id: UNMED_EMOTION,
    run_id: "fx-1:unmed",
    method: "emotion",
    backbone: JUDGE,
    output: {
      BUY: {
        scores: [
          { turn_id: 1, score: 50, reason: "firm" },
          { turn_id: 3, score: 40, reason: "irritated" },
        ],
      },
    },
    errors: [
      {
        party_id: "SELL",
        message: "judge reply rejected: $.SELL.scores[1].score: score 140 is not a whole number from 0 to 100",
      },
    ],
  } as (typeof records.evaluations)[number]);
  return records;
}

async function importedDb() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await importBundleRecords(t.db, "emotion-fixture.json", emotionBundle());
  return t;
}

const rowsOf = async (t: Awaited<ReturnType<typeof importedDb>>, runId: string) =>
  (await t.db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, runId))).filter((r) =>
    ["ER", "EF", "EV", "EC"].includes(r.metric),
  );

describe("metrics runner: emotion", () => {
  it("stores ER, EF, EV under the self-report and EC against the topic judge, with the hand-computed values", async () => {
    const t = await importedDb();
    await computeMetrics(t.db, { runId: "fx-1:med" });
    const rows = await rowsOf(t, "fx-1:med");
    const row = (metric: string) => rows.find((r) => r.metric === metric)!;
    expect(rows.map((r) => `${r.metric} ${r.evaluationId}`).sort()).toEqual([
      "EC fx-1:med:emotion-self|fx-1:med:topic",
      "EF fx-1:med:emotion-self",
      "ER fx-1:med:emotion-self",
      "EV fx-1:med:emotion-self",
    ]);
    // ER (h_E = 5): m = 3, Ē[2] = .3 → Ē[min(8, 7)] = .8: (.8 − .3)/(1 − .3) = 5/7; the horizon is cut short.
    expect(row("ER").value).toBeCloseTo(5 / 7, 12);
    expect(row("ER").params).toEqual({ hE: 5 });
    expect(row("ER").detail).toMatchObject({
      source: "self",
      interventions: 1,
      beforeAllReported: 0,
      truncatedHorizon: 1,
      perIntervention: [
        { m: 3, progress: 3 / 7, before: expect.closeTo(0.3, 12), afterTurn: 7, after: expect.closeTo(0.8, 12) },
      ],
    });
    // EF = Ē[7] = (.7 + .9)/2 = .8.
    expect(row("EF").value).toBeCloseTo(0.8, 12);
    expect(row("EF").detail).toEqual({ source: "self", perParty: { BUY: 0.7, SELL: 0.9 } });
    // EV: BUY (|.6 − .2| + |.7 − .6|)/2 = .25; SELL (|.3 − .4| + |.9 − .3|)/2 = .35; mean .30.
    expect(row("EV").value).toBeCloseTo(0.3, 12);
    // EC over t = 2..7 (n = 6): Σx = 2.85, Σy = 3.25, Σxy = 1.79375, Σx² = 1.5225, Σy² = 2.46875;
    // Sxy = 1.79375 − 2.85·3.25/6 = .25; Sxx = 1.5225 − 2.85²/6 = .16875; Syy = 2.46875 − 3.25²/6 = 17/24.
    expect(row("EC").value).toBeCloseTo(0.25 / Math.sqrt(0.16875 * (17 / 24)), 12);
    expect(row("EC").params).toEqual({ s0: 1 });
    expect(row("EC").detail).toMatchObject({ source: "self", topicBackbone: "mock-judge", n: 6 });
  });

  it("stores the judged trajectory with a failed party as null, incomplete rows, counted; an unmediated run has EF and EV but no ER", async () => {
    const t = await importedDb();
    const summary = await computeMetrics(t.db, {});
    const rows = await rowsOf(t, "fx-1:unmed");
    expect(rows.map((r) => r.metric).sort()).toEqual(["EF", "EV"]);
    for (const r of rows) {
      expect(r.value).toBeNull();
      expect(r.evaluationId).toBe(UNMED_EMOTION);
      expect(r.detail).toEqual({
        source: "judge",
        backbone: JUDGE,
        incomplete: true,
        failedParties: ["SELL"],
        reason: "incomplete emotion-judge output (failed parties: SELL)",
      });
    }
    // The summary counts them among the incomplete rows (nothing else here is incomplete).
    expect(summary.incomplete).toBe(2);
    expect(
      summary.rows
        .filter((r) => r.detail.incomplete === true)
        .map((r) => `${r.subjectId} ${r.metric}`)
        .sort(),
    ).toEqual(["fx-1:unmed EF", "fx-1:unmed EV"]);
    // The run page reads them among the run's rows, source named in detail.
    expect(
      (await getRunMetrics(t.db, "fx-1:unmed")).run.filter((m) => m.detail.source === "judge").map((m) => m.metric),
    ).toEqual(["EF", "EV"]);
  });

  it("socrates metrics prints the emotion bases and the count of incomplete rows", async () => {
    const t = await importedDb();
    const result = runCli(["metrics"], { SOCRATES_DB: t.path });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0].trim().split(/\s+/).slice(-5)).toEqual(["CG", "ER", "EF", "EV", "EC"]);
    expect(lines.some((l) => /^fx-1:med\s+emotion:self\s/.test(l))).toBe(true);
    expect(lines.some((l) => /^fx-1:med\s+emotion:self\+topic-localized:mock-judge\s/.test(l))).toBe(true);
    expect(lines.some((l) => /^fx-1:unmed\s+emotion:judge:mock-emotion\s/.test(l))).toBe(true);
    expect(result.stdout).toMatch(
      /values stored for 2 runs and 1 matched pairs, 2 of them incomplete \(null: a judge reply failed\)/,
    );
    expect(result.stdout).toContain("params: s0=1 δ=0.05 W=10 h=5");
    expect(result.stdout).toContain("h_E=5");
  });
});
