/**
 * Persona-fidelity pairs generated with self-reported emotion (`emotion: true`, the CLI's
 * `--emotion`), over real HTTP against the stand-in: every party turn of both runs carries a
 * score and a reason, the runs' config says so, and the automatic proxy finds what the stand-in
 * plays — the target's volatility grows with its assigned reactiveness.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fidelityProxy } from "../../../app/domain/emotion/fidelity-proxy.ts";
import { partyVolatility } from "../../../app/domain/emotion/measures.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { generateFidelityPairs } from "../../../app/server/fidelity/generate.server.ts";
import { planFidelity } from "../../../app/server/fidelity/plan.server.ts";
import { demoSimulationSetup } from "../pipeline/helpers.ts";

const SIMULATOR = "sim-emotion";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("fidelity pairs with self-reported emotion", () => {
  it("stores emotion on every party turn, and the proxy finds volatility rising with the level", async () => {
    const { llm, ...t } = await demoSimulationSetup(cleanups);
    const summary = await generateFidelityPairs({
      db: t.db,
      llm,
      simulator: SIMULATOR,
      pairs: 8,
      seed: 3,
      budget: 8,
      emotion: true,
    });
    expect(summary.pairsStored).toHaveLength(8);

    const bundle = await exportBundle(t.db);
    const runs = new Map(bundle.runs.map((r) => [r.id, r]));
    const pairs = bundle.ab_pairs.filter((p) => p.id.startsWith(`fidelity:${SIMULATOR}:`));
    for (const pair of pairs) {
      for (const id of [pair.run_a_id, pair.run_b_id]) {
        const run = runs.get(id)!;
        expect(run.config.emotion, id).toBe(true);
        for (const turn of run.turns)
          expect([typeof turn.emotion, typeof turn.emotion_reason], `${id} turn ${turn.turn_id}`).toEqual([
            "number",
            "string",
          ]);
      }
    }

    const volatilityOf = (runId: string, partyId: string) =>
      partyVolatility(
        runs
          .get(runId)!
          .turns.filter((t) => t.speaker === partyId)
          .map((t) => ({ turnId: t.turn_id, score: t.emotion!, reason: t.emotion_reason ?? null })),
      );
    const proxyPairs = pairs.map((p) => ({
      pairId: p.id,
      backbone: SIMULATOR,
      runA: p.run_a_id,
      runB: p.run_b_id,
      targetParty: p.target_party,
      levelA: p.level_a,
      levelB: p.level_b,
    }));
    const [proxy] = fidelityProxy(proxyPairs, volatilityOf);
    expect(proxy.measuredPairs).toBe(8);
    expect(proxy.r).toBeGreaterThan(0);
    expect(proxy.agreement).toBeGreaterThan(0.5);

    // A batch without --emotion never takes the runs stored with it: its runs and pair are new.
    const without = await planFidelity({ db: t.db, llm, simulator: SIMULATOR, pairs: 1, seed: 3, budget: 8 });
    const emotional = await planFidelity({
      db: t.db,
      llm,
      simulator: SIMULATOR,
      pairs: 1,
      seed: 3,
      budget: 8,
      emotion: true,
    });
    const first = pairs.find((p) => p.id === emotional.pairs[0].record.id)!;
    expect(first).toBeDefined();
    expect(without.pairs[0]).toMatchObject({ stored: false, runA: { stored: false }, runB: { stored: false } });
    expect([without.pairs[0].runA.runId, without.pairs[0].runB.runId]).not.toContain(first.run_a_id);
    expect(without.pairs[0].record.id).not.toBe(first.id);
  });
});
