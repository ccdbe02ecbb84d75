/**
 * An active study (issue 33) on a real SQLite file: its population is stored at creation, items
 * appear only as runs are drawn, and annotators in processes of their own, each with its own
 * connection, never make it draw a run twice nor put more than k labels on an item.
 */
import { rmSync } from "node:fs";
import { itemCount as progressTotal } from "../../../app/server/models/study.server.ts";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasWorkFor, nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { loadItems, loadLatestLabels } from "../../../app/server/annotation/dashboard-data.server.ts";
import { setTargetHalfWidth } from "../../../app/server/annotation/dashboard-settings.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { labelsToReport } from "../../../app/domain/estimation/mean-estimators.ts";
import { activeDesignOf } from "../../../app/server/estimation/active-study.server.ts";
import { stoppingPanel } from "../../../app/server/estimation/stopping-rule.server.ts";
import { findStudy } from "../../../app/server/models/study.server.ts";
import { addAnnotator, seedDemo, validConsensusLabel } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { bundleAnnotatorWorker, startAnnotatorWorker } from "../../helpers/annotator-workers.ts";
import { demoStudiesDb } from "../../helpers/demo-studies-db.ts";
import { expectServiceError } from "../../helpers/expect-service-error.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

const active = (trajectories: number, extra: Record<string, unknown> = {}) => ({
  name: "active",
  pool: "expert" as const,
  trajectories,
  labelsPerItem: 2,
  config: { seed: 4, allocation: "active" as const, judgeBackbones: ["demo-judge"], ...extra },
});

type Sql = Awaited<ReturnType<typeof tempDb>>["db"]["$client"];
const draws = (sql: Sql, studyId: number) =>
  sql
    .prepare("SELECT run_id, mediator, size, key, position FROM study_draws WHERE study_id = ? ORDER BY run_id")
    .all(studyId) as { run_id: string; mediator: string; size: number; key: number; position: number | null }[];
const itemCount = (sql: Sql, studyId: number) =>
  (sql.prepare("SELECT count(*) AS n FROM study_items WHERE study_id = ?").get(studyId) as { n: number }).n;

describe("creating an active study", async () => {
  const t = await tempDb();
  beforeAll(async () => await seedDemo(t.db));
  afterAll(() => t.cleanup());

  it("stores every judged run with its stratum, size and key, and no item until a run is drawn", async () => {
    const studyId = await createConsensusStudy(t.db, active(3));
    const rows = draws(t.db.$client, studyId);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.mediator))).toEqual(new Set(["demo-mediator", "none"]));
    for (const m of ["demo-mediator", "none"]) {
      const sizes = rows.filter((r) => r.mediator === m).map((r) => r.size);
      expect(sizes.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    }
    expect(rows.every((r) => r.position === null && r.key > 0)).toBe(true);
    expect(itemCount(t.db.$client, studyId)).toBe(0);
    expect(await progressTotal(t.db, studyId)).toBe(0);
    const config = (await findStudy(t.db, studyId))!.config;
    expect(config).toMatchObject({ allocation: "active", judgeBackbones: ["demo-judge"], trajectories: 3 });
  });

  it("the same seed gives the same draw order", async () => {
    const a = draws(t.db.$client, await createConsensusStudy(t.db, active(3)));
    const b = draws(t.db.$client, await createConsensusStudy(t.db, active(3)));
    expect(b).toEqual(a);
  });

  it("refuses a study without its judge, with an unknown judge or a budget over the population, naming the field", async () => {
    const create = (input: ReturnType<typeof active>) => async () => await createConsensusStudy(t.db, input);
    await expectServiceError(
      create(active(3, { judgeBackbones: undefined })),
      400,
      /choose the judge/,
      "judgeBackbones",
    );
    await expectServiceError(create(active(3, { judgeBackbones: ["nobody"] })), 400, /nobody/, "judgeBackbones");
    await expectServiceError(create(active(9)), 400, /Only 8 runs have the judge's evaluation/, "trajectories");
  });

  it("draws a run when an annotator asks and nothing is open, its snippets in order, balanced over mediators", async () => {
    const studyId = await createConsensusStudy(t.db, active(2));
    const ada = await addAnnotator(t.db, "active-ada", "expert");
    expect(await hasWorkFor(t.db, studyId, ada)).toBe(true);
    const lease = (await nextTask(t.db, studyId, ada))!;
    const drawn = draws(t.db.$client, studyId).filter((r) => r.position !== null);
    expect(drawn).toHaveLength(1);
    const items = t.db.$client
      .prepare(
        "SELECT i.id, i.run_id, s.position FROM study_items i JOIN snippets s ON s.id = i.snippet_id WHERE i.study_id = ? ORDER BY i.position",
      )
      .all(studyId) as { id: number; run_id: string; position: number }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.run_id === drawn[0].run_id)).toBe(true);
    expect(items.map((i) => i.position)).toEqual(items.map((_, n) => n + 1));
    expect(lease.itemId).toBe(items[0].id);
    // Appended items take the positions after the last, so the task page's count (the last position + 1) holds.
    const positions = t.db.$client
      .prepare("SELECT position FROM study_items WHERE study_id = ? ORDER BY position")
      .all(studyId)
      .map((r) => (r as { position: number }).position);
    expect(positions).toEqual(positions.map((_, n) => n));
    expect(await progressTotal(t.db, studyId)).toBe(itemCount(t.db.$client, studyId));
    // While Ada holds a lease a second annotator still finds that run's items open: no new draw.
    const ben = await addAnnotator(t.db, "active-ben", "expert");
    await nextTask(t.db, studyId, ben);
    expect(draws(t.db.$client, studyId).filter((r) => r.position !== null)).toHaveLength(1);
  });
});

