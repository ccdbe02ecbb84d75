/**
 * `socrates validate-evaluator` against the stand-in endpoint over HTTP, on the demo's expert study
 * and benchmark. The commands run in the test's process (runCliInProcess: the bin's `main`, its
 * output and exit code) — the cap test too: there a request still on the wire when the cap stops
 * the command would reach the endpoint after the command returned, so "paid once" is checked
 * strictly (the command must wait for it and record it). The
 * candidate's name contains "noisy", so the stand-in's topic judge scores it with hash noise
 * (app/llm-roles/evaluator/stand-in.ts): its alignment must come out below the demo judge's,
 * the difference test must say so, and --min-r must turn that into exit code 3. A second command
 * makes no request at all.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoBenchmark } from "../../../demo/benchmark/seed.ts";
import { mdNote } from "../../../app/domain/benchmark/report/format.ts";
import { listStudyRows } from "../../../app/server/models/study.server.ts";
import { demoStudiesDb } from "../../helpers/demo-studies-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { count } from "../benchmark/runner-helpers.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const CANDIDATE = "standin-noisy";
const DEMO_PLAN_HASH = "bd0d546c80ec";

let mock: MockLlm;
let t: Awaited<ReturnType<typeof demoStudiesDb>>;
let studyId: number;
let configPath: string;

beforeAll(async () => {
  t = await demoStudiesDb();
  await seedDemoBenchmark(t.db);
  studyId = (await listStudyRows(t.db)).find((s) => s.pool === "expert" && s.type === "consensus-snippet")!.id;
  mock = await startMockLlm({ respond: standInResponder() });
  configPath = join(t.dir, "socrates.config.json");
  writeFileSync(configPath, JSON.stringify(mockConfigJson(mock.url, { endpoint: { concurrency: 8, maxRetries: 2 } })));
});

afterAll(async () => {
  await mock?.close();
  t?.cleanup();
});

const csvRows = (path: string) => readFileSync(path, "utf8").trim().split("\n").slice(1);

function validate(out: string, ...more: string[]) {
  const args = [
    "validate-evaluator",
    "--study",
    String(studyId),
    "--backbone",
    CANDIDATE,
    "--config",
    configPath,
    "--out",
    out,
    ...more,
  ];
  return runCliInProcess(args, { SOCRATES_DB: t.path });
}

describe("socrates validate-evaluator", { timeout: 180_000 }, () => {
  it("finds the noisier judge below the reference, says so in the difference test, and exits 3 under --min-r", async () => {
    const out = join(t.dir, "report");
    const first = await validate(out, "--min-r", "0.6", "--benchmark", DEMO_PLAN_HASH);
    expect(first.stderr).not.toMatch(/failed /);
    expect(first.status).toBe(3);
    const requests = mock.requests.length;
    expect(requests).toBeGreaterThan(0);
    // Every judge call went to the candidate's model name, and is cached.
    const models = new Set(mock.requests.map((r) => (r.body as { model?: string }).model));
    expect([...models]).toEqual([CANDIDATE]);
    // The summary counts what the endpoint received (no retry here: one request a call).
    expect(first.stdout).toMatch(
      new RegExp(`LLM calls: ${requests} \\(${requests} HTTP requests\\), \\d+ from cache; spent`),
    );

    const verdict = first.stdout.split("\n").find((l) => l.startsWith("verdict:"))!;
    expect(verdict).toMatch(
      new RegExp(
        `^verdict: ${CANDIDATE}: trajectory r = [0-9.-]+ .*significantly below demo-judge .*below --min-r 0\\.6$`,
      ),
    );

    // Tables 2/6 layout: the candidate's r is below the reference's.
    const alignment = csvRows(join(out, "alignment.csv")).map((l) => l.split(","));
    const r = (label: string) =>
      Number(alignment.find((c) => c[1].includes(label) && c[2] === "trajectory|Pearson r (p)")![3]);
    expect(r(CANDIDATE)).toBeLessThan(0.6);
    expect(r("demo-judge")).toBeGreaterThan(r(CANDIDATE));
    expect(alignment.some((c) => c[1].startsWith("Per-turn baseline"))).toBe(true);
    expect(alignment.some((c) => c[1].startsWith("Non-expert pool"))).toBe(true);

    // The difference test: Δr < 0, Williams' p < 0.05, both intervals below 0, verdict "worse".
    const difference = readFileSync(join(out, "difference.csv"), "utf8");
    const cell = (row: string, column: string) =>
      difference.split("\n").find((l) => l.startsWith(`difference,${row},${column},`))!;
    expect(Number(cell("trajectory (all units)", "Δr").split(",")[3])).toBeLessThan(0);
    expect(cell("trajectory (all units)", "verdict (α = 0.05)")).toMatch(/,worse$/);
    for (const column of ["Zou 95% CI of Δr", "bootstrap 95% CI of Δr"]) {
      const [low, high] = cell("trajectory (all units)", column)
        .match(/\[(-?[0-9.]+), (-?[0-9.]+)\]/)!
        .slice(1)
        .map(Number);
      expect(low).toBeLessThan(high);
      expect(high).toBeLessThan(0);
    }

    // The ceiling, Figure 5 and Table 8 (the benchmark re-judged by the candidate).
    expect(readFileSync(join(out, "ceiling.csv"), "utf8")).toMatch(
      /^ceiling,experts,"alpha, interval \[95% CI\]",0\.\d+,/m,
    );
    expect(readFileSync(join(out, "figure5.svg"), "utf8")).toMatch(/^<svg[\s\S]*Expert mean[\s\S]*standin-noisy/);
    const table8 = readFileSync(join(out, "table8.csv"), "utf8");
    expect(table8).toMatch(new RegExp(`Spearman ρ, demo-judge vs ${CANDIDATE}`));
    expect(table8).toMatch(new RegExp(`Kendall τ-b, demo-judge vs ${CANDIDATE}`));
    // report.md escapes what it shows ("<0.001" as "&lt;0.001", issue 29).
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain(mdNote(verdict));
    expect(readFileSync(join(out, "report.html"), "utf8")).toMatch(
      /<h1>Evaluator validation: standin-noisy on study \d+<\/h1>[\s\S]*<svg/,
    );

    // Every request the stand-in answered is stored once in the LLM cache, so nothing is paid twice.
    expect(count(t.path, "SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND model = ?", CANDIDATE)).toBe(
      requests,
    );

    // The same command again: no request, the same verdict, the same exit code.
    const again = join(t.dir, "again");
    const second = await validate(again, "--min-r", "0.6", "--benchmark", DEMO_PLAN_HASH);
    expect(second.status).toBe(3);
    expect(mock.requests.length).toBe(requests);
    expect(second.stdout).toContain(verdict);
    expect(second.stdout).toContain("LLM calls: 0 (0 HTTP requests)");
    expect(readFileSync(join(again, "difference.csv"), "utf8")).toBe(difference);

    // Without --min-r the same verdict is not a failure.
    const third = await validate(join(t.dir, "third"));
    expect(third.status).toBe(0);
    expect(mock.requests.length).toBe(requests);
    expect(existsSync(join(t.dir, "third", "table8.csv"))).toBe(false);
  });

  it("stops at the spending cap with nothing half-stored, and goes on from there with no request paid twice", async () => {
    const fresh = await demoStudiesDb();
    const study = (await listStudyRows(fresh.db)).find((s) => s.pool === "expert")!.id;
    const server = await startMockLlm({ respond: standInResponder(), latencyMs: 20 });
    const config = join(fresh.dir, "priced.config.json");
    // A price high enough that a fraction of the study's judge calls fits under the cap.
    writeFileSync(
      config,
      JSON.stringify(
        mockConfigJson(server.url, {
          endpoint: { concurrency: 2, maxRetries: 0 },
          prices: { [CANDIDATE]: { inputPerMillion: 2000, outputPerMillion: 2000 } },
        }),
      ),
    );
    try {
      const args = [
        "validate-evaluator",
        "--study",
        String(study),
        "--backbone",
        CANDIDATE,
        "--config",
        config,
        "--out",
        join(fresh.dir, "out"),
        "--concurrency",
        "1",
      ];
      const dry = await runCliInProcess([...args, "--dry-run"], { SOCRATES_DB: fresh.path });
      expect(dry.status).toBe(0);
      const estimate = Number(
        dry.stdout.match(/standin-noisy on 4 study trajectories: 4 to judge \(12 judge calls, ≈ \$(\d+\.\d\d)\)/)![1],
      );
      expect(server.requests.length).toBe(0);
      // A cap of about two fifths of the estimate: the first run or two fit, the rest do not.
      const cap = (estimate * 0.4).toFixed(2);
      const capped = await runCliInProcess([...args, "--max-cost", cap], { SOCRATES_DB: fresh.path });
      expect(capped.status).toBe(1);
      expect(capped.stderr).toMatch(
        new RegExp(
          `stopped: the spending cap of \\$${cap.replace(".", "\\.")} was reached after \\$[0-9.]+; nothing half done was stored`,
        ),
      );
      // The resume command repeats every option given, the cap raised to cover what is left.
      const resume = /Resume with: (.+)$/m.exec(capped.stderr)![1];
      expect(resume).toContain(
        `SOCRATES_DB=${fresh.path} npx socrates validate-evaluator --study ${study} --backbone ${CANDIDATE} --out ${join(fresh.dir, "out")} --concurrency 1 --config ${config} --max-cost `,
      );
      expect(capped.stderr).not.toMatch(/failed /);
      const paid = server.requests.length;
      const stored = count(fresh.path, "SELECT count(*) AS n FROM evaluations WHERE backbone = ?", CANDIDATE);
      expect(paid).toBeGreaterThan(0);
      expect(stored).toBeGreaterThan(0);
      expect(stored).toBeLessThan(4);
      // Stored whole or not at all: each stored evaluation has its own judge reply for every topic of its run.
      expect(
        count(
          fresh.path,
          "SELECT count(*) AS n FROM evaluations WHERE backbone = ? AND (errors IS NOT NULL AND errors != '[]')",
          CANDIDATE,
        ),
      ).toBe(0);

      const resumed = await runCliInProcess(args, { SOCRATES_DB: fresh.path });
      expect(resumed.status).toBe(0);
      expect(resumed.stdout).toMatch(new RegExp(`standin-noisy on 4 study trajectories: ${4 - stored} to judge`));
      expect(count(fresh.path, "SELECT count(*) AS n FROM evaluations WHERE backbone = ?", CANDIDATE)).toBe(4);
      // Every request the endpoint answered was needed once: the cache holds each, none asked twice.
      const bodies = server.requests.map((r) => JSON.stringify(r.body));
      expect(new Set(bodies).size).toBe(bodies.length);
      expect(
        count(fresh.path, "SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND model = ?", CANDIDATE),
      ).toBe(server.requests.length);
    } finally {
      await server.close();
      fresh.cleanup();
    }
  });

  it("names what is wrong with the input", async () => {
    const notExpert = (await listStudyRows(t.db)).find((s) => s.pool === "crowd")!.id;
    const env = { SOCRATES_DB: t.path };
    const judge = ["--backbone", CANDIDATE, "--config", configPath];
    const crowd = await runCliInProcess(["validate-evaluator", "--study", String(notExpert), ...judge], env);
    expect(crowd.status).toBe(2);
    expect(crowd.stderr).toMatch(
      new RegExp(`study ${notExpert} .* validation needs an expert snippet-consensus study`),
    );
    const study = ["validate-evaluator", "--study", String(studyId)];
    const badR = await runCliInProcess([...study, ...judge, "--min-r", "2"], env);
    expect(badR.status).toBe(2);
    expect(badR.stderr).toMatch(/--min-r must be a number from -1 to 1, got "2"/);
    const badPlan = await runCliInProcess([...study, ...judge, "--benchmark", "nope"], env);
    expect(badPlan.status).toBe(2);
    expect(badPlan.stderr).toMatch(/--benchmark: "nope" is neither a plan file nor the hash/);
  });
});
