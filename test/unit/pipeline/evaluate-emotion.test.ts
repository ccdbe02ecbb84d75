import { afterEach, describe, expect, it } from "vitest";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { evaluationSchema, type Evaluation, type Run } from "../../../app/domain/bundle.ts";
import { runEmotionTrajectories } from "../../../app/domain/emotion/trajectory.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { exportBundle, importBundleFiles, importBundleRecords } from "../../../app/server/bundle-store.server.ts";
import { emotionTurns, runSpeakers } from "../../../app/server/models/run.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { computeMetrics, getRunMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { chatRequests, servedBodies } from "./helpers.ts";
import { EMOTION_MODEL, evaluationSetup, MEDIATED, prompts, UNMEDIATED } from "./evaluation-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PARTIES = ["BAKERY", "VENDOR"];

async function demoRun(db: Db, id: string): Promise<Run> {
  return (await exportBundle(db)).runs.find((r) => r.id === id)!;
}

async function storedEmotion(db: Db, runId: string, backbone = EMOTION_MODEL): Promise<Evaluation | undefined> {
  return (await exportBundle(db)).evaluations.find((e) => e.id === newEvaluationId(runId, "emotion", backbone));
}

const partyOf = (user: string) => /^Score party ([A-Z]+) at its turns/m.exec(user)?.[1];

