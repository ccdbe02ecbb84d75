import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { scenarioSchema } from "../../../app/domain/bundle.ts";
import { curateSeed } from "../../../app/server/curation/curate-seed.server.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { curationLlm, writerSeed } from "./writer-helpers.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function storeSeed(db: Db, seed: ReturnType<typeof writerSeed>): Promise<void> {
  await db.insert(schema.seeds).values({
    id: seed.id,
    domain: seed.domain,
    title: seed.title,
    report: seed.report,
    sources: seed.report.sources,
    sourceKind: "files",
    provenance: { test: true },
    dedupeKey: seed.id,
  });
}

async function setup() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  const mock = await startMockLlm({ respond: standInResponder({ roles: ["writer", ...SIMULATION_ROLES] }) });
  cleanups.push(() => mock.close());
  return { ...t, mock, llm: curationLlm(t.db, mock) };
}

describe("curating one seed", () => {
  it("records each candidate once: invalid with its rule, resolved on replay r, or accepted with its scenario, general condition and unmediated replays", async () => {
    const t = await setup();
    const titles = [
      "Harbour dredging",
      "Night shifts",
      "Rail fares",
      "Water rights [writer:equal-weights-stubborn]",
      "School merger",
      "Land lease",
      "Quarry noise",
      "Clinic hours",
    ];
    const rows = [];
    for (const title of titles) {
      const seed = writerSeed(title);
      await storeSeed(t.db, seed);
      const outcome = await curateSeed(t.db, t.llm, seed, 3);
      if (outcome.kind !== "recorded") throw new Error(outcome.reason);
      rows.push(outcome.candidate);
    }
    const invalid = rows.find((r) => r.rejection === "invalid")!;
    expect(invalid.reason).toContain("rule weights-not-all-equal");
    const resolved = rows.filter((r) => r.rejection === "resolved");
    const accepted = rows.filter((r) => r.status === "accepted");
    expect(resolved.length).toBeGreaterThan(0);
    expect(accepted.length).toBeGreaterThan(0);
    for (const r of resolved) {
      const last = r.replays.at(-1)!;
      expect(last.outcome).toBe("resolved");
      expect(r.reason).toBe(`resolved on replay ${last.replay}`);
      expect(r.replays.slice(0, -1).every((x) => x.outcome !== "resolved")).toBe(true);
      expect(r.scenarioId).toBeNull();
    }
    const bundle = await exportBundle(t.db);
    for (const r of accepted) {
      expect(r.replays.map((x) => x.replay)).toEqual([1, 2, 3]);
      const scenario = bundle.scenarios.find((s) => s.id === r.scenarioId)!;
      expect(scenarioSchema.safeParse(scenario).success).toBe(true);
      expect(scenario.source.kind).toBe("curated");
      const condition = bundle.conditions.find((c) => c.scenario_id === scenario.id)!;
      expect(condition.axis).toBe("general");
      const runs = bundle.runs.filter((run) => run.condition_id === condition.id);
      expect(runs.map((run) => run.id).sort()).toEqual(r.replays.map((x) => x.runId).sort());
      expect(runs.every((run) => !run.mediated && run.outcome !== "resolved")).toBe(true);
    }
    // Rejected candidates leave no scenario or run behind.
    expect(bundle.scenarios.filter((s) => s.source.kind === "curated")).toHaveLength(accepted.length);

    // Curating the same seeds again changes nothing and calls nothing.
    const before = t.mock.requests.length;
    for (const title of titles) {
      const again = await curateSeed(t.db, t.llm, writerSeed(title), 3);
      expect(again.kind === "recorded" && again.existed).toBe(true);
    }
    expect(t.mock.requests.length).toBe(before);
    expect(await t.db.select().from(schema.curationCandidates)).toHaveLength(titles.length);
  });

  it("records nothing when a call fails, and the next try is answered from the cache up to where it stopped", async () => {
    const t = await setup();
    const seed = writerSeed("Ferry timetable");
    await storeSeed(t.db, seed);
    // Every simulation request fails: the writer's calls succeed and are cached, the replay fails.
    t.mock.setFaults([{ fault: { kind: "status", status: 400 }, match: /simulated negotiation/, times: 1_000 }]);
    const failed = await curateSeed(t.db, t.llm, seed, 3);
    expect(failed.kind).toBe("failed");
    expect(
      await t.db.select().from(schema.curationCandidates).where(eq(schema.curationCandidates.seedId, seed.id)),
    ).toHaveLength(0);
    t.mock.setFaults([]);
    const writerRequests = () =>
      t.mock.requests.filter((r) => /You turn reports|You decide how much/.test(JSON.stringify(r.body))).length;
    const writerBefore = writerRequests();
    const done = await curateSeed(t.db, t.llm, seed, 3);
    expect(done.kind).toBe("recorded");
    expect(writerRequests()).toBe(writerBefore); // the writer's replies came from the cache
  });
});
