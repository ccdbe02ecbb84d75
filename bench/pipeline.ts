/**
 * How close the pipeline comes to keeping an endpoint busy. 200 simulations (100 matched pairs
 * of a mediated and an unmediated run, spread over the demo scenarios) and their topic-localized
 * and per-turn evaluations, against the mock LLM server (in its own process, latency uniform in
 * 300 ± 100 ms, seeded) with every role on one endpoint limited to 32 requests at once. Then the
 * same job again on the same database after deleting what the first one stored: the LLM cache
 * must answer every request. Figures only; it exits 0 whether or not the targets are met.
 *
 * The ideal wall time is the larger of two lower bounds: Σ latency / 32 (every slot busy from start
 * to end) and the longest dependent chain of calls (one run's turns one after another, then its
 * longest evaluation round by round), traced per run and weighed with the stand-in's recorded
 * service times — bench/dependent-chain.ts says exactly how. wall / ideal is the target's ratio.
 *
 *   npx tsx bench/pipeline.ts        (SCALE=0.1 for a quick look: 20 simulations)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inArray } from "drizzle-orm";
import * as schema from "../db/schema.ts";
import { openDatabase, type Db } from "../app/server/db.server.ts";
import { transact, closeDatabase } from "../app/server/db-transaction.server.ts";
import { seedDemo } from "../demo/seed.ts";
import { createLlm } from "../app/server/llm/client.server.ts";
import { parseLlmConfig, type LlmConfig } from "../app/server/llm/config.server.ts";
import { formatTable } from "../app/server/llm/usage.server.ts";
import { scenarioIds } from "../app/server/models/scenario.server.ts";
import { evaluateRuns, type EvaluateMethod } from "../app/server/pipeline/evaluate-runs.server.ts";
import { computeMetrics } from "../app/server/pipeline/metrics-runner.server.ts";
import { simulateBatch } from "../app/server/pipeline/simulate.server.ts";
import { createProgress } from "../scripts/progress.ts";
import { mockConfigJson } from "../app/server/llm/stand-in/config.server.ts";
import { bounds, longestChain, serviceTimes, tracedLlm, type TracedCall } from "./dependent-chain.ts";
import { startMockProcess } from "./mock-llm-client.ts";
import type { Llm } from "../app/domain/llm/types.ts";

const SCALE = Number(process.env.SCALE ?? 1);
if (!(SCALE > 0)) {
  console.error(`SCALE must be a number above 0 (e.g. 0.1), got "${process.env.SCALE}"`);
  process.exit(2);
}
const PAIRS = Math.max(1, Math.round(100 * SCALE));
const CONCURRENCY = 32;
const LATENCY = { min: 200, max: 400 };
const MEDIATOR_MODEL = "bench-mediator";
const METHODS: EvaluateMethod[] = ["topic", "per-turn"];
const TARGET_RATIO = 1.25;

// ---------- the job ----------

interface JobFigures {
  wallMs: number;
  /** llm.call invocations, and how many the cache (or an identical request in flight) answered. */
  calls: number;
  cached: number;
  failedCalls: number;
  runsStored: string[];
  runsFailed: number;
  evaluationsStored: number;
  evaluationsFailed: number;
}

/** Pairs per demo scenario, as even as the count allows. */
function spread(scenarioIds: string[], pairs: number): { scenarioId: string; runs: number }[] {
  return scenarioIds
    .map((scenarioId, i) => ({
      scenarioId,
      runs: Math.floor(pairs / scenarioIds.length) + (i < pairs % scenarioIds.length ? 1 : 0),
    }))
    .filter((b) => b.runs > 0);
}

/**
 * Simulates every batch at once and evaluates each run the moment it is stored, so the judges'
 * calls fill the endpoint while the last, longest simulations are still talking. Every run of a
 * batch is in flight at once: the endpoint's limit of 32, not the batch, decides what waits.
 */
