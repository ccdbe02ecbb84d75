/**
 * The dashboard's alignment reads the evaluator values with the s0 `socrates metrics` last
 * computed with (recorded in settings), not the default the stored series were derived with: a
 * unit whose topic the judge had not located by the snippet's last turn reads s0. The view
 * carries s0 and the table shows it.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AlignmentTable } from "../../../app/components/dashboard/AlignmentTable.tsx";
import { alignmentSummary } from "../../../app/domain/validation/alignment-summary.ts";
import { studyDashboard } from "../../../app/server/annotation/dashboard.server.ts";
import { studyDashboardView } from "../../../app/server/annotation/dashboard-view.server.ts";
import { currentMetricParams } from "../../../app/server/pipeline/metric-settings.server.ts";
import { computeMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { DEFAULT_METRIC_PARAMS } from "../../../app/domain/metrics/metric-params.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { seedDemo } from "../../../harness/annotation.ts";
import { tempDb } from "../../../harness/temp-db.ts";

describe("alignment with the recorded s0", async () => {
  const t = await tempDb();
  let expertStudy = 0;
  beforeAll(async () => {
    await seedDemo(t.db);
    await seedDemoStudies(t.db);
    expertStudy = (
      t.db.$client
        .prepare(`SELECT id FROM studies WHERE type = 'consensus-snippet' AND pool = 'expert' ORDER BY id`)
        .get() as { id: number }
    ).id;
  });
  afterAll(() => t.cleanup());

  /** Read back with plain SQL: the stored score at t_end, and the topic's first located turn. */
  function stored(runId: string, topicId: string, turn: number) {
    const base = `FROM evaluations e JOIN evaluation_scores s ON s.evaluation_id = e.id WHERE e.method = 'topic-localized' AND e.backbone = 'demo-judge' AND e.run_id = ? AND s.topic_id = ?`;
    const q = (sql: string, ...more: number[]) =>
      (t.db.$client.prepare(sql).get(runId, topicId, ...more) as { v: number | null }).v;
    const score = q(`SELECT s.score AS v ${base} AND s.turn_id = ?`, turn) as number;
    const firstLocated = q(`SELECT min(s.turn_id) AS v ${base} AND s.located = 1`);
    return { score, firstLocated };
  }

  async function evaluatorRow() {
    const d = await studyDashboard(t.db, expertStudy);
    if (d.kind !== "consensus-snippet" || !d.alignment) throw new Error("expected an alignment table");
    return { table: d.alignment, row: d.alignment.rows.find((r) => r.key === "evaluator:demo-judge")! };
  }

  it("uses the default s0 = 1 until metrics are computed, and the recorded s0 after", async () => {
    expect(await currentMetricParams(t.db)).toEqual(DEFAULT_METRIC_PARAMS);
    const before = await evaluatorRow();
    expect(before.table.s0).toBe(1);
    before.table.units.forEach((u, i) =>
      expect(before.row.values[i]).toBe(stored(u.runId, u.topicId, u.endTurn).score),
    );

    await computeMetrics(t.db, { params: { s0: 3 } });
    expect((await currentMetricParams(t.db)).s0).toBe(3);
    const after = await evaluatorRow();
    expect(after.table.s0).toBe(3);
    expect(after.table.units).toEqual(before.table.units);
    let unlocated = 0;
    after.table.units.forEach((u, i) => {
      const { score, firstLocated } = stored(u.runId, u.topicId, u.endTurn);
      const notYet = firstLocated === null || firstLocated > u.endTurn;
      if (notYet) unlocated++;
      expect(after.row.values[i], `${u.runId} ${u.topicId} @${u.endTurn}`).toBe(notYet ? 3 : score);
    });
    // The demo has units on both sides, so the change is seen and the rest is untouched.
    expect(unlocated).toBeGreaterThan(0);
    expect(unlocated).toBeLessThan(after.table.units.length);
    expect(after.row.trajectory.r).not.toBe(before.row.trajectory.r);
  });

  it("carries s0 into the page's view data, and the table shows it", async () => {
    const view = await studyDashboardView(t.db, expertStudy, { excludeFlagged: false });
    if (!("alignment" in view) || !view.alignment) throw new Error("expected an alignment table in the view");
    expect(view.alignment.s0).toBe(3);
    const html = renderToStaticMarkup(<AlignmentTable table={alignmentSummary(view.alignment)} />);
    // s0 is a glossary link (app/components/Term.tsx).
    expect(html).toMatch(/<span data-testid="alignment-s0"><a [^>]*data-term="s0"[^>]*>s0<\/a> = 3<\/span>/);
  });

  it("gives no evaluator value to the units of a topic whose judge pass failed", async () => {
    const before = await evaluatorRow();
    const { runId, topicId } = before.table.units[0];
    const id = `${runId}:topic-localized:demo-judge`;
    const row = t.db.$client.prepare("SELECT output FROM evaluations WHERE id = ?").get(id) as { output: string };
    const output = JSON.parse(row.output) as Record<string, unknown>;
    delete output[topicId];
    t.db.$client
      .prepare("UPDATE evaluations SET output = ?, errors = ? WHERE id = ?")
      .run(JSON.stringify(output), JSON.stringify([{ topic_id: topicId, message: "judge reply rejected" }]), id);

    const after = await evaluatorRow();
    const hit = (u: { runId: string; topicId: string }) => u.runId === runId && u.topicId === topicId;
    after.table.units.forEach((u, i) =>
      expect(after.row.values[i], `${u.runId} ${u.topicId}`).toBe(hit(u) ? null : before.row.values[i]),
    );
    expect(after.row.skippedNoValue).toBe(after.table.units.filter(hit).length);
  });
});
