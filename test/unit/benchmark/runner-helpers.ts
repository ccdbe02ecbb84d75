/**
 * Shared set-up for the benchmark runner tests: a catalogue of synthetic scenarios, a small plan, a configuration
 * naming the stand-in.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { syntheticCatalog } from "../../../bench/synthetic-bundle.ts";
import { BUNDLE_FORMAT, BUNDLE_VERSION } from "../../../app/domain/bundle.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { closeDatabase } from "../../../app/server/db-transaction.server.ts";
import { isPostgresUrl } from "../../../app/server/db-dialect.server.ts";
import pg from "pg";
import { loadPlanFile } from "../../../app/server/benchmark/plan-file.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { loadLlmConfig } from "../../../app/server/llm/config.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";

export const PARTY_MODEL = "bench-party";
export const MEDIATOR_MODEL = "bench-mediator";
export const JUDGE_MODEL = "bench-judge";
export const EMOTION_JUDGE_MODEL = "bench-emotion";

/** 2 scenarios × 3 conditions × 2 mediators (generic and social) × 2 runs, 6 party turns each. */
export const SMALL_PLAN = {
  name: "small test grid",
  scenarios: { ids: ["t-0", "t-1"] },
  conditions: { keys: ["general", "strategy:competing", "emotion:CR"] },
  mediators: [
    { name: "Generic", model: MEDIATOR_MODEL },
    { name: "Social", model: MEDIATOR_MODEL, mode: "social" },
  ],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 2,
  budget: 6,
};

/** The benchmark's roles on one stand-in endpoint; `prices` per model. */
export function benchmarkConfigJson(
  url: string,
  prices: Record<string, { inputPerMillion: number; outputPerMillion: number }> = {},
): object {
  return {
    endpoints: { mock: { baseUrl: url, maxRetries: 2, timeoutMs: 10_000, concurrency: 8 } },
    roles: {
      party: { endpoint: "mock", model: PARTY_MODEL, temperature: 0.7 },
      mediator: { endpoint: "mock", model: MEDIATOR_MODEL, temperature: 0.2 },
      evaluator: { endpoint: "mock", model: JUDGE_MODEL, temperature: 0 },
      "emotion-judge": { endpoint: "mock", model: EMOTION_JUDGE_MODEL, temperature: 0 },
    },
    prices,
  };
}

/**
 * A database file holding the synthetic catalogue `t-0`, `t-1` (every condition), and the plan and config files beside
 * it.
 */
export async function benchmarkFiles(
  dir: string,
  url: string,
  options: {
    plan?: object;
    prices?: Record<string, { inputPerMillion: number; outputPerMillion: number }>;
    name?: string;
    /** A database to use instead of a new SQLite file (a PostgreSQL URL). */
    target?: string;
  } = {},
) {
  const dbPath = options.target ?? join(dir, `${options.name ?? "bench"}.db`);
  const db = await openDatabase(dbPath);
  await importBundleFiles(db, [
    {
      file: "catalog",
      text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...syntheticCatalog(2, "t") }),
    },
  ]);
  await closeDatabase(db);
  const planPath = join(dir, "plan.json");
  writeFileSync(planPath, JSON.stringify(options.plan ?? SMALL_PLAN, null, 2));
  const configPath = join(dir, "socrates.config.json");
  writeFileSync(configPath, JSON.stringify(benchmarkConfigJson(url, options.prices)));
  return { dbPath, planPath, configPath };
}

export function count(dbPath: string, sql: string, ...params: unknown[]): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

export function column(dbPath: string, sql: string, ...params: unknown[]): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare(sql).all(...params) as Record<string, string>[]).map((r) => Object.values(r)[0]);
  } finally {
    db.close();
  }
}

/** The rows of a query on a database another process writes: a SQLite file (read-only) or a PostgreSQL URL. */
export async function rowsAt(target: string, query: string): Promise<Record<string, unknown>[]> {
  if (!isPostgresUrl(target)) {
    const db = new Database(target, { readonly: true });
    try {
      return db.prepare(query).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A plan's grid ready to run against a fresh stand-in over HTTP: the database, configuration and
 * plan files, an LLM client factory. `onCleanup` receives what to close, newest first at the end.
 */
export async function gridFixture(plan: object, onCleanup: (c: () => unknown) => void) {
  const { dir, cleanup } = tempDir();
  onCleanup(cleanup);
  const mock = await startMockLlm({ respond: standInResponder(), latencyMs: 0 });
  onCleanup(() => mock.close());
  const files = await benchmarkFiles(dir, mock.url, { plan });
  const db = await openDatabase(files.dbPath);
  onCleanup(() => db.$client.close());
  const config = loadLlmConfig(files.configPath);
  const loaded = loadPlanFile(files.planPath);
  const llm = () => createLlm({ db, config, sleep: async () => {} });
  return { dir, mock, files, db, config, loaded, llm };
}
