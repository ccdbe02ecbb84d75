import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timingProfile } from "../../../app/domain/metrics/index.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { computeMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { timingProfiles } from "../../../app/server/pipeline/timing-profile.server.ts";
import { runCli } from "../../helpers/cli.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("timing profile per mediator × condition", async () => {
  const t = await tempDb();
  beforeAll(async () => {
    await seedDemo(t.db);
    await computeMetrics(t.db);
  });
  afterAll(() => t.cleanup());

  it("bins every mediated run's interventions by p = m / T and averages IE, as the pure function does", async () => {
    const cells = await timingProfiles(t.db);
    expect(cells.map((c) => [c.mediator, c.condition, c.judge, c.runs])).toEqual([
      ["demo-mediator", "general:default", "demo-judge", 4],
    ]);
    // Independently: each mediated run's mediator turns and C[t] from the stored rows.
    const runs = t.db.$client.prepare(`SELECT id, total_turns AS T FROM runs WHERE mediated = 1`).all() as {
      id: string;
      T: number;
    }[];
    const interventions = runs.flatMap(({ id, T }) => {
      const topics = t.db.$client
        .prepare(`SELECT DISTINCT topic_id AS k FROM evaluation_scores WHERE evaluation_id = ?`)
        .all(`${id}:topic-localized:demo-judge`) as { k: string }[];
      const c = (turn: number) => {
        const scores = t.db.$client
          .prepare(`SELECT score FROM evaluation_scores WHERE evaluation_id = ? AND turn_id = ?`)
          .all(`${id}:topic-localized:demo-judge`, turn) as { score: number }[];
        return scores.reduce((a, s) => a + (s.score - 1) / 4, 0) / topics.length;
      };
      const mediatorTurns = (
        t.db.$client
          .prepare(`SELECT turn_id AS m FROM turns WHERE run_id = ? AND role = 'mediator' ORDER BY turn_id`)
          .all(id) as { m: number }[]
      ).map((r) => r.m);
      return mediatorTurns.map((m) => {
        const before = c(m - 1);
        const after = c(Math.min(m + 5, T));
        return { progress: m / T, ie: before < 1 ? (after - before) / (1 - before) : after - before };
      });
    });
    expect(interventions.length).toBeGreaterThan(10);
    const expected = timingProfile(interventions);
    cells[0].profile.bins.forEach((bin, i) => {
      expect(bin.count).toBe(expected.bins[i].count);
      expect(Math.abs((bin.meanIe ?? NaN) - (expected.bins[i].meanIe ?? NaN))).toBeLessThan(1e-12);
    });
  });

  it("socrates metrics --timing prints the table; a bad --bins exits 2 before computing anything", () => {
    const ok = runCli(["metrics", "--timing", "--bins", "4"], { SOCRATES_DB: t.path });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/demo-mediator\s+general:default\s+demo-judge\s+4\s+/);
    expect(ok.stdout).toContain("75–100%");
    const bad = runCli(["metrics", "--timing", "--bins", "0"], { SOCRATES_DB: t.path });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--bins must be a whole number from 1 to 20");
  });
});
