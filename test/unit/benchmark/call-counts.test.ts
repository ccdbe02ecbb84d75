/**
 * `socrates benchmark run`'s call counts and resume commands, as a user meets them: the real CLI
 * in a child process against the stand-in over HTTP in this process, which counts every request it
 * receives. The summary's calls per role (parties, mediator, topic judge, emotion judge) and in
 * all equal the requests the endpoint received and `socrates llm usage`; after a spending-cap
 * stop, the printed resume command, split as a shell splits it, runs to the end.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type FaultRule } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { printedCommand, runCli, spawnCli } from "../../helpers/cli.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { chatRequests } from "../pipeline/helpers.ts";
import {
  benchmarkFiles,
  count,
  EMOTION_JUDGE_MODEL,
  JUDGE_MODEL,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  SMALL_PLAN,
} from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One scenario, two conditions, two mediators, one run each: 6 runs, each judged by topic and for emotion. */
const PLAN = {
  ...SMALL_PLAN,
  name: "counted grid",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general", "emotion:CR"] },
  runs: 1,
  emotion: { selfReport: false, judge: { model: EMOTION_JUDGE_MODEL } },
};

/** Each role has its own model in the configuration, so the endpoint can tell who asked. */
const ROLE_OF_MODEL: Record<string, string> = {
  [PARTY_MODEL]: "party",
  [MEDIATOR_MODEL]: "mediator",
  [JUDGE_MODEL]: "evaluator",
  [EMOTION_JUDGE_MODEL]: "emotion-judge",
};

interface Row {
  calls: number;
  failed: number;
  requests: number;
  cached: number;
  cost: string;
}

/** The summary's table of calls by role, read back from the printed text. */
function summaryRows(stdout: string): Record<string, Row> {
  const lines = stdout.split("\n");
  const header = lines.findIndex((l) => /^role\s+calls\s+failed\s+http requests\s+from cache/.test(l));
  expect(header, stdout).toBeGreaterThanOrEqual(0);
  const rows: Record<string, Row> = {};
  for (const line of lines.slice(header + 1)) {
    const cells = line.trim().split(/\s+/);
    if (cells.length !== 8) break;
    const [role, calls, failed, requests, cached, , , cost] = cells;
    rows[role] = {
      calls: Number(calls),
      failed: Number(failed),
      requests: Number(requests),
      cached: Number(cached),
      cost,
    };
    if (role === "total") break;
  }
  return rows;
}

/** Requests the endpoint received, by the role their model belongs to, from request `from` on. */
function endpointCounts(requests: { body: { model: string } }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const role = ROLE_OF_MODEL[r.body.model] ?? `unknown model ${r.body.model}`;
    counts[role] = (counts[role] ?? 0) + 1;
  }
  return counts;
}

async function setUp(
  options: {
    faults?: FaultRule[];
    prices?: Record<string, { inputPerMillion: number; outputPerMillion: number }>;
  } = {},
) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const mock = await startMockLlm({ respond: standInResponder(), faults: options.faults });
  cleanups.push(() => mock.close());
  const files = await benchmarkFiles(dir, mock.url, { plan: PLAN, prices: options.prices });
  return { dir, mock, files };
}