describe("post-hoc emotion judge over HTTP", () => {
  it("scores every turn of each party with one call per party, and the record passes the bundle checks", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const summary = await evaluateRuns(db, { llm, method: "emotion", runIds: [MEDIATED] });
    const id = newEvaluationId(MEDIATED, "emotion", EMOTION_MODEL);
    expect(summary.backbone).toBe(EMOTION_MODEL);
    expect(summary.runs).toEqual([{ runId: MEDIATED, status: "stored", evaluationId: id, calls: 2, errors: 0 }]);
    const requests = chatRequests(mock);
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((r) => r.body.model))).toEqual(new Set([EMOTION_MODEL]));
    expect(
      prompts(mock)
        .map((p) => partyOf(p.user))
        .sort(),
    ).toEqual(PARTIES);

    const evaluation = (await storedEmotion(db, MEDIATED))!;
    expect(evaluationSchema.safeParse(evaluation).success).toBe(true);
    if (evaluation.method !== "emotion") throw new Error("wrong method");
    expect(evaluation.errors).toBeUndefined();
    const speakers = await runSpeakers(db, MEDIATED);
    for (const party of PARTIES) {
      const own = speakers.flatMap((s, i) => (s === party ? [i + 1] : []));
      expect(evaluation.output[party].scores.map((s) => s.turn_id)).toEqual(own);
      for (const s of evaluation.output[party].scores) {
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(100);
        expect(s.reason).toMatch(new RegExp(`^mock: ${party}`));
      }
    }
    // The metrics read it as a complete judged trajectory.
    const [trajectory] = runEmotionTrajectories(
      await emotionTurns(db, MEDIATED),
      [{ ...evaluation, errors: evaluation.errors ?? [] }],
      PARTIES,
    );
    expect(trajectory.source).toEqual({ kind: "judge", backbone: EMOTION_MODEL, evaluationId: id });
    expect(trajectory.failedParties).toEqual([]);

    // The whole database, exported and imported into an empty one, passes every bundle check.
    const fresh = await tempDb();
    cleanups.push(fresh.cleanup);
    const bundle = await exportBundle(db);
    expect(
      (await importBundleFiles(fresh.db, [{ file: "export.json", text: JSON.stringify(bundle) }])).inserted.evaluations,
    ).toBe(bundle.evaluations.length);
  });

  it("shows each party's request that party's own thoughts and no other party's", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    await evaluateRuns(db, { llm, method: "emotion", runIds: [MEDIATED] });
    const run = await demoRun(db, MEDIATED);
    const scenario = (await exportBundle(db)).scenarios.find((s) => s.id === "demo-transactional-1")!;
    const sent = prompts(mock);
    expect(sent).toHaveLength(2);
    for (const prompt of sent) {
      const party = partyOf(prompt.user)!;
      const text = `${prompt.system}\n${prompt.user}`;
      for (const turn of run.turns) {
        expect(text).toContain(`[${turn.turn_id}] ${turn.speaker}: ${turn.utterance}`);
        if (!turn.thought) continue;
        if (turn.speaker === party) expect(text).toContain(`[${turn.turn_id}] ${turn.thought}`);
        else expect(text).not.toContain(turn.thought);
      }
      // No private brief of anyone: stances and personas stay out.
      for (const p of scenario.parties)
        for (const stance of Object.values(p.preferences)) expect(text).not.toContain(stance);
      // The shared scale is in the prompt.
      expect(text).toContain("higher means calmer and more open");
    }
  });

  it("plans one call per party, stores once, and makes no request on a second call", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const plan = await evaluateRuns(db, { llm, method: "emotion", runIds: [UNMEDIATED, MEDIATED], dryRun: true });
    expect(plan.runs).toEqual([
      { runId: UNMEDIATED, status: "planned", calls: 2 },
      { runId: MEDIATED, status: "planned", calls: 2 },
    ]);
    expect(chatRequests(mock)).toHaveLength(0);
    await evaluateRuns(db, { llm, method: "emotion", runIds: [UNMEDIATED, MEDIATED] });
    expect(chatRequests(mock)).toHaveLength(4);
    const again = await evaluateRuns(db, { llm, method: "emotion", runIds: [UNMEDIATED, MEDIATED] });
    expect(again.runs.map((r) => r.status)).toEqual(["skipped", "skipped"]);
    expect(again.calls).toBe(0);
    expect(chatRequests(mock)).toHaveLength(4);
  });

  it("records a party whose reply stays invalid as an error naming it, and stores the other party", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const summary = await evaluateRuns(db, { llm, method: "emotion", runIds: [MEDIATED], backbone: "standin-broken" });
    expect(summary.runs[0]).toMatchObject({ status: "stored", errors: 1 });
    const evaluation = (await storedEmotion(db, MEDIATED, "standin-broken"))!;
    if (evaluation.method !== "emotion") throw new Error("wrong method");
    // The stand-in breaks the first party listed (BAKERY): a turn of VENDOR and a score of 140.
    expect(Object.keys(evaluation.output)).toEqual(["VENDOR"]);
    expect(evaluation.errors).toHaveLength(1);
    const [error] = evaluation.errors!;
    expect(error.party_id).toBe("BAKERY");
    expect(error.message).toMatch(/turn 2 is not a turn of BAKERY/);
    expect(error.message).toMatch(/score 140 is not a whole number from 0 to 100/);
    // The broken party was asked twice (the client's one repair), the other once.
    const asked = (party: string) => prompts(mock).filter((p) => partyOf(p.user) === party).length;
    expect([asked("BAKERY"), asked("VENDOR")]).toEqual([2, 1]);
    // The trajectory knows it is incomplete, so the metrics are null rather than imputed.
    const [trajectory] = runEmotionTrajectories(
      await emotionTurns(db, MEDIATED),
      [{ ...evaluation, errors: evaluation.errors ?? [] }],
      PARTIES,
    );
    expect(trajectory.failedParties).toEqual(["BAKERY"]);
    await computeMetrics(db, { runId: MEDIATED });
    const rows = (await getRunMetrics(db, MEDIATED)).run.filter((r) => ["ER", "EF", "EV"].includes(r.metric));
    expect(rows.map((r) => r.metric).sort()).toEqual(["EF", "ER", "EV"]);
    for (const row of rows) {
      expect(row.value).toBeNull();
      expect(row.detail).toMatchObject({
        source: "judge",
        backbone: "standin-broken",
        incomplete: true,
        failedParties: ["BAKERY"],
      });
    }
  });

  it("skips a run whose parties reported their own emotion", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const base = await demoRun(db, MEDIATED);
    const selfReported: Run = {
      ...base,
      id: `${MEDIATED}-felt`,
      turns: base.turns.map((t) => (t.role === "party" ? { ...t, emotion: 60, emotion_reason: "steady" } : t)),
    };
    await importBundleRecords(db, "test", { runs: [selfReported] });
    const summary = await evaluateRuns(db, { llm, method: "emotion", runIds: [selfReported.id] });
    expect(summary.runs).toEqual([{ runId: selfReported.id, status: "skipped", reason: "has self-reported emotion" }]);
    expect(chatRequests(mock)).toHaveLength(0);
  });

  it("gets through a 429 burst and a dropped connection without paying twice for any party", async () => {
    // Both 429s may fall on one run's request (its immediate retry can reach the endpoint before the
    // other run's first request): three tries each, so the burst is survivable whichever it hits.
    const { db, mock, llm } = await evaluationSetup(cleanups, {}, 2);
    mock.setFaults([
      { fault: { kind: "429", retryAfterSeconds: 1 }, times: 2, match: /Score party BAKERY/ },
      { fault: { kind: "reset" }, times: 1, match: /Score party VENDOR/ },
    ]);
    const summary = await evaluateRuns(db, { llm, method: "emotion", runIds: [UNMEDIATED, MEDIATED], concurrency: 2 });
    expect(summary.runs.map((r) => r.status)).toEqual(["stored", "stored"]);
    expect(summary.runs.map((r) => (r.status === "stored" ? r.errors : -1))).toEqual([0, 0]);
    const statuses = chatRequests(mock).map((r) => r.status ?? r.fault);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    // One answered request per (run, party): nothing was asked again once it had been answered.
    const served = servedBodies(mock);
    expect(served).toHaveLength(4);
    expect(new Set(served).size).toBe(4);
    for (const runId of [UNMEDIATED, MEDIATED]) expect((await storedEmotion(db, runId))!.errors).toBeUndefined();
  });
});
