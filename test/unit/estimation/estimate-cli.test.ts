/**
 * `socrates estimate` (issue 33) on a real database: the readable table and --json carry the
 * service's numbers; bad input (an unknown or crowd study, a bad quantity or target, an unknown
 * plan hash) exits 2 naming the option; --help shows an example.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plusMinus } from "../../../app/domain/estimation/calibrated-format.ts";
import { calibratedEstimates } from "../../../app/server/estimation/calibrated.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { touchBenchmarkPlan } from "../../../app/server/models/benchmark-plan.server.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { labelledPlanDb, type LabelledPlan } from "./fixture.ts";

let t: LabelledPlan;
let env: Record<string, string>;

beforeAll(async () => {
  t = await labelledPlanDb();
  env = { SOCRATES_DB: t.path };
}, 120_000);
afterAll(() => t?.cleanup());

describe("socrates estimate", () => {
  it("prints a table per quantity with the service's estimates", async () => {
    const result = await runCliInProcess(["estimate", "--plan", t.planFile, "--study", String(t.studyId)], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const expected = await calibratedEstimates(t.db, { loaded: t.loaded, studyIds: [t.studyId] });
    expect(result.stdout).toContain(`plan "report-test" (${t.loaded.hash}) · evaluator judge-main (s0 = 1)`);
    expect(result.stdout).toContain("outcome: C at the final snippet (0–1)");
    expect(result.stdout).toContain("trajectory: mean C over the snippets (0–1)");
    const lines = result.stdout.split("\n");
    for (const row of expected.rows.filter((r) => r.domain === null && r.ppi !== null)) {
      const line = lines.find(
        (l) =>
          l.startsWith(`${row.mediator ?? "no mediator"} `) &&
          l.includes("all domains") &&
          l.includes(plusMinus(row.ppi)),
      );
      expect(line, `${row.quantity} ${row.mediator}`).toBeDefined();
      expect(line).toContain(`${row.labelled} / ${row.runs}`);
    }
  });

  it("--json gives the estimates with every setting, by hash of a recorded plan", async () => {
    await touchBenchmarkPlan(t.db, {
      hash: t.loaded.hash,
      name: t.loaded.plan.name,
      plan: t.loaded.plan,
      source: "plan.json",
    });
    const result = await runCliInProcess(
      [
        "estimate",
        "--hash",
        t.loaded.hash,
        "--study",
        String(t.studyId),
        "--quantity",
        "outcome",
        "--target",
        "0.1",
        "--json",
      ],
      env,
    );
    expect(result.status).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.settings).toEqual({ alpha: 0.05, quantities: ["outcome"], target: 0.1 });
    expect(json).toMatchObject({ planHash: t.loaded.hash, evaluator: "judge-main", s0: 1, studyIds: [t.studyId] });
    const expected = await calibratedEstimates(t.db, {
      loaded: { ...t.loaded, source: "plan.json" },
      studyIds: [t.studyId],
      settings: { quantities: ["outcome"], target: 0.1 },
    });
    expect(json).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(Object.keys(json.rows[0]).sort()).toEqual(
      [
        "active",
        "domain",
        "humanOnly",
        "incomplete",
        "judged",
        "judgeOnly",
        "labelled",
        "labelledWithoutJudge",
        "labelsToTarget",
        "mediator",
        "notes",
        "ppi",
        "quantity",
        "runs",
      ].sort(),
    );
  });

  it("exits 2 naming the option on bad input", async () => {
    const crowd = await createConsensusStudy(t.db, {
      name: "Crowd",
      pool: "crowd",
      trajectories: 2,
      config: { seed: 1 },
    });
    const cases: [string[], string][] = [
      [["--study", "999"], "--study: study 999 does not exist"],
      [["--study", String(crowd)], `--study: study ${crowd} ("Crowd") is a crowd consensus-snippet study`],
      [["--study", "x"], "--study: expected study ids"],
      [
        ["--study", String(t.studyId), "--quantity", "final"],
        '--quantity: expected outcome or trajectory, got "final"',
      ],
      [["--study", String(t.studyId), "--target", "0"], "--target: expected a half-width above 0"],
      [[], "--study <ids...> is required"],
    ];
    for (const [args, message] of cases) {
      const result = await runCliInProcess(["estimate", "--plan", t.planFile, ...args], env);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain(message);
    }
    const hash = await runCliInProcess(["estimate", "--hash", "0000", "--study", String(t.studyId)], env);
    expect(hash.status).toBe(2);
    expect(hash.stderr).toContain("--hash: no benchmark plan 0000 is recorded");
  });

  it("--help shows an example", async () => {
    const result = await runCliInProcess(["estimate", "--help"], env);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("npx socrates estimate --plan benchmark.json --study 4");
    expect(result.stdout).toContain("--quantity <q>");
  });
});