// CLI processes, each compiling TypeScript on start: more time than the default.
describe("benchmark run: calls counted and resume commands", { timeout: 120_000 }, () => {
  it("counts every call by role, equal to the requests the endpoint received and to `llm usage`", async () => {
    // A rate limit (one retry) and a malformed reply (one repair request) make requests outnumber calls.
    const { mock, files } = await setUp({
      faults: [
        { fault: { kind: "429", retryAfterMs: 1 }, fromRequest: 3 },
        { fault: { kind: "malformed" }, match: /negotiation from the side of one party/ },
      ],
      prices: {
        [PARTY_MODEL]: { inputPerMillion: 1, outputPerMillion: 2 },
        [JUDGE_MODEL]: { inputPerMillion: 3, outputPerMillion: 4 },
        [EMOTION_JUDGE_MODEL]: { inputPerMillion: 5, outputPerMillion: 6 },
      },
    });
    const env = { SOCRATES_DB: files.dbPath };
    const run = await spawnCli(["benchmark", "run", "--plan", files.planPath, "--config", files.configPath], env)
      .exited;
    expect(run.code, run.stderr).toBe(0);

    const printed = summaryRows(run.stdout);
    const received = endpointCounts(chatRequests(mock));
    expect(Object.keys(received).sort()).toEqual(["emotion-judge", "evaluator", "mediator", "party"]);
    expect(
      mock.requests
        .filter((r) => r.fault !== undefined)
        .map((r) => r.fault)
        .sort(),
    ).toEqual(["429", "malformed"]);
    for (const [role, n] of Object.entries(received))
      expect({ role, requests: printed[role]?.requests }).toEqual({ role, requests: n });
    expect(printed.total.requests).toBe(mock.requests.length);
    // Every stored party turn is one party call, sent or answered from the cache (runs that share an opening share its
    // requests).
    expect(printed.party.calls + printed.party.cached).toBe(
      count(files.dbPath, "SELECT count(*) AS n FROM turns WHERE role = 'party'"),
    );
    // Two faults, two extra requests: calls are what was asked once each.
    expect(printed.total.calls).toBe(mock.requests.length - 2);

    const usage = runCli(["llm", "usage", "--json"], env);
    expect(usage.status, usage.stderr).toBe(0);
    const recorded = JSON.parse(usage.stdout) as {
      role: string;
      calls: number;
      failed: number;
      attempts: number;
      costUsd: number;
    }[];
    expect(recorded.map((r) => r.role)).toEqual(Object.keys(printed).filter((r) => r !== "total"));
    for (const r of recorded) {
      expect({
        role: r.role,
        calls: printed[r.role].calls,
        failed: printed[r.role].failed,
        requests: printed[r.role].requests,
        cost: printed[r.role].cost,
      }).toEqual({
        role: r.role,
        calls: r.calls,
        failed: r.failed,
        requests: r.attempts,
        cost: `$${r.costUsd.toFixed(4)}`,
      });
    }
    const spent = count(files.dbPath, "SELECT sum(cost_usd) AS n FROM llm_calls");
    expect(spent).toBeGreaterThan(0);
    expect(printed.total.cost).toBe(`$${spent.toFixed(4)}`);
    expect(run.stdout).toContain(
      `spent $${spent.toFixed(4)} on ${printed.total.calls} calls (${mock.requests.length} HTTP requests); ${printed.total.cached} from cache`,
    );
  });

  it("after a spending-cap stop prints a resume command that runs as printed, with every option given", async () => {
    const price = { inputPerMillion: 1_000, outputPerMillion: 1_000 }; // about $1 a call: the cap stops the grid early
    const { mock, files } = await setUp({
      prices: { [PARTY_MODEL]: price, [MEDIATOR_MODEL]: price, [JUDGE_MODEL]: price, [EMOTION_JUDGE_MODEL]: price },
    });
    const env = { SOCRATES_DB: files.dbPath };
    const capped = await spawnCli(
      [
        "benchmark",
        "run",
        "--plan",
        files.planPath,
        "--config",
        files.configPath,
        "--max-cost",
        "8",
        "--concurrency",
        "2",
      ],
      env,
    ).exited;
    expect(capped.code, capped.stderr).toBe(1);
    expect(capped.stderr).toContain("the spending cap of $8.00 was reached");
    const storedRuns = count(files.dbPath, "SELECT count(*) AS n FROM runs");
    expect(storedRuns).toBeLessThan(6);

    const printed = /Resume with: (.+)$/m.exec(capped.stderr)?.[1];
    expect(printed, capped.stderr).toBeDefined();
    const { env: printedEnv, args } = printedCommand(printed!);
    expect(printedEnv).toEqual({ SOCRATES_DB: files.dbPath });
    expect(args.slice(0, 2)).toEqual(["benchmark", "run"]);
    for (const given of [
      ["--plan", files.planPath],
      ["--config", files.configPath],
      ["--concurrency", "2"],
    ]) {
      expect(args.join("\n")).toContain(given.join("\n"));
    }
    const cap = Number(args[args.indexOf("--max-cost") + 1]);
    expect(cap).toBeGreaterThanOrEqual(8);

    // `npx socrates` is this package's bin, scripts/socrates.mjs, which spawnCli starts; the database comes from the
    // printed assignment.
    const asked = mock.requests.length;
    const resumed = await spawnCli(args, printedEnv).exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(count(files.dbPath, "SELECT count(*) AS n FROM runs")).toBe(6);
    expect(count(files.dbPath, "SELECT count(*) AS n FROM evaluations")).toBe(12);
    // The resumed command's counts are its own: what the endpoint received since, and the abandoned runs' calls from
    // the cache.
    const rows = summaryRows(resumed.stdout);
    expect(rows.total.requests).toBe(mock.requests.length - asked);
    expect(rows.total.cached).toBeGreaterThan(0);
  });
});
