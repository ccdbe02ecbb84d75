/**
 * docs/promediate.md's walkthrough, command by command through the CLI's main against the stand-in
 * over HTTP: the six real cases imported, a plan with the generic, naive and socially intelligent
 * mediators run on them, the per-turn baseline and the MI judge, metrics under both definitions,
 * and the report's side-by-side table; the social runs carry their candidates and ratings for the
 * run viewer.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { MediatorDecision } from "../../../app/domain/bundle.ts";
import { getRunView } from "../../../app/server/catalog.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { benchmarkConfigJson, JUDGE_MODEL, MEDIATOR_MODEL, PARTY_MODEL } from "../benchmark/runner-helpers.ts";
import { CASES_DIR } from "./cases-dir.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SCENARIOS = ["promediate-williams", "promediate-hmo", "promediate-flagship"];
const MEDIATORS = ["Generic", "Naive", "Social"];
const PLAN = {
  name: "promediate walkthrough",
  scenarios: { ids: SCENARIOS },
  conditions: { keys: ["general"] },
  mediators: [
    { name: "Generic", model: MEDIATOR_MODEL },
    { name: "Naive", model: MEDIATOR_MODEL, mode: "naive" },
    { name: "Social", model: MEDIATOR_MODEL, mode: "social" },
  ],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 16,
};

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const result = await runCliInProcess(args, env);
  expect(result.status, `${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result.stdout;
}

/** The report CSV's rows of one table as { "<row>|<column>": { mean, n, missing } }. */
function csvCells(path: string): Map<string, { mean: string; n: number; missing: number }> {
  const [header, ...lines] = readFileSync(path, "utf8").trim().split("\n");
  const cols = header.split(",");
  const at = (cells: string[], name: string) => cells[cols.indexOf(name)];
  return new Map(
    lines.map((line) => {
      const cells = line.split(",");
      const cell = { mean: at(cells, "mean"), n: Number(at(cells, "n")), missing: Number(at(cells, "missing")) };
      return [`${at(cells, "row")}|${at(cells, "column")}`, cell];
    }),
  );
}

describe("the ProMediate walkthrough (docs/promediate.md)", { timeout: 240_000 }, () => {
  it("imports the six cases, runs three mediators on them and reports both definitions side by side", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const mock = await startMockLlm({ respond: standInResponder() });
    cleanups.push(() => mock.close());
    const env = { SOCRATES_DB: join(dir, "walkthrough.db") };
    const planPath = join(dir, "plan.json");
    const configPath = join(dir, "socrates.config.json");
    writeFileSync(planPath, JSON.stringify(PLAN));
    // The benchmark's roles, and the per-turn baseline's and the MI judge's.
    const config = benchmarkConfigJson(mock.url) as { roles: Record<string, object> };
    for (const role of ["baseline-judge", "mi-judge"]) config.roles[role] = { endpoint: "mock", model: JUDGE_MODEL };
    writeFileSync(configPath, JSON.stringify(config));

    expect(await cli(["promediate", "import", CASES_DIR], env)).toMatch(/stored 6 scenarios and 6 conditions/);
    const ran = await cli(["benchmark", "run", "--plan", planPath, "--config", configPath], env);
    // 3 scenarios × 3 mediators, each with its unmediated twin (shared by the mediators of a scenario).
    expect(ran).toMatch(/runs: 12 simulated, 0 already stored/);
    for (const method of ["per-turn", "mi"]) {
      expect(await cli(["evaluate", "--method", method, "--all", "--config", configPath], env)).toMatch(/0 failed/);
    }
    await cli(["metrics"], env);
    await cli(["metrics", "--definitions", "promediate-reference"], env);
    const out = join(dir, "report");
    await cli(["report", "--plan", planPath, "--out", out], env);

    // Every mediator has both columns of every metric, each counting all its runs (a value or a counted
    // null: the reference CC, for one, has none for a run shorter than its window); CC, TLE and MI have values.
    const cells = csvCells(join(out, "promediate-definitions.csv"));
    for (const mediator of MEDIATORS) {
      for (const metric of ["CC", "TLE", "RL", "ME", "MI"]) {
        expect(cells.has(`${mediator}|${metric}|spec`), `${mediator} ${metric}`).toBe(true);
        expect(cells.has(`${mediator}|${metric}|ProMediate ref.`), `${mediator} ${metric}`).toBe(true);
      }
      for (const metric of ["CC", "TLE", "MI"]) {
        for (const column of ["spec", "ProMediate ref."]) {
          const cell = cells.get(`${mediator}|${metric}|${column}`)!;
          expect(cell.n + cell.missing, `${mediator} ${metric} ${column}`).toBe(SCENARIOS.length);
          expect(cell.n, `${mediator} ${metric} ${column}`).toBeGreaterThan(0);
          expect(Number.isFinite(Number(cell.mean))).toBe(true);
        }
      }
    }
    const markdown = readFileSync(join(out, "report.md"), "utf8");
    expect(markdown).toContain("| Mediator | CC spec | CC ProMediate ref. |");

    // The social runs recorded what the run viewer shows: four rated candidates and the one voiced.
    const db = await openDatabase(env.SOCRATES_DB);
    cleanups.push(() => db.$client.close());
    const socialRuns = db.$client.prepare("SELECT id FROM runs WHERE id LIKE '%:social%' ORDER BY id").all() as {
      id: string;
    }[];
    expect(socialRuns).toHaveLength(SCENARIOS.length);
    for (const { id } of socialRuns) {
      const decisions = (await getRunView(db, id))!.run.mediatorDecisions as MediatorDecision[];
      const engaged = decisions.filter((d) => d.candidates);
      expect(engaged.length, id).toBeGreaterThan(0);
      for (const d of engaged) {
        expect(d.candidates!.map((c) => c.strategy)).toEqual([
          "facilitative",
          "evaluative",
          "transformative",
          "problem-solving",
        ]);
        expect(d.candidates![d.chosen!]).toBeDefined();
      }
    }
  });
});
