/** `socrates probe` through the real CLI, against the stand-in over HTTP: dry run, real run, idempotent re-run. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { runCli, spawnCli } from "../../helpers/cli.ts";
import { tableCounts, tempDir } from "../../../harness/temp-db.ts";
import { chatCount, fixtureScenario, importScenario } from "./probe-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "probe.db");
  const db = await openDatabase(dbPath);
  await importScenario(db, fixtureScenario("valley", "Valley water [probe:none]"));
  db.$client.close();
  const mock = await startMockLlm({ respond: standInResponder() });
  cleanups.push(() => mock.close());
  const configPath = join(dir, "socrates.config.json");
  writeFileSync(configPath, JSON.stringify(mockConfigJson(mock.url)));
  const counts = async () => {
    const d = await openDatabase(dbPath);
    try {
      return await tableCounts(d);
    } finally {
      d.$client.close();
    }
  };
  return { mock, configPath, counts, env: { SOCRATES_DB: dbPath } };
}

// Each CLI start compiles TypeScript on the fly (a few seconds), so these tests get more time.
describe("socrates probe", { timeout: 120_000 }, () => {
  it("dry run, real run and an idempotent re-run", async () => {
    const t = await setup();
    const before = await t.counts();
    const dry = await spawnCli(["probe", "--scenario", "valley", "--config", t.configPath, "--dry-run"], t.env).exited;
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("valley: 14 to create (strategy:competing,");
    expect(dry.stdout).toContain("1 already stored");
    expect(dry.stdout).toContain("writer calls: 3");
    expect(await t.counts()).toEqual(before);
    expect(chatCount(t.mock)).toBe(0);

    const run = await spawnCli(["probe", "--scenario", "valley", "--config", t.configPath], t.env).exited;
    expect(run.stderr).toContain("probe 15/15");
    expect(run.stderr).toMatch(/ETA \d+s/);
    expect(run.stdout).toContain("created 14, already stored 1, rejected 0");
    expect(run.stdout).toContain("LLM calls: 3 made, 0 from cache");
    expect(run.code).toBe(0);
    expect((await t.counts()).conditions).toBe(15);

    const again = await spawnCli(["probe", "--all", "--conditions", "all", "--config", t.configPath], t.env).exited;
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      "nothing to do: all 15 requested conditions are already stored; nothing was changed",
    );
    expect(again.stdout).toContain("LLM calls: 0 made");
    expect(chatCount(t.mock)).toBe(3);
  });

  it("template axes need no configuration; writer axes name the missing one; bad input exits 2", async () => {
    const t = await setup();
    const missing = join(t.configPath, "..", "no-such.json");
    const templates = runCli(
      ["probe", "--scenario", "valley", "--conditions", "strategy,emotion", "--config", missing],
      t.env,
    );
    expect(templates.status).toBe(0);
    expect(templates.stdout).toContain("created 6, already stored 0, rejected 0");
    const writer = runCli(["probe", "--scenario", "valley", "--conditions", "three-party", "--config", missing], t.env);
    expect(writer.status).toBe(2);
    expect(writer.stderr).toContain("error: the parties and history conditions call the writer:");
    expect(runCli(["probe", "--scenario", "valley", "--conditions", "moods"], t.env).stderr).toContain(
      "--conditions: unknown axis moods",
    );
    expect(runCli(["probe", "--scenario", "nowhere"], t.env).stderr).toContain('unknown scenario "nowhere"');
    expect(runCli(["probe"], t.env).status).toBe(2);
    const help = runCli(["probe", "--help"], t.env);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--conditions <list>");
  });
});
