/**
 * Twenty annotators, each in its own process with its own connection, request and submit tasks
 * at the same time. SQLite's write lock must serialise allocation so that no item gets more than
 * k labels and nobody gets an item twice.
 */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { addAnnotator, seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { bundleAnnotatorWorker, startAnnotatorWorker } from "../../helpers/annotator-workers.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

describe("allocation under concurrency", async () => {
  const t = await tempDb();
  let studyId = 0;
  const annotators: number[] = [];
  const K = 3;
  const bundleDir = join(ROOT, "dist", `annotator-worker-${process.pid}`);
  let script = "";

  beforeAll(async () => {
    script = await bundleAnnotatorWorker(bundleDir);
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, {
      name: "race",
      pool: "expert",
      trajectories: 4,
      labelsPerItem: K,
      config: { seed: 3 },
    });
    for (let i = 0; i < 20; i++) annotators.push(await addAnnotator(t.db, `racer${i}`, "expert"));
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it("20 annotators at once: at most k labels per item, never a repeated item, every slot filled", async () => {
    const workers = annotators.map((id) => startAnnotatorWorker(script, t.path, studyId, id));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.done));
    for (const got of results) expect(new Set(got).size).toBe(got.length);

    const perItem = t.db.$client
      .prepare(
        `SELECT i.id, (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS labels, (SELECT count(*) FROM assignments a WHERE a.study_item_id = i.id AND a.status <> 'released') AS slots FROM study_items i WHERE i.study_id = ?`,
      )
      .all(studyId) as { id: number; labels: number; slots: number }[];
    expect(perItem.length).toBeGreaterThan(10);
    for (const row of perItem) {
      expect(row.labels).toBe(K);
      expect(row.slots).toBe(K);
    }
    const total = results.reduce((n, got) => n + got.length, 0);
    expect(total).toBe(perItem.length * K);
    const duplicates = t.db.$client
      .prepare(
        `SELECT count(*) AS n FROM (SELECT study_item_id, annotator_id FROM labels GROUP BY 1, 2 HAVING count(*) > 1)`,
      )
      .get() as { n: number };
    expect(duplicates.n).toBe(0);
  }, 120_000);
});