describe("an active study under concurrent annotators", async () => {
  const t = await tempDb();
  const bundleDir = join(ROOT, "dist", `active-worker-${process.pid}`);
  let script = "";
  let studyId = 0;
  const K = 2;
  const BUDGET = 6;
  const annotators: number[] = [];

  beforeAll(async () => {
    script = await bundleAnnotatorWorker(bundleDir);
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, { ...active(BUDGET), labelsPerItem: K });
    for (let i = 0; i < 6; i++) annotators.push(await addAnnotator(t.db, `drawer${i}`, "expert"));
  });
  afterAll(async () => {
    await t.cleanup();
    rmSync(bundleDir, { recursive: true, force: true });
  });

  it("draws each run once, up to the budget, and every item gets exactly k labels", async () => {
    const workers = annotators.map((id) => startAnnotatorWorker(script, t.path, studyId, id));
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const results = await Promise.all(workers.map((w) => w.done));
    for (const got of results) expect(new Set(got).size).toBe(got.length);

    const sql = t.db.$client;
    const drawn = draws(sql, studyId).filter((r) => r.position !== null);
    expect(drawn.map((r) => r.position).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6]);
    // Two strata of four runs: three each.
    expect(drawn.filter((r) => r.mediator === "none")).toHaveLength(3);
    // Each drawn run's snippets were appended once: one item per snippet, none twice.
    const perRun = sql
      .prepare(
        `SELECT i.run_id, count(*) AS items, count(DISTINCT i.snippet_id) AS snippets,
           (SELECT count(*) FROM snippets s WHERE s.run_id = i.run_id) AS ofRun
         FROM study_items i WHERE i.study_id = ? GROUP BY i.run_id`,
      )
      .all(studyId) as { run_id: string; items: number; snippets: number; ofRun: number }[];
    expect(perRun.map((r) => r.run_id).sort()).toEqual(drawn.map((r) => r.run_id).sort());
    for (const r of perRun) expect([r.items, r.snippets]).toEqual([r.ofRun, r.ofRun]);
    const perItem = sql
      .prepare(
        `SELECT (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS labels FROM study_items i WHERE i.study_id = ?`,
      )
      .all(studyId) as { labels: number }[];
    for (const row of perItem) expect(row.labels).toBe(K);
    expect(results.reduce((n, got) => n + got.length, 0)).toBe(perItem.length * K);
    expect(await hasWorkFor(t.db, studyId, annotators[0])).toBe(false);
  }, 120_000);
});

