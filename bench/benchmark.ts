/**
 * The paper-size benchmark grid through the runner: 40 synthetic scenarios × 15 conditions × 8
 * mediators + the shared unmediated run (≈ 5,400 runs of 30 party turns), simulated, judged and
 * measured against the stand-in (in its own process, 50 ms latency) on one endpoint limited to 64
 * requests at once. Prints the wall time against the ideal — the larger of Σ latency / 64 and the
 * longest dependent chain of calls (one run's turns, then its judges; traced per run and weighed
 * with the stand-in's recorded service times, see bench/dependent-chain.ts) — the runner's CPU time (per client call
 * too), calls per second, the database size, the time to build the report (buildBenchmarkReport), the load average and
 * the stand-in's CPU time (docs/benchmark.md has figures). The stand-in is not a model: the numbers in the database
 * mean nothing; the timings are the point. Figures only; it exits 0 whether or not the targets (wall ≤ 1.3 × ideal,
 * runner CPU ≤ 0.6 ms per client call, on an idle 2-core machine) are met. With SHARDS > 1 the calls are made in the
 * shard processes and the chain is not traced.
 *
 * SHARDS=n plays the grid as `socrates benchmark run --shard i/n` in n processes on the same
 * database (each with 64/n of the endpoint's slots, so the endpoint still sees at most 64), the
 * way several cores or machines share one endpoint; the runner's CPU is then spread over n cores.
 *
 *   npm run bench:benchmark          (SCALE=0.05 for a quick look: 2 scenarios, 270 runs; SHARDS=2)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { count } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import { BUNDLE_FORMAT, BUNDLE_VERSION } from "../app/domain/bundle.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { createLlm } from "../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../app/server/llm/config.server.ts";
import { loadPlanFile } from "../app/server/benchmark/plan-file.server.ts";
import { buildBenchmarkReport } from "../app/server/benchmark/report.server.ts";
import { runGrid } from "../app/server/benchmark/run-grid.server.ts";
import { createProgress, type Progress } from "../scripts/progress.ts";
import { mockConfigJson } from "../app/server/llm/stand-in/config.server.ts";
import { bounds, longestChain, serviceTimes, tracedLlm } from "./dependent-chain.ts";
import { startMockProcess } from "./mock-llm-client.ts";
import { syntheticCatalog } from "./synthetic-bundle.ts";

const SCALE = Number(process.env.SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 1)) {
  console.error(`SCALE must be a number in (0, 1] (e.g. 0.05), got "${process.env.SCALE}"`);
  process.exit(2);
}
const SCENARIOS = Math.max(1, Math.round(40 * SCALE));
const SHARDS = Number(process.env.SHARDS ?? 1);
if (!Number.isInteger(SHARDS) || SHARDS < 1 || 64 % SHARDS !== 0) {
  console.error(`SHARDS must be a divisor of 64 (1, 2, 4, …), got "${process.env.SHARDS}"`);
  process.exit(2);
}
const CONCURRENCY = 64;
const LATENCY_MS = 50;
const TARGET_RATIO = 1.3;
const TARGET_CPU_US = 600;

/** Seconds with one decimal: the ratios are read off these. */
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/**
 * CPU seconds of this process's finished children (Linux /proc; undefined elsewhere): the stand-in once it has exited.
 */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return ((Number(fields[13]) + Number(fields[14])) / 100) * 1000; // cutime + cstime, in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}
