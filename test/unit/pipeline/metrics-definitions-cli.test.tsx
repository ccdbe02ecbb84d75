/**
 * `socrates metrics --definitions`: rows of CC, TLE, RL, ME and MI are stored per definitions,
 * side by side (the definitions are part of a row's identity), computed in the test's process
 * (runCliInProcess) on the seeded demo database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { seedDemo } from "../../../demo/seed.ts";
import * as schema from "../../../db/schema.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { MEDIATED } from "./evaluation-helpers.ts";
import { renderToStaticMarkup } from "react-dom/server";
import { MetricsPanel } from "../../../app/components/MetricsPanel.tsx";
import { formatMetricValue } from "../../../app/domain/metrics/metric-format.ts";
import { getRunMetrics, getRunView } from "../../../app/server/catalog.server.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const REFERENCE_METRICS = ["CC", "TLE", "RL", "ME", "MI"];

async function setup() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  return { db: t.db, env: { SOCRATES_DB: t.path } };
}

type Db = Awaited<ReturnType<typeof setup>>["db"];
const rowsOf = (db: Db) =>
  db
    .select()
    .from(schema.metricValues)
    .where(and(eq(schema.metricValues.subjectKind, "run"), eq(schema.metricValues.subjectId, MEDIATED)));

describe("socrates metrics --definitions", () => {
  it("says the choice in --help", async () => {
    const help = await runCliInProcess(["metrics", "--help"], {});
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(
      /--definitions <which>\s+how CC, TLE, RL, ME and MI are computed: spec \|\s+promediate-reference/,
    );
  });

  it("stores the reference rows beside the spec rows, each recording its definitions; again changes nothing", async () => {
    const { db, env } = await setup();
    const spec = await runCliInProcess(["metrics", "--run", MEDIATED], env);
    expect(spec.stderr).toBe("");
    expect(spec.status).toBe(0);
    expect(spec.stdout).toContain("definitions=spec");
    const specRows = await rowsOf(db);
    const perTurn = specRows.filter((r) => r.metric === "CC");
    expect(perTurn.length).toBeGreaterThan(0);
    expect(perTurn.every((r) => r.definitions === "spec" && r.params.definitions === "spec")).toBe(true);

    const ref = await runCliInProcess(["metrics", "--run", MEDIATED, "--definitions", "promediate-reference"], env);
    expect(ref.stderr).toBe("");
    expect(ref.status).toBe(0);
    expect(ref.stdout).toContain("definitions=promediate-reference");
    const both = await rowsOf(db);
    for (const metric of REFERENCE_METRICS) {
      const ofMetric = both.filter((r) => r.metric === metric);
      const spec = ofMetric.filter((r) => r.definitions === "spec");
      const reference = ofMetric.filter((r) => r.definitions === "promediate-reference");
      expect(reference.length, metric).toBe(spec.length);
      expect(
        reference.every((r) => r.params.definitions === "promediate-reference"),
        metric,
      ).toBe(true);
      expect(
        reference.every((r) => r.detail && (r.detail as { definitions?: string }).definitions),
        metric,
      ).toBe(true);
    }
    // The spec rows are untouched by the reference run (same values, same computation time).
    for (const before of specRows) {
      const after = both.find(
        (r) => r.metric === before.metric && r.evaluationId === before.evaluationId && r.definitions === "spec",
      );
      expect(after?.value, `${before.metric} ${before.evaluationId}`).toBe(before.value);
      if (REFERENCE_METRICS.includes(before.metric)) expect(after?.computedAt).toBe(before.computedAt);
    }
    // Metrics without the parameter have one row, recomputed in place.
    expect(both.filter((r) => r.metric === "IF")).toHaveLength(1);

    await runCliInProcess(["metrics", "--run", MEDIATED, "--definitions", "promediate-reference"], env);
    expect(await rowsOf(db)).toHaveLength(both.length);

    // The run page shows both side by side: its loader's reads, rendered by its panel.
    const view = (await getRunView(db, MEDIATED))!;
    const html = renderToStaticMarkup(
      <MetricsPanel run={view.run} metrics={await getRunMetrics(db, MEDIATED)} evaluations={view.evaluations} />,
    );
    expect(html).toContain("ProMediate ref.");
    const cc = both.find((r) => r.metric === "CC" && r.definitions === "promediate-reference")!;
    const ccSpec = both.find((r) => r.metric === "CC" && r.definitions === "spec")!;
    const ccRow = /<tr data-metric="CC">(.*?)<\/tr>/.exec(html)![1];
    expect(ccRow).toContain(`data-definitions="spec"><strong>${formatMetricValue("CC", ccSpec.value)}</strong>`);
    expect(ccRow).toMatch(
      new RegExp(`data-definitions="promediate-reference"[^>]*>${formatMetricValue("CC", cc.value)}<`),
    );
    expect(html.match(/<tr data-metric="CC">/g)).toHaveLength(both.filter((r) => r.metric === "CC").length / 2);
  });

  it("refuses an unknown choice and a contradiction with --params (exit 2, nothing stored)", async () => {
    const { db, env } = await setup();
    const unknown = await runCliInProcess(["metrics", "--definitions", "paper"], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--definitions: "paper" is not one of spec, promediate-reference');
    const clash = await runCliInProcess(
      ["metrics", "--definitions", "spec", "--params", '{"definitions":"promediate-reference"}'],
      env,
    );
    expect(clash.status).toBe(2);
    expect(clash.stderr).toContain('--definitions spec contradicts --params: definitions = "promediate-reference"');
    const viaParams = await runCliInProcess(["metrics", "--params", '{"definitions":"reference"}'], env);
    expect(viaParams.status).toBe(2);
    expect(viaParams.stderr).toMatch(/params: \$\.definitions: Invalid enum value/);
    expect(await rowsOf(db)).toHaveLength(0);
  });
});