async function runJob(
  db: Db,
  config: LlmConfig,
  batches: { scenarioId: string; runs: number }[],
  wrap: (llm: Llm) => Llm = (llm) => llm,
): Promise<JobFigures> {
  const figures: JobFigures = {
    wallMs: 0,
    calls: 0,
    cached: 0,
    failedCalls: 0,
    runsStored: [],
    runsFailed: 0,
    evaluationsStored: 0,
    evaluationsFailed: 0,
  };
  // A fresh client per job: nothing carries over in memory, only the database's cache.
  const llm = wrap(
    createLlm({
      db,
      config,
      onCall: (e) => {
        figures.calls++;
        if (e.cached) figures.cached++;
        if (!e.ok) figures.failedCalls++;
      },
    }),
  );
  const totalRuns = batches.reduce((n, b) => n + 2 * b.runs, 0);
  const progress = createProgress("simulate + evaluate", totalRuns * (1 + METHODS.length));
  const evaluations: Promise<void>[] = [];

  const evaluate = async (runId: string, method: EvaluateMethod) => {
    const summary = await evaluateRuns(db, { llm, method, runIds: [runId] });
    for (const r of summary.runs) {
      if (r.status === "stored") {
        figures.evaluationsStored++;
        progress.tick(`${method} ${runId}`);
      } else {
        figures.evaluationsFailed++;
        progress.fail(`${method} ${runId}: ${r.status === "failed" ? r.message : r.status}`);
      }
    }
  };

  const started = performance.now();
  await Promise.all(
    batches.map((batch) =>
      simulateBatch({
        db,
        llm,
        scenarioId: batch.scenarioId,
        mediator: MEDIATOR_MODEL,
        runs: batch.runs,
        concurrency: 2 * batch.runs,
        onProgress: (e) => {
          if (e.type === "stored") {
            figures.runsStored.push(e.runId);
            progress.tick(`simulated ${e.runId}`);
            for (const method of METHODS) evaluations.push(evaluate(e.runId, method));
          } else if (e.type === "failed" || e.type === "aborted") {
            figures.runsFailed++;
            progress.fail(`${e.runId}: ${e.type === "failed" ? e.reason : "aborted"}`);
          } else {
            progress.fail(`${e.runId}: already stored (the database was not clean)`);
          }
        },
      }),
    ),
  );
  await Promise.all(evaluations);
  figures.wallMs = performance.now() - started;
  progress.done();
  return figures;
}

/**
 * The same chain counted from the stored runs (a cross-check of the traced one): a run's party
 * turns, mediator decisions and mediator turns are each a reply to what came before, then its
 * per-turn evaluation needs two rounds (attitudes, then agreement; the topic judge runs beside them).
 */
async function storedChain(db: Db, runIds: string[]): Promise<{ runId: string; calls: number }> {
  let best = { runId: "", calls: 0 };
  for (let i = 0; i < runIds.length; i += 500) {
    const rows = await db
      .select({ id: schema.runs.id, total: schema.runs.totalTurns, decisions: schema.runs.mediatorDecisions })
      .from(schema.runs)
      .where(inArray(schema.runs.id, runIds.slice(i, i + 500)));
    for (const r of rows) {
      const calls = r.total + (r.decisions?.length ?? 0) + 2;
      if (calls > best.calls) best = { runId: r.id, calls };
    }
  }
  return best;
}

/** Deletes the job's runs with everything hanging off them, so the rerun simulates and evaluates them again. */
async function deleteRuns(db: Db, runIds: string[]): Promise<void> {
  await transact(db, async (db) => {
    for (let i = 0; i < runIds.length; i += 500) {
      const ids = runIds.slice(i, i + 500);
      const pairs = (
        await db
          .select({ id: schema.matchedPairs.id })
          .from(schema.matchedPairs)
          .where(inArray(schema.matchedPairs.mediatedRunId, ids))
      ).map((p) => p.id);
      await db.delete(schema.metricValues).where(inArray(schema.metricValues.subjectId, [...ids, ...pairs]));
      await db.delete(schema.matchedPairs).where(inArray(schema.matchedPairs.mediatedRunId, ids));
      await db.delete(schema.matchedPairs).where(inArray(schema.matchedPairs.unmediatedRunId, ids));
    }
    // Turns, evaluations, their scores, snippets and MI judgments go with their run (ON DELETE CASCADE).
    for (let i = 0; i < runIds.length; i += 500)
      await db.delete(schema.runs).where(inArray(schema.runs.id, runIds.slice(i, i + 500)));
  });
}

