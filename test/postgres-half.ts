/**
 * The test files that run a second time with every database on PostgreSQL (vitest.config.ts's
 * `postgres` project, SOCRATES_TEST_ENGINE=postgres: harness/temp-db.ts then hands out PostgreSQL
 * databases). A representative half of the database-touching tests: allocation and labels, the
 * crowd channels' imports, bundles, the benchmark's leases and stored runs, the dashboards. Tests
 * that read the SQLite file itself (its pages, its write-ahead log, raw statements) stay SQLite-only.
 */
export const POSTGRES_HALF = ["test/unit/bundle-import.test.ts"];
