import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { postgresAvailable } from "./harness/postgres.ts";
import { sharedWorkerTests } from "./harness/test-isolation.ts";

// The PostgreSQL half runs wherever PostgreSQL is installed, and always under CI (a missing server is a failure there).
const withPostgres = postgresAvailable() || process.env.CI === "true";

/**
 * The test files that run a second time with every database on PostgreSQL (SOCRATES_TEST_ENGINE=postgres:
 * harness/temp-db.ts then hands out PostgreSQL databases): a representative half of the database-touching
 * tests. Tests that read the SQLite file itself (its pages, its write-ahead log, raw statements) stay SQLite-only.
 */
const POSTGRES_HALF = [
  "test/unit/db/transact.test.ts",
  "test/unit/bundle-import.test.ts",
  "test/unit/bundle-constraints.test.ts",
  "test/unit/admin/dashboard-flags.test.ts",
  "test/unit/annotation/label-store.test.ts",
  "test/unit/annotation/my-labels.test.ts",
  "test/unit/annotation/fast-labels.test.ts",
  "test/unit/annotation/label-comment.test.ts",
  "test/unit/annotation/ab-proxy.test.ts",
  "test/unit/session-read.test.ts",
  "test/unit/crowd/dashboard-actions.test.ts",
  "test/unit/crowd/qualification-key-hidden.test.ts",
  "test/unit/crowd/workers.test.ts",
  "test/unit/pipeline/evaluate-topic.test.ts",
  "test/unit/probing/probe.test.ts",
  "test/unit/curation/curate-seed.test.ts",
  "test/unit/validation/scored-backbones.test.ts",
  "test/unit/run-emotion-view.test.ts",
  "test/unit/benchmark/workers.test.ts",
  "test/e2e/two-servers.test.ts",
  "test/unit/llm/llm-call.test.ts",
  "test/unit/benchmark/work-leases.test.ts",
  "test/unit/benchmark/status-engines.test.ts",
  "test/unit/db/transact-retry.test.ts",
  "test/unit/crowd/mturk-import-retry.test.ts",
  "test/unit/annotation/next-page.test.ts",
];

/** Unit test files that touch nothing process-wide: they share one worker thread (harness/test-isolation.ts). */
const SHARED = sharedWorkerTests("test/unit");

// Kept apart from vite.config.ts so the Remix plugin never loads under test.
export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // expect.poll waits for the app to catch up (a draft posted in the background, a page that
    // re-renders); 1 s, the default, is too short on a loaded 2-core CI machine. A wait, not a timing target.
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    // The "shared" project's files run one after another in one thread that stays: a pool of its own beside the
    // forks. Measured on 2 cores, the suite took 454 s so, 557 s with two such threads (they crowded the browser
    // tests) and 593 s with a process per file.
    poolOptions: { threads: { isolate: false, maxThreads: 1, minThreads: 1 } },
    // Vitest's default is one worker fewer than the cores: one on our 2-core machines, so every file waited for
    // the last. Browser and server tests spend most of their time waiting on Chromium and the server (processes
    // of their own), so two files at a time keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ["default", "./test/plain-summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: [...configDefaults.exclude, ...SHARED],
        },
      },
      { extends: true, test: { name: "shared", include: SHARED, pool: "threads" } },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: [...POSTGRES_HALF],
                env: { SOCRATES_TEST_ENGINE: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
