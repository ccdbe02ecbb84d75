/**
 * The stand-in endpoint can exercise Consensus Gain: its parties reach a deal more often with a
 * mediator, and its topic judge scores a run that ended without a deal lower at the end, so the
 * matched pairs of a simulated batch get CG values other than 0.
 */
import { afterEach, describe, expect, it } from "vitest";
import { and, eq, like } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import { simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { computeMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { evaluationConfigJson } from "./evaluation-helpers.ts";
import { MEDIATOR_MODEL, PARTY_MODEL, simulationConfigJson } from "./helpers.ts";
import { JUDGE_ROLES, SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("the stand-in's final consensus", () => {
  it("differs between mediated and unmediated runs, so CG is not always 0", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const mock = await startMockLlm({ respond: standInResponder({ roles: [...JUDGE_ROLES, ...SIMULATION_ROLES] }) });
    cleanups.push(() => mock.close());
    const sim = simulationConfigJson(mock.url) as { endpoints: object; roles: object };
    const judges = evaluationConfigJson(mock.url) as { roles: object };
    const llm = createLlm({
      db: t.db,
      config: parseLlmConfig({ endpoints: sim.endpoints, roles: { ...sim.roles, ...judges.roles } }, "test"),
      sleep: async () => {},
    });

    const batch = await simulateBatch({
      db: t.db,
      llm,
      scenarioId: "demo-transactional-1",
      mediator: MEDIATOR_MODEL,
      runs: 6,
      budget: 12,
    });
    expect(batch.failed).toEqual([]);
    const evaluated = await evaluateRuns(t.db, { llm, method: "topic", runIds: batch.stored });
    expect(evaluated.method).toBe("topic");
    await computeMetrics(t.db);

    const outcomes = new Map(
      (await t.db.select({ id: schema.runs.id, outcome: schema.runs.outcome }).from(schema.runs)).map((r) => [
        r.id,
        r.outcome,
      ]),
    );
    const pairs = await t.db
      .select()
      .from(schema.matchedPairs)
      .where(like(schema.matchedPairs.id, `%${PARTY_MODEL}%`));
    expect(pairs).toHaveLength(6);
    const gains = await Promise.all(
      pairs.map(async (pair) => {
        const row = (
          await t.db
            .select()
            .from(schema.metricValues)
            .where(and(eq(schema.metricValues.subjectId, pair.id), eq(schema.metricValues.metric, "CG")))
            .limit(1)
        )[0];
        return {
          mediated: outcomes.get(pair.mediatedRunId),
          unmediated: outcomes.get(pair.unmediatedRunId),
          cg: row?.value ?? null,
        };
      }),
    );
    expect(gains.some((g) => g.cg !== null && g.cg !== 0)).toBe(true);
    // A pair whose mediated run closed a deal and whose unmediated run ended in a walk-out gains
    // consensus. (A run cut off by the budget right after one party said "We have a deal" is
    // judged by its last turn, like any transcript.)
    const decisive = gains.filter((g) => g.mediated === "resolved" && g.unmediated === "impasse");
    expect(decisive.length).toBeGreaterThan(0);
    for (const g of decisive) expect(g.cg).toBeGreaterThan(0);
  });
});
