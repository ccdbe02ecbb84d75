/**
 * Issue 28, item 2: a report's Tables 1, 2 and 6 read only the studies its plan names (or
 * `report --study`), and a row the plan expects but a study cannot give is printed as "—" with
 * a note naming the command that fills it. Two plans and two expert studies in one database.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isReportCell, type ReportTable } from "../../../../app/domain/benchmark/report-model.ts";
import { nextTask } from "../../../../app/server/annotation/assignment.server.ts";
import { studyDashboard } from "../../../../app/server/annotation/dashboard.server.ts";
import { submitLabel } from "../../../../app/server/annotation/submit.server.ts";
import { createConsensusStudy } from "../../../../app/server/annotation/studies.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { benchmarkPage } from "../../../../app/server/benchmark/page.server.ts";
import { touchBenchmarkPlan } from "../../../../app/server/models/benchmark-plan.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";
import { addAnnotator, validConsensusLabel } from "../../../../harness/annotation.ts";
import { runCli } from "../../../helpers/cli.ts";
import { demoStudiesDb } from "../../../helpers/demo-studies-db.ts";
import { ALT_JUDGE, fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** The demo's studies are 1 (expert consensus), 2 (crowd consensus on 1's snippets) and 3 (A/B). */
const EXPERT = 1;
const AB = 3;

/** A second expert study (4) on a different sample of the demo's runs, every item scored by one expert. */
async function secondExpertStudy(db: Db): Promise<number> {
  const id = await createConsensusStudy(db, {
    name: "Second expert study",
    pool: "expert",
    trajectories: 3,
    config: { seed: 99 },
  });
  const expert = await addAnnotator(db, "carol", "expert");
  for (let lease = await nextTask(db, id, expert); lease; lease = await nextTask(db, id, expert)) {
    const payload = await validConsensusLabel(db, lease.itemId, 1 + (lease.itemId % 5));
    await submitLabel(db, {
      studyId: id,
      itemId: lease.itemId,
      annotatorId: expert,
      payload,
      clientToken: `scope-${lease.itemId}`,
      secondsOnTask: 40,
    });
  }
  return id;
}

async function twoStudiesDb() {
  const t = await demoStudiesDb();
  cleanups.push(t.cleanup);
  const second = await secondExpertStudy(t.db);
  const planA = fixturePlan({ name: "plan-a", studies: [EXPERT, AB] });
  // Plan B's evaluator is the demo judge, which judged the demo runs both expert studies sample.
  const planB = fixturePlan({ name: "plan-b", evaluator: { model: "demo-judge" }, ablations: {}, studies: [second] });
  await seedGrid(t.db, planA);
  return { ...t, second, planA, planB };
}

const groupsOf = (table: ReportTable | undefined) => [...new Set((table?.rows ?? []).map((r) => r.group))];
const textOf = (table: ReportTable, label: string, group: string, column: string) => {
  const v = table.rows.find((r) => r.label === label && r.group === group)?.cells[column];
  if (!v || isReportCell(v)) throw new Error(`${table.id}: no text cell ${group} / ${label} / ${column}`);
  return v;
};

