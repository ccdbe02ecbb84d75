/**
 * `/scenarios` shows each scenario's true number of runs: the page, read over HTTP from the real
 * server on the seeded demo database, against a plain SQL count per scenario on the same file.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { DEMO, loginCookie } from "../../harness/login.ts";

/** Scenario id → the Runs cell of its row (the last cell), from the page's table. */
function runsColumn(html: string): Record<string, number> {
  const table = html.slice(html.indexOf("<tbody>"), html.indexOf("</tbody>"));
  const rows = table.split("<tr").slice(1);
  return Object.fromEntries(
    rows.map((row) => {
      const id = decodeURIComponent(/href="\/scenarios\/([^"]+)"/.exec(row)![1]);
      const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
      return [id, Number(cells.at(-1))];
    }),
  );
}

describe("the scenario list's run counts", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("matches a SQL count of runs per scenario, for every scenario", async () => {
    const cookie = await loginCookie(server.url, DEMO.admin);
    const res = await fetch(`${server.url}/scenarios`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const shown = runsColumn(await res.text());

    const db = new Database(server.dbPath, { readonly: true });
    // Through each run's condition (not the denormalised runs.scenario_id the page's query joins on).
    const rows = db
      .prepare(
        `SELECT s.id AS id, (SELECT count(*) FROM runs r JOIN conditions c ON c.id = r.condition_id WHERE c.scenario_id = s.id) AS n FROM scenarios s`,
      )
      .all() as { id: string; n: number }[];
    db.close();
    const counted = Object.fromEntries(rows.map((r) => [r.id, r.n]));

    expect(Object.keys(counted).length).toBeGreaterThan(1);
    expect(Object.values(counted).some((n) => n > 0)).toBe(true);
    expect(shown).toEqual(counted);
  });
});