// ---------- main ----------

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-pipeline-"));
const mock = await startMockProcess(LATENCY);
try {
  const db = await openDatabase(join(dir, "bench.db"));
  await seedDemo(db);
  const config = parseLlmConfig(
    mockConfigJson(mock.url, { endpoint: { concurrency: CONCURRENCY, timeoutMs: 60_000 } }),
    "bench config",
  );
  const batches = spread(await scenarioIds(db), PAIRS);
  console.log(
    `${2 * PAIRS} simulations (${PAIRS} matched pairs over ${batches.length} demo scenarios, mediator "${MEDIATOR_MODEL}") + ${METHODS.join(" and ")} evaluations; ` +
      `mock latency uniform ${LATENCY.min}–${LATENCY.max} ms; endpoint concurrency ${CONCURRENCY}`,
  );

  await Promise.all([mock.stats(), mock.services()]); // start counting from here
  let traced: TracedCall[] = [];
  const first = await runJob(db, config, batches, (llm) => {
    const t = tracedLlm(llm, config);
    traced = t.calls;
    return t.llm;
  });
  const firstMock = await mock.stats();
  const services = serviceTimes(await mock.services(), traced);
  const chain = longestChain(traced, services.byKey);
  const metricsStarted = performance.now();
  const metrics = await computeMetrics(db);
  const metricsMs = performance.now() - metricsStarted;

  const meanLatency = firstMock.requests > 0 ? firstMock.latencySumMs / firstMock.requests : 0;
  const bound = bounds({
    wallMs: first.wallMs,
    latencySumMs: firstMock.latencySumMs,
    concurrency: CONCURRENCY,
    chain,
    unmatched: services.unmatched,
    seconds,
  });
  const ratio = first.wallMs / bound.idealMs;
  const counted = await storedChain(db, first.runsStored);

  await deleteRuns(db, first.runsStored);
  const rerun = await runJob(db, config, batches);
  const rerunMock = await mock.stats();
  const hitRate = rerun.calls > 0 ? rerun.cached / rerun.calls : 0;

  console.log("");
  console.log(
    formatTable(
      ["figure", "first run", "rerun"],
      [
        [
          "simulations stored",
          `${first.runsStored.length} (${first.runsFailed} failed)`,
          `${rerun.runsStored.length} (${rerun.runsFailed} failed)`,
        ],
        [
          "evaluations stored",
          `${first.evaluationsStored} (${first.evaluationsFailed} failed)`,
          `${rerun.evaluationsStored} (${rerun.evaluationsFailed} failed)`,
        ],
        ["wall time", seconds(first.wallMs), seconds(rerun.wallMs)],
        ["LLM calls (client)", first.calls, rerun.calls],
        ["  answered from cache", first.cached, rerun.cached],
        ["  failed", first.failedCalls, rerun.failedCalls],
        ["HTTP requests (mock)", firstMock.requests, rerunMock.requests],
        ["  not HTTP 200", firstMock.errors, rerunMock.errors],
        ["sum of latencies (mock)", seconds(firstMock.latencySumMs), seconds(rerunMock.latencySumMs)],
        ["mean latency", `${meanLatency.toFixed(0)} ms`, "—"],
        ["most requests in flight", firstMock.maxInFlight, "—"],
        ...bound.rows.map(([figure, value]) => [figure, value, "—"]),
        [
          "LLM calls per second",
          (first.calls / (first.wallMs / 1000)).toFixed(1),
          (rerun.calls / (rerun.wallMs / 1000)).toFixed(1),
        ],
        ["HTTP requests per second", (firstMock.requests / (first.wallMs / 1000)).toFixed(1), "—"],
        [
          "cache hit rate",
          `${((first.cached / Math.max(1, first.calls)) * 100).toFixed(1)}%`,
          `${(hitRate * 100).toFixed(1)}%`,
        ],
      ],
    ),
  );
  console.log("");
  console.log(
    `No schedule beats Σ latency / ${CONCURRENCY} (all ${CONCURRENCY} slots busy from start to end) nor the longest dependent chain ` +
      `(a run's calls one after another, then its evaluation's rounds; the stand-in's service times only, not client overhead), ` +
      `so the ideal is the larger. ${bound.note} Counted from the stored runs instead, the longest run needs ${counted.calls} calls ` +
      `(${counted.runId}: turns + mediator decisions + 2 evaluation rounds) ≈ ${seconds(counted.calls * meanLatency)} at the mean latency.`,
  );
  console.log(
    "Cache hits on the first run are requests made twice within the job: a mediated run and its unmediated twin share a seed, " +
      "so they say the same things until the mediator first speaks, and their per-turn evaluations share those turns.",
  );
  console.log(
    `Metrics for every run and pair (no LLM calls): ${metrics.rows.length} values in ${metricsMs.toFixed(0)} ms.`,
  );
  console.log("");
  console.log(
    formatTable(
      ["target", "value", "result"],
      [
        [`wall / ideal ≤ ${TARGET_RATIO}`, `${ratio.toFixed(2)}×`, verdict(ratio <= TARGET_RATIO)],
        ["HTTP requests on the rerun = 0", rerunMock.requests, verdict(rerunMock.requests === 0)],
        [
          "cache hit rate on the rerun = 100%",
          `${(hitRate * 100).toFixed(1)}%`,
          verdict(rerun.calls > 0 && rerun.cached === rerun.calls),
        ],
      ],
    ),
  );
  await closeDatabase(db);
} finally {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
}