describe("report scope: the studies a plan names", () => {
  it("each of two plans reads only its own studies; a row its judges lack is '—' with the command that fills it", {
    timeout: 60_000,
  }, async () => {
    const { db, second, planA, planB } = await twoStudiesDb();
    const a = await buildBenchmarkReport(db, planA);
    const b = await buildBenchmarkReport(db, planB);
    const expertName = `Demo: expert snippet consensus (study ${EXPERT})`;
    const secondName = `Second expert study (study ${second})`;
    expect(a.studyIds).toEqual([EXPERT, AB]);
    expect(b.studyIds).toEqual([second]);

    const tableOf = (r: typeof a, id: string) => r.tables.find((t) => t.id === id);
    expect(groupsOf(tableOf(a, "table2"))).toEqual([expertName]);
    expect(groupsOf(tableOf(a, "table1"))).toEqual([`Demo: crowd A/B reactiveness (study ${AB})`]);
    expect(groupsOf(tableOf(b, "table2"))).toEqual([secondName]);
    expect(tableOf(b, "table1")).toBeUndefined();
    expect(b.warnings).toContain(
      `Table 1 omitted: none of the named studies (${second}) is an A/B reactiveness study.`,
    );

    // Plan A's judges never judged study 1's trajectories (the demo judge did): "—", and how to fill it.
    const table2 = tableOf(a, "table2")!;
    const missing = textOf(table2, `Topic-localized evaluator (${MAIN_JUDGE})`, expertName, "trajectory");
    expect(missing).toEqual({ text: "—", value: null });
    expect(table2.notes).toContain(
      `— ${expertName}, Topic-localized evaluator (${MAIN_JUDGE}): judge the study's trajectories with it: \`npx socrates validate-evaluator --study ${EXPERT} --backbone ${MAIN_JUDGE}\`.`,
    );
    // The baseline and the crowd are computed, and equal the dashboard's.
    const dashboard = await studyDashboard(db, EXPERT);
    const alignment = "alignment" in dashboard ? dashboard.alignment! : null;
    for (const method of ["baseline", "crowd"] as const) {
      const line = alignment!.rows.find((r) => r.method === method)!;
      expect(textOf(table2, line.label, expertName, "trajectory").value).toBe(line.trajectory.r);
      expect(textOf(table2, line.label, expertName, "outcomeN").value).toBe(line.outcome.n);
    }
    // Table 6 holds the plan's ablation judge only — never the demo judge, another plan's.
    const table6 = tableOf(a, "table6")!;
    expect(table6.rows.map((r) => r.label)).toEqual([`Topic-localized evaluator (${ALT_JUDGE})`]);
    expect(textOf(table6, `Topic-localized evaluator (${ALT_JUDGE})`, expertName, "outcome").text).toBe("—");
    expect(table6.notes.join("\n")).toContain(
      `npx socrates validate-evaluator --study ${EXPERT} --backbone ${ALT_JUDGE}`,
    );

    // Plan B's evaluator did judge its study: the dashboard's own numbers.
    const secondDash = await studyDashboard(db, second);
    const judged = ("alignment" in secondDash ? secondDash.alignment! : null)!.rows.find(
      (r) => r.backbone === "demo-judge",
    )!;
    expect(judged.trajectory.n).toBeGreaterThan(0);
    expect(textOf(tableOf(b, "table2")!, judged.label, secondName, "trajectory").value).toBe(judged.trajectory.r);
    expect(textOf(tableOf(b, "table2")!, judged.label, secondName, "trajectoryN").value).toBe(judged.trajectory.n);

    // The Benchmark page renders the recorded plan's report: the same scope.
    for (const plan of [planA, planB])
      await touchBenchmarkPlan(db, { hash: plan.hash, name: plan.plan.name, plan: plan.plan, source: "plan.json" });
    const page = await benchmarkPage(db, planB.hash);
    expect(page.report.studyIds).toEqual([second]);
    expect(groupsOf(tableOf(page.report, "table2"))).toEqual([secondName]);

    // `--study` overrides the plan: plan B's report on study 1 reads study 1 only.
    const overridden = await buildBenchmarkReport(db, planB, { studyIds: [EXPERT] });
    expect(groupsOf(tableOf(overridden, "table2"))).toEqual([expertName]);
  });

  it("a plan naming no study leaves Tables 1, 2 and 6 out with a warning saying how to name them", {
    timeout: 60_000,
  }, async () => {
    const { db, planA } = await twoStudiesDb();
    const { studies: _, ...unnamed } = planA.plan;
    const report = await buildBenchmarkReport(db, { ...planA, plan: unnamed });
    expect(report.tables.map((t) => t.id).filter((id) => ["table1", "table2", "table6"].includes(id))).toEqual([]);
    expect(report.warnings.join("\n")).toContain(
      `Tables 1, 2 and 6 omitted: the plan names no validation study (the database has studies ${EXPERT}, ${AB}, 4). Add \`"studies": [<id>, …]\` to the plan or pass \`--study <id>…\`.`,
    );
    expect(report.studyIds).toEqual([]);
  });

  it("the CLI: --study overrides the plan, and a study that does not exist or cannot give the tables exits 2 naming where it was named", {
    timeout: 120_000,
  }, async () => {
    const { path, dir, planA } = await twoStudiesDb();
    const planFile = join(dir, "plan-a.json");
    writeFileSync(planFile, JSON.stringify({ ...planA.plan, studies: [EXPERT, 2] }));
    const env = { SOCRATES_DB: path };

    const crowd = runCli(["report", "--plan", planFile, "--out", join(dir, "out"), "--format", "md"], env);
    expect(crowd.status).toBe(2);
    expect(crowd.stderr).toContain(
      `${planFile}: studies[1]: study 2 ("Demo: crowd snippet consensus") is a crowd consensus-snippet study`,
    );

    const absent = runCli(
      ["report", "--plan", planFile, "--study", "99", "--out", join(dir, "out"), "--format", "md"],
      env,
    );
    expect(absent.status).toBe(2);
    expect(absent.stderr).toContain("--study: study 99 does not exist");

    const bad = runCli(["report", "--plan", planFile, "--study", "x", "--format", "md"], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--study: expected study ids (whole numbers ≥ 1), got "x"');

    const ok = runCli(
      ["report", "--plan", planFile, "--study", String(EXPERT), "--out", join(dir, "out"), "--format", "md,csv"],
      env,
    );
    expect(ok.status, ok.stderr).toBe(0);
    const { readFileSync } = await import("node:fs");
    const md = readFileSync(join(dir, "out", "report.md"), "utf8");
    expect(md).toContain(`Studies (Tables 1, 2, 6): ${EXPERT}`);
    expect(md).toMatch(/\| Topic-localized evaluator \(judge-main\) \| — \| — \| — \| — \|/);
    expect(md).toContain(`\`npx socrates validate-evaluator --study ${EXPERT} --backbone ${MAIN_JUDGE}\``);
    expect(md).not.toContain("A/B reactiveness (study");
  });
});
