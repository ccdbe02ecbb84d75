/**
 * The test PostgreSQL server (harness/postgres.ts): a database per test, on a real server. Under
 * CI=true PostgreSQL must be there (.ci/run installs it); elsewhere these tests skip without it.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { pgDatabase } from "../../../harness/postgres.ts";

const skip = !process.env.SOCRATES_TEST_PG && process.env.CI !== "true";

describe.skipIf(skip)("the test PostgreSQL server", () => {
  it("gives each test an empty database of its own, dropped at the end", async () => {
    const a = await pgDatabase();
    const b = await pgDatabase();
    expect(a.url).not.toBe(b.url);
    const client = new pg.Client({ connectionString: a.url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT current_database() AS name, version() AS v");
      expect(rows[0].v).toMatch(/^PostgreSQL \d+/);
      const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    await a.drop();
    await b.drop();
  });
});