const loadAtStart = loadavg()[0];

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-benchmark-"));
const dbPath = join(dir, "benchmark.db");
let mockClosed = false;
const mock = await startMockProcess({ min: LATENCY_MS, max: LATENCY_MS });
try {
  const db = await openDatabase(dbPath);
  await importBundleFiles(db, [
    {
      file: "synthetic catalogue",
      text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...syntheticCatalog(SCENARIOS, "bench") }),
    },
  ]);
  const planPath = join(dir, "benchmark.json");
  writeFileSync(
    planPath,
    JSON.stringify({
      name: `bench ${SCENARIOS} scenarios`,
      scenarios: "all",
      conditions: "all",
      // Eight mediators: four stand-in "models", each generic and social.
      mediators: [1, 2, 3, 4].flatMap((i) => [
        { name: `M${i}`, model: `bench-mediator-${i}` },
        { name: `M${i} social`, model: `bench-mediator-${i}`, mode: "social" },
      ]),
      simulator: { model: "bench-party" },
      evaluator: { model: "bench-judge" },
      runs: 1,
      budget: 30,
    }),
  );
  const config = parseLlmConfig(
    mockConfigJson(mock.url, { endpoint: { concurrency: CONCURRENCY, timeoutMs: 120_000 } }),
    "bench config",
  );
  const loaded = loadPlanFile(planPath);
  let calls = 0;
  // The former estimate of the chain: uncached calls per run besides its judges (kept beside the traced chain).
  const sequential = new Map<string, number>();
  const { llm, calls: traced } = tracedLlm(
    createLlm({
      db,
      config,
      onCall: (e) => {
        calls++;
        if (!e.cached && e.role !== "evaluator" && e.subject)
          sequential.set(e.subject, (sequential.get(e.subject) ?? 0) + 1);
      },
    }),
    config,
  );
  console.log(
    `# bench:benchmark — ${SCENARIOS} scenarios × 15 conditions × (8 mediators + unmediated); stand-in latency ${LATENCY_MS} ms; endpoint concurrency ${CONCURRENCY}` +
      (SHARDS > 1 ? `; ${SHARDS} shard processes` : ""),
  );

  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const summary = SHARDS === 1 ? await inProcess() : await inShards();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuAtStart);
  // In shards the runner's CPU is the shard processes' (reaped, so counted as children; the stand-in still runs).
  const cpuMs = SHARDS === 1 ? (cpu.user + cpu.system) / 1000 : (childrenCpuMs() ?? NaN);

  async function inProcess() {
    let bar: Progress | undefined;
    const result = await runGrid({
      db,
      llm,
      config,
      loaded,
      onStart: (steps) => (bar = createProgress("benchmark", steps, { eta: true })),
      onProgress: (e) =>
        e.type === "skipped"
          ? bar?.skip(e.steps)
          : e.type === "failed"
            ? bar?.fail(`${e.id}: ${e.reason}`)
            : bar?.tick(),
    });
    bar?.done();
    return {
      stored: `${result.runs.stored} / ${result.evaluations.stored} / ${result.pairsStored}`,
      failures: result.failures.map((f) => `${f.id}: ${f.reason}`),
    };
  }

  /** `socrates benchmark run --shard i/n` in n processes on this database, each with 64/n of the endpoint's slots. */
  async function inShards() {
    const shardConfig = join(dir, "shard-config.json");
    writeFileSync(
      shardConfig,
      JSON.stringify(mockConfigJson(mock.url, { endpoint: { concurrency: CONCURRENCY / SHARDS, timeoutMs: 120_000 } })),
    );
    const cli = resolve(import.meta.dirname, "../scripts/socrates.mjs");
    const exits = await Promise.all(
      Array.from({ length: SHARDS }, (_, i) => {
        const child = spawn(
          process.execPath,
          [cli, "benchmark", "run", "--plan", planPath, "--config", shardConfig, "--shard", `${i + 1}/${SHARDS}`],
          {
            env: { ...process.env, SOCRATES_DB: dbPath },
            stdio: ["ignore", "ignore", "pipe"],
          },
        );
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
        return new Promise<string | null>((ok) =>
          child.on("exit", (code) =>
            ok(code === 0 ? null : `shard ${i + 1}/${SHARDS} exited ${code}: ${stderr.trim().split("\n").at(-1)}`),
          ),
        );
      }),
    );
    const n = async (table: typeof schema.runs | typeof schema.evaluations | typeof schema.matchedPairs) =>
      (await db.select({ n: count() }).from(table).limit(1))[0]!.n;
    const stored = `${await n(schema.runs)} / ${await n(schema.evaluations)} / ${await n(schema.matchedPairs)}`;
    return { stored, failures: exits.filter((e): e is string => e !== null) };
  }
  const stats = await mock.stats();
  const services = SHARDS === 1 ? serviceTimes(await mock.services(), traced) : undefined;
  const chain = services ? longestChain(traced, services.byKey) : undefined;
  const bound = bounds({
    wallMs,
    latencySumMs: stats.latencySumMs,
    concurrency: CONCURRENCY,
    chain,
    unmatched: services?.unmatched,
    seconds,
  });
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  const sizeMb = statSync(dbPath).size / 1e6;
  const estimatedChainMs = (Math.max(0, ...sequential.values()) + 1) * LATENCY_MS;

  const rows: [string, string][] = [
    ["runs stored / evaluations stored / pairs", summary.stored],
    ["failures", String(summary.failures.length)],
    ["requests at the stand-in (errors)", `${stats.requests} (${stats.errors})`],
    ["LLM calls (client)", SHARDS === 1 ? String(calls) : `(counted in the ${SHARDS} shard processes)`],
    ["peak / mean requests in flight", `${stats.maxInFlight} / ${(stats.latencySumMs / wallMs).toFixed(1)}`],
    ["wall time", seconds(wallMs)],
    ...bound.rows.map(([k, v]): [string, string] => [k, k === "wall / ideal" ? `${v} (target ≤ ${TARGET_RATIO}×)` : v]),
    [`former chain estimate: calls × ${LATENCY_MS} ms`, SHARDS === 1 ? seconds(estimatedChainMs) : "—"],
    [
      SHARDS === 1 ? "runner CPU time (all its threads)" : `runner CPU time (${SHARDS} shard processes)`,
      `${seconds(cpuMs)} (${((cpuMs / wallMs) * 100).toFixed(0)}% of wall${SHARDS === 1 ? `; ${((cpuMs / calls) * 1000).toFixed(0)} µs per client call, target ≤ ${TARGET_CPU_US}` : ""})`,
    ],
    ["calls per second", (stats.requests / (wallMs / 1000)).toFixed(1)],
    ["database size", `${sizeMb.toFixed(1)} MB`],
  ];
  const reportStarted = performance.now();
  const report = await buildBenchmarkReport(db, loaded);
  rows.push([
    `report build (${report.tables.length} tables, ${report.figures.length} figures)`,
    `${((performance.now() - reportStarted) / 1000).toFixed(2)} s (target < 10 s)`,
  ]);
  rows.push([
    "load average (1 min) at start / end",
    `${loadAtStart.toFixed(2)} / ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`,
  ]);
  await closeDatabase(db);
  await mock.close();
  mockClosed = true;
  const mockCpuMs = SHARDS === 1 ? childrenCpuMs() : (childrenCpuMs() ?? NaN) - cpuMs;
  if (mockCpuMs !== undefined)
    rows.push([
      "stand-in CPU time (its own process)",
      `${seconds(mockCpuMs)} (${((mockCpuMs / wallMs) * 100).toFixed(0)}% of wall)`,
    ]);
  for (const [k, v] of rows) console.log(`${k.padEnd(44)} ${v}`);
  console.log(bound.note);
  for (const f of summary.failures.slice(0, 5)) console.log(`failed ${f}`);
} finally {
  if (!mockClosed) await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
