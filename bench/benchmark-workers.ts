/**
 * `socrates benchmark run` in WORKERS processes (default 1) on one database, on SQLite or on
 * PostgreSQL (ENGINE=postgres: a throwaway server, harness/postgres.ts, or TEST_DATABASE_URL's),
 * against the stand-in in its own process (5–40 ms latency, 8 requests at once): the grid of
 * test/unit/benchmark/workers.test.ts, one scenario × two conditions × two mediators × two runs
 * (12 runs). Each of ROUNDS rounds (default 3) starts from a fresh database. Prints every round's
 * wall time, from the processes' start to the last one's exit, and the median. Figures only.
 *
 *   npx tsx bench/benchmark-workers.ts          (ENGINE=postgres WORKERS=3 ROUNDS=5)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUNDLE_FORMAT, BUNDLE_VERSION } from "../app/domain/bundle.ts";
import { importBundleFiles } from "../app/server/bundle-store.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { mockConfigJson } from "../app/server/llm/stand-in/config.server.ts";
import { pgDatabase, prepareTemplate, startTestServer } from "../harness/postgres.ts";
import { startMockProcess } from "./mock-llm-client.ts";
import { syntheticCatalog } from "./synthetic-bundle.ts";

const ENGINE = process.env.ENGINE ?? "sqlite";
const WORKERS = Number(process.env.WORKERS ?? 1);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
if (!["sqlite", "postgres"].includes(ENGINE) || !(WORKERS >= 1) || !(ROUNDS >= 1)) {
  console.error("ENGINE must be sqlite or postgres; WORKERS and ROUNDS at least 1");
  process.exit(2);
}

const PLAN = {
  name: "workers bench",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general", "emotion:CR"] },
  mediators: [
    { name: "Generic", model: "bench-mediator" },
    { name: "Social", model: "bench-mediator", mode: "social" },
  ],
  simulator: { model: "bench-party" },
  evaluator: { model: "bench-judge" },
  runs: 2,
  budget: 6,
};

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-workers-"));
const server = ENGINE === "postgres" ? startTestServer() : undefined;
const mock = await startMockProcess({ min: 5, max: 40 });

/** A fresh database holding the synthetic catalogue (a SQLite file, or a PostgreSQL URL), and its removal. */
async function freshDatabase(round: number): Promise<{ target: string; drop: () => Promise<void> }> {
  const file = join(dir, `round-${round}.db`);
  const { url: target, drop } = server
    ? await pgDatabase({ migrated: true })
    : { url: file, drop: async () => rmSync(file, { force: true }) };
  const db = await openDatabase(target);
  const catalog = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...syntheticCatalog(2, "t") };
  await importBundleFiles(db, [{ file: "catalog", text: JSON.stringify(catalog) }]);
  await closeDatabase(db);
  return { target, drop };
}

/** One `benchmark run` process; resolves with its exit code and the end of its error output. */
function worker(args: string[], target: string): Promise<{ code: number | null; stderr: string }> {
  const cli = resolve(import.meta.dirname, "../scripts/socrates.mjs");
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, SOCRATES_DB: target },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  return new Promise((ok) => child.on("close", (code) => ok({ code, stderr })));
}

try {
  if (server) {
    process.env.SOCRATES_TEST_PG = server.url;
    await prepareTemplate(server.url);
  }
  const planPath = join(dir, "plan.json");
  writeFileSync(planPath, JSON.stringify(PLAN));
  const configPath = join(dir, "socrates.config.json");
  writeFileSync(configPath, JSON.stringify(mockConfigJson(mock.url, { endpoint: { concurrency: 8 } })));
  const args = ["benchmark", "run", "--plan", planPath, "--config", configPath];
  console.log(`# benchmark run: ${WORKERS} process(es) on one ${ENGINE} database, 12 runs, stand-in 5–40 ms`);
  const walls: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const { target, drop } = await freshDatabase(round);
    const started = performance.now();
    const exits = await Promise.all(Array.from({ length: WORKERS }, () => worker(args, target)));
    walls.push(performance.now() - started);
    await drop();
    const failed = exits.find((e) => e.code !== 0);
    if (failed) throw new Error(`a worker exited ${failed.code}: ${failed.stderr.trim().split("\n").at(-1)}`);
    console.log(`round ${round}: ${(walls.at(-1)! / 1000).toFixed(2)} s`);
  }
  const median = [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)];
  console.log(`median ${(median / 1000).toFixed(2)} s; load average ${loadavg()[0].toFixed(1)}`);
} finally {
  await mock.close();
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
