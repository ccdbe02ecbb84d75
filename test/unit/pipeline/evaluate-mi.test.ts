import { asc } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { chatRequests } from "./helpers.ts";
import { evaluationSetup, judgeLlm, MEDIATED, MI_MODEL, prompts, UNMEDIATED } from "./evaluation-helpers.ts";
import { JUDGE_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function judgments(db: Parameters<typeof exportBundle>[0]) {
  return await db.select().from(schema.interventionJudgments).orderBy(asc(schema.interventionJudgments.turnId));
}

describe("mediator-intelligence judge over HTTP", () => {
  it("judges every intervention of the mediated run once, with the conversation before it", async () => {
    const { db, mock, llm } = await evaluationSetup(cleanups);
    const summary = await evaluateRuns(db, { llm, method: "mi", runIds: [UNMEDIATED, MEDIATED] });
    expect(summary.backbone).toBe(MI_MODEL);
    expect(summary.runs[0]).toEqual({ runId: UNMEDIATED, status: "skipped", reason: "no mediator turns" });
    expect(summary.runs[1]).toMatchObject({ runId: MEDIATED, status: "stored", errors: 0 });

    const run = (await exportBundle(db)).runs.find((r) => r.id === MEDIATED)!;
    const mediatorTurns = run.turns.filter((t) => t.role === "mediator");
    const stored = await judgments(db);
    expect(stored.map((j) => j.turnId)).toEqual(mediatorTurns.map((t) => t.turn_id));
    for (const j of stored) {
      expect(j).toMatchObject({ runId: MEDIATED, backbone: MI_MODEL });
      for (const score of [
        j.perceptionAlignment,
        j.emotionalDynamics,
        j.cognitiveChallenges,
        j.communicationBreakdowns,
      ]) {
        expect(score === -1 || (score >= 1 && score <= 5)).toBe(true);
      }
      expect(j.reason).toBeTruthy();
    }
    // Each prompt holds the dialogue up to the intervention and the intervention itself, never what follows.
    const sent = prompts(mock);
    expect(sent).toHaveLength(mediatorTurns.length);
    for (const turn of mediatorTurns) {
      const prompt = sent.find((p) => p.user.includes(`[${turn.turn_id}] MEDIATOR: ${turn.utterance}`))!;
      expect(prompt).toBeDefined();
      const later = run.turns.find((t) => t.turn_id === turn.turn_id + 1);
      if (later) expect(prompt.user).not.toContain(later.utterance);
      for (const t of run.turns) if (t.thought) expect(prompt.user).not.toContain(t.thought);
    }

    const again = await evaluateRuns(db, { llm, method: "mi", runIds: [MEDIATED] });
    expect(again.runs[0]).toEqual({
      runId: MEDIATED,
      status: "skipped",
      reason: `every intervention already judged by ${MI_MODEL}`,
    });
    expect(chatRequests(mock)).toHaveLength(mediatorTurns.length);
  });

  it("stores the valid judgments when one reply is invalid, and judges only the missing one later", async () => {
    const { db, llm } = await evaluationSetup(cleanups, { miTurns: [11] });
    const summary = await evaluateRuns(db, { llm, method: "mi", runIds: [MEDIATED] });
    expect(summary.runs[0]).toMatchObject({ status: "stored", errors: 1 });
    expect((await judgments(db)).map((j) => j.turnId)).toEqual([5, 14, 20, 23]);

    const healthy = await startMockLlm({ respond: standInResponder({ roles: JUDGE_ROLES }) });
    cleanups.push(() => healthy.close());
    const retry = await evaluateRuns(db, { llm: judgeLlm(db, healthy), method: "mi", runIds: [MEDIATED] });
    expect(retry.runs[0]).toMatchObject({ status: "stored", calls: 1, errors: 0 });
    expect(chatRequests(healthy)).toHaveLength(1);
    expect((await judgments(db)).map((j) => j.turnId)).toEqual([5, 11, 14, 20, 23]);
  });
});
