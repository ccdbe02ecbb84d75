import { afterEach, describe, expect, it } from "vitest";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { evaluationSchema, type Run } from "../../../app/domain/bundle.ts";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { getRunView } from "../../../app/server/catalog.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { evaluationId } from "../../../app/domain/evaluation-ids.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { chatRequests } from "./helpers.ts";
import { evaluationSetup, JUDGE_MODEL, MEDIATED, prompts, UNMEDIATED } from "./evaluation-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TOPICS = ["PRICE", "DELIV", "WARR"];

async function demoRuns(db: Parameters<typeof exportBundle>[0]): Promise<Run[]> {
  return (await exportBundle(db)).runs.filter((r) => r.id === UNMEDIATED || r.id === MEDIATED);
}

describe("topic-localized evaluator over HTTP", () => {
  it("judges every topic of both demo runs once and stores evaluations that pass the bundle checks", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const summary = await evaluateRuns(db, { llm, method: "topic", runIds: [UNMEDIATED, MEDIATED] });

    expect(summary.backbone).toBe(JUDGE_MODEL);
    expect(summary.runs).toEqual([
      {
        runId: UNMEDIATED,
        status: "stored",
        evaluationId: newEvaluationId(UNMEDIATED, "topic-localized", JUDGE_MODEL),
        calls: 3,
        errors: 0,
      },
      {
        runId: MEDIATED,
        status: "stored",
        evaluationId: newEvaluationId(MEDIATED, "topic-localized", JUDGE_MODEL),
        calls: 3,
        errors: 0,
      },
    ]);
    // One call per topic and run; every request names the configured judge model.
    const requests = chatRequests(mock);
    expect(requests).toHaveLength(6);
    expect(new Set(requests.map((r) => r.body.model))).toEqual(new Set([JUDGE_MODEL]));

    const bundle = await exportBundle(db);
    const stored = bundle.evaluations.filter((e) => e.backbone === JUDGE_MODEL);
    expect(stored.map((e) => e.id).sort()).toEqual([
      newEvaluationId(MEDIATED, "topic-localized", JUDGE_MODEL),
      newEvaluationId(UNMEDIATED, "topic-localized", JUDGE_MODEL),
    ]);
    for (const evaluation of stored) {
      expect(evaluationSchema.safeParse(evaluation).success).toBe(true);
      expect(evaluation.errors).toBeUndefined();
      if (evaluation.method !== "topic-localized") throw new Error("wrong method");
      expect(Object.keys(evaluation.output).sort()).toEqual([...TOPICS].sort());
      const T = (await demoRuns(db)).find((r) => r.id === evaluation.run_id)!.turns.length;
      for (const judged of Object.values(evaluation.output)) {
        expect(judged.agreement_score.map((e) => e.turn_id)).toEqual(judged.relevant_turns);
        for (const entry of judged.agreement_score) {
          expect(entry.turn_id).toBeGreaterThanOrEqual(1);
          expect(entry.turn_id).toBeLessThanOrEqual(T);
          expect(Object.keys(entry.party_stances).sort()).toEqual(["BAKERY", "VENDOR"]);
        }
      }
    }

    // The whole database, exported and imported into an empty one, passes every bundle check.
    const fresh = await tempDb();
    cleanups.push(fresh.cleanup);
    const imported = await importBundleFiles(fresh.db, [{ file: "export.json", text: JSON.stringify(bundle) }]);
    expect(imported.inserted.evaluations).toBe(bundle.evaluations.length);

    // The run viewer shows the new evaluation beside the demo's.
    const view = (await getRunView(db, MEDIATED))!;
    const shown = view.evaluations.find((e) => e.backbone === JUDGE_MODEL)!;
    expect(shown.method).toBe("topic-localized");
    expect(shown.consensus).toHaveLength(view.run.totalTurns + 1);
  });

  it("shows judges the spoken dialogue only, never thoughts or private stances", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    await evaluateRuns(db, { llm, method: "topic", runIds: [MEDIATED] });
    const run = (await demoRuns(db)).find((r) => r.id === MEDIATED)!;
    const scenario = (await exportBundle(db)).scenarios.find((s) => s.id === "demo-transactional-1")!;
    const sent = prompts(mock).map((p) => `${p.system}\n${p.user}`);
    expect(sent).toHaveLength(3);
    for (const text of sent) {
      for (const turn of run.turns) {
        expect(text).toContain(`[${turn.turn_id}] ${turn.speaker}: ${turn.utterance}`);
        if (turn.thought) expect(text).not.toContain(turn.thought);
      }
      for (const party of scenario.parties)
        for (const stance of Object.values(party.preferences)) expect(text).not.toContain(stance);
    }
    // Each call is about one topic.
    expect(sent.map((t) => /Judge topic ([A-Z]+) only/.exec(t)?.[1]).sort()).toEqual([...TOPICS].sort());
  });

  it("counts calls in a dry run, calls nothing, and skips evaluations already stored", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const plan = await evaluateRuns(db, { llm, method: "topic", runIds: [UNMEDIATED, MEDIATED], dryRun: true });
    expect(plan.calls).toBe(6);
    expect(plan.runs.map((r) => r.status)).toEqual(["planned", "planned"]);
    expect(chatRequests(mock)).toHaveLength(0);
    expect((await exportBundle(db)).evaluations.filter((e) => e.backbone === JUDGE_MODEL)).toHaveLength(0);

    await evaluateRuns(db, { llm, method: "topic", runIds: [UNMEDIATED] });
    const again = await evaluateRuns(db, { llm, method: "topic", runIds: [UNMEDIATED, MEDIATED] });
    expect(again.runs[0]).toMatchObject({ runId: UNMEDIATED, status: "skipped" });
    expect(again.runs[1]).toMatchObject({ runId: MEDIATED, status: "stored" });
    expect(chatRequests(mock)).toHaveLength(6);
  });

  it("records an invalid reply for one topic as an error of that topic and keeps the others", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups, { topicJudge: { PRICE: "score", DELIV: "turn" } });
    const summary = await evaluateRuns(db, { llm, method: "topic", runIds: [MEDIATED] });
    expect(summary.runs[0]).toMatchObject({ status: "stored", errors: 2 });

    const evaluation = (await exportBundle(db)).evaluations.find(
      (e) => e.id === newEvaluationId(MEDIATED, "topic-localized", JUDGE_MODEL),
    )!;
    if (evaluation.method !== "topic-localized") throw new Error("wrong method");
    expect(Object.keys(evaluation.output)).toEqual(["WARR"]);
    const errors = evaluation.errors ?? [];
    expect(errors.map((e) => e.topic_id).sort()).toEqual(["DELIV", "PRICE"]);
    expect(errors.find((e) => e.topic_id === "PRICE")!.message).toMatch(/score/);
    expect(errors.find((e) => e.topic_id === "DELIV")!.message).toMatch(/turn 28 is outside the run \(1\.\.25\)/);
    // The bad topics were asked twice (the client's one repair), the good one once.
    const perTopic = (topic: string) =>
      prompts(mock).filter((p) => p.user.includes(`Judge topic ${topic} only`)).length;
    expect([perTopic("PRICE"), perTopic("DELIV"), perTopic("WARR")]).toEqual([2, 2, 1]);

    // Failed topics stay at s0 = 1 in the derived trajectory; nothing was clipped into range.
    const view = (await getRunView(db, MEDIATED))!;
    const shown = view.evaluations.find((e) => e.backbone === JUDGE_MODEL)!;
    expect(shown.errors).toHaveLength(2);
    expect(new Set(shown.topics.find((t) => t.topicId === "PRICE")!.values)).toEqual(new Set([1]));
  });

  it("names evaluations by run, method and backbone, within the bundle's id rules", () => {
    expect(evaluationId("run-1", "per-turn", "org/model v2")).toBe("run-1:per-turn:org_model_v2");
    const long = evaluationId("r".repeat(100), "topic-localized", "some-provider/a-very-long-model-name");
    const other = evaluationId("r".repeat(100), "topic-localized", "some-provider/a-very-long-model-name-2");
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long).not.toBe(other);
    const record = { id: long, run_id: "r", method: "topic-localized", backbone: "x", output: {} };
    expect(evaluationSchema.safeParse(record).success).toBe(true);
  });
});
