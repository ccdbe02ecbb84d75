import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceError } from "../../../app/server/http/errors.server.ts";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { createAbStudy, createConsensusStudy, setStudyStatus } from "../../../app/server/annotation/studies.server.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("studies", async () => {
  const t = await tempDb();
  let experts: number[] = [];
  beforeAll(async () => {
    await seedDemo(t.db);
    experts = [await addAnnotator(t.db, "e1", "expert"), await addAnnotator(t.db, "e2", "expert")];
  });
  afterAll(() => t.cleanup());

  const items = (studyId: number) =>
    t.db.$client
      .prepare(
        `SELECT id, run_id AS runId, snippet_id AS snippetId, ab_pair_id AS pairId, is_gold AS isGold, gold FROM study_items WHERE study_id = ? ORDER BY position`,
      )
      .all(studyId) as {
      id: number;
      runId: string | null;
      snippetId: number | null;
      pairId: string | null;
      isGold: number;
      gold: string | null;
    }[];

  it("samples the same trajectories for the same seed, with each trajectory's snippets in order", async () => {
    const a = await createConsensusStudy(t.db, { name: "a", pool: "expert", trajectories: 3, config: { seed: 5 } });
    const b = await createConsensusStudy(t.db, { name: "b", pool: "expert", trajectories: 3, config: { seed: 5 } });
    expect(items(a).map((i) => i.snippetId)).toEqual(items(b).map((i) => i.snippetId));
    const runs = [...new Set(items(a).map((i) => i.runId))];
    expect(runs).toHaveLength(3);
    for (const run of runs) {
      const positions = items(a)
        .filter((i) => i.runId === run)
        .map(
          (i) =>
            (
              t.db.$client.prepare(`SELECT position FROM snippets WHERE id = ?`).get(i.snippetId) as {
                position: number;
              }
            ).position,
        );
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
      expect(positions[0]).toBe(1);
    }
    // Only evaluated runs are eligible: the A/B demo runs have no evaluation.
    expect(runs.every((r) => r !== null && !r.startsWith("demo-ab"))).toBe(true);
  });

  it("refuses more trajectories than there are, naming the field", async () => {
    await expect(createConsensusStudy(t.db, { name: "x", pool: "expert", trajectories: 99 })).rejects.toThrow(
      /Only 8 evaluated trajectories/,
    );
    try {
      await createConsensusStudy(t.db, { name: "", pool: "expert", trajectories: 1 });
    } catch (err) {
      expect((err as ServiceError).problems).toContainEqual({ path: "name", message: "give the study a name" });
    }
  });

  it("mixes gold snippets from a labelled study, with the rounded expert mean as reference, and scores them on the dashboard", async () => {
    const source = await createConsensusStudy(t.db, {
      name: "source",
      pool: "expert",
      trajectories: 1,
      config: { seed: 9 },
    });
    for (const [who, score] of [
      [experts[0], 2],
      [experts[1], 3],
    ] as const) {
      for (let lease = await nextTask(t.db, source, who); lease; lease = await nextTask(t.db, source, who)) {
        await submitLabel(t.db, {
          studyId: source,
          itemId: lease.itemId,
          annotatorId: who,
          payload: await validConsensusLabel(t.db, lease.itemId, score),
          clientToken: `source-${who}-item-${lease.itemId}`,
          secondsOnTask: 3,
        });
      }
    }
    const withGold = await createConsensusStudy(t.db, {
      name: "gold",
      pool: "crowd",
      trajectories: 1,
      goldFromStudyId: source,
      config: { seed: 2, goldRate: 0.5 },
    });
    const all = items(withGold);
    const gold = all.filter((i) => i.isGold);
    const regular = all.filter((i) => !i.isGold);
    expect(gold.length).toBe(Math.min(Math.round(0.5 * regular.length), items(source).length));
    expect(gold.length).toBeGreaterThan(0);
    // mean(2, 3) = 2.5 rounds to 3 on every topic.
    for (const g of gold)
      expect(
        Object.values((JSON.parse(g.gold as string) as { topics: Record<string, number> }).topics).every(
          (s) => s === 3,
        ),
      ).toBe(true);
    // Gold snippets are never also regular items of the same study.
    const regularSnippets = new Set(regular.map((r) => r.snippetId));
    expect(gold.some((g) => regularSnippets.has(g.snippetId))).toBe(false);

    const worker = await addAnnotator(t.db, "w1", "crowd");
    for (let lease = await nextTask(t.db, withGold, worker); lease; lease = await nextTask(t.db, withGold, worker)) {
      const isGold = gold.some((g) => g.id === lease!.itemId);
      // Within ±1 of 3 passes; 5 fails. This worker passes every gold item but the first.
      const score = isGold && lease.itemId === gold[0].id ? 5 : 4;
      await submitLabel(t.db, {
        studyId: withGold,
        itemId: lease.itemId,
        annotatorId: worker,
        payload: await validConsensusLabel(t.db, lease.itemId, score),
        clientToken: `gold-item-${lease.itemId}`,
        secondsOnTask: 2,
      });
    }
    const d = await studyDashboard(t.db, withGold);
    expect(d.gold).toEqual([
      {
        annotatorId: String(worker),
        attempted: gold.length,
        passed: gold.length - 1,
        accuracy: (gold.length - 1) / gold.length,
      },
    ]);
  });

  it("A/B gold items are the 0-versus-1 pairs, answered by the more reactive side", async () => {
    const study = await createAbStudy(t.db, { name: "ab", pool: "crowd", config: { seed: 4, goldRate: 0.5 } });
    const all = items(study);
    expect(all).toHaveLength(16);
    for (const item of all.filter((i) => i.isGold)) {
      const pair = t.db.$client
        .prepare(`SELECT level_a AS a, level_b AS b FROM ab_pairs WHERE id = ?`)
        .get(item.pairId) as { a: number; b: number };
      expect([pair.a, pair.b].sort()).toEqual([0, 1]);
      expect(JSON.parse(item.gold as string)).toEqual({ choice: pair.a > pair.b ? "A" : "B" });
    }
    // 6 extreme pairs among 16: half a gold item per regular one gives 5.
    expect(all.filter((i) => i.isGold)).toHaveLength(5);
  });

  it("a closed study hands out no task and takes no label; reopened, it does again", async () => {
    const study = await createConsensusStudy(t.db, {
      name: "closing",
      pool: "expert",
      trajectories: 1,
      config: { seed: 3 },
    });
    const lease = (await nextTask(t.db, study, experts[0]))!;
    await setStudyStatus(t.db, study, "closed");
    await expect(nextTask(t.db, study, experts[1])).rejects.toThrow(/closed/);
    await expect(
      submitLabel(t.db, {
        studyId: study,
        itemId: lease.itemId,
        annotatorId: experts[0],
        payload: await validConsensusLabel(t.db, lease.itemId),
        clientToken: "closed-0001",
        secondsOnTask: 1,
      }),
    ).rejects.toThrow(/closed/);
    await setStudyStatus(t.db, study, "open");
    expect(
      (
        await submitLabel(t.db, {
          studyId: study,
          itemId: lease.itemId,
          annotatorId: experts[0],
          payload: await validConsensusLabel(t.db, lease.itemId),
          clientToken: "closed-0001",
          secondsOnTask: 1,
        })
      ).revision,
    ).toBe(1);
  });
});