describe("an active study's stopping rule and design", async () => {
  const t = await tempDb();
  let studyId = 0;
  beforeAll(async () => {
    await seedDemo(t.db);
    studyId = await createConsensusStudy(t.db, active(4));
    const experts = [await addAnnotator(t.db, "stop-ada", "expert"), await addAnnotator(t.db, "stop-ben", "expert")];
    // Both label everything the study draws, with scores that differ by run so the estimate has spread.
    for (let more = true; more; ) {
      more = false;
      for (const annotatorId of experts) {
        const lease = await nextTask(t.db, studyId, annotatorId);
        if (!lease) continue;
        more = true;
        await submitLabel(t.db, {
          studyId,
          itemId: lease.itemId,
          annotatorId,
          payload: await validConsensusLabel(t.db, lease.itemId, 1 + (lease.itemId % 5)),
          clientToken: `stop-${annotatorId}-${lease.itemId}`,
          secondsOnTask: 5,
        });
      }
    }
  });
  afterAll(() => t.cleanup());

  it("estimates every mediator from the complete prefix, with π recorded in the draw log", async () => {
    const panel = await stoppingPanel(
      t.db,
      studyId,
      await loadItems(t.db, [studyId]),
      await loadLatestLabels(t.db, [studyId], "statistics"),
    );
    expect(panel.source).toBe("active");
    expect(panel.target).toBe(0.05);
    expect(panel.empty).toBeNull();
    expect(panel.active).toMatchObject({ judges: ["demo-judge"], budget: 4, population: 8, drawn: 4, leftOut: 0 });
    expect(panel.active!.draws.map((d) => d.position)).toEqual([1, 2, 3, 4]);
    for (const d of panel.active!.draws) {
      expect(d.inPrefix).toBe(true);
      expect(d.pi).toBeGreaterThan(0);
      expect(d.pi).toBeLessThanOrEqual(1);
    }
    expect(panel.rows.map((r) => `${r.quantity}:${r.mediator}`).sort()).toEqual([
      "outcome:demo-mediator",
      "outcome:none",
      "trajectory:demo-mediator",
      "trajectory:none",
    ]);
    for (const r of panel.rows) {
      expect(r.estimate).toMatchObject({ labelled: 2, units: 4 });
      expect(r.further).toBe(labelsToReport(r.estimate!, 0.05));
    }
  });

  it("gives the calibrated-estimates service π for the population and counts only the prefix as labelled", async () => {
    const design = (await activeDesignOf(t.db, [studyId]))!;
    const rows = draws(t.db.$client, studyId);
    for (const r of rows) {
      const pi = design.inclusionProbability(r.run_id)!;
      expect(pi).toBeGreaterThan(0);
      expect(pi).toBeLessThanOrEqual(1);
      expect(design.sampled!(r.run_id)).toBe(r.position !== null);
    }
    expect(design.inclusionProbability("no-such-run")).toBeUndefined();
    expect(await activeDesignOf(t.db, [])).toBeUndefined();
  });

  it("the target half-width is a number above 0 and at most 1, refused otherwise naming the field", async () => {
    expect(await setTargetHalfWidth(t.db, studyId, "0.1")).toBe(0.1);
    expect((await findStudy(t.db, studyId))!.config).toMatchObject({ targetHalfWidth: 0.1 });
    for (const bad of ["0", "-1", "2", "", "x", null])
      await expectServiceError(
        async () => await setTargetHalfWidth(t.db, studyId, bad),
        400,
        /half-width/,
        "targetHalfWidth",
      );
  });
});

describe("an active study with gold", () => {
  let t: Awaited<ReturnType<typeof demoStudiesDb>>;
  beforeAll(async () => {
    t = await demoStudiesDb();
  });
  afterAll(() => t.cleanup());

  it("mixes gold snippets from the chosen study into each drawn run's items, at the study's rate", async () => {
    const studyId = await createConsensusStudy(t.db, {
      ...active(2),
      goldFromStudyId: 1,
      config: { ...active(2).config, goldRate: 0.5 },
    });
    expect((await findStudy(t.db, studyId))!.config).toMatchObject({ goldFromStudyId: 1, goldRate: 0.5 });
    const ada = await addAnnotator(t.db, "gold-ada", "expert");
    await nextTask(t.db, studyId, ada);
    const items = t.db.$client
      .prepare("SELECT run_id, snippet_id, is_gold FROM study_items WHERE study_id = ? ORDER BY position")
      .all(studyId) as { run_id: string; snippet_id: number; is_gold: number }[];
    const [drawn] = draws(t.db.$client, studyId).filter((r) => r.position !== null);
    const regular = items.filter((i) => i.is_gold === 0);
    const gold = items.filter((i) => i.is_gold === 1);
    expect(regular.every((i) => i.run_id === drawn.run_id)).toBe(true);
    expect(gold.length).toBeGreaterThan(0);
    expect(gold.length).toBeLessThanOrEqual(Math.floor(0.5 * regular.length + 0.5));
    // Gold comes from the source study's fully labelled snippets, never the drawn run's own.
    const source = new Set(
      (
        t.db.$client.prepare("SELECT snippet_id FROM study_items WHERE study_id = 1").all() as { snippet_id: number }[]
      ).map((r) => r.snippet_id),
    );
    for (const g of gold) {
      expect(source.has(g.snippet_id)).toBe(true);
      expect(regular.some((r) => r.snippet_id === g.snippet_id)).toBe(false);
    }
  });
});
