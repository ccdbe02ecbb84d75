/**
 * Imported ProMediate scenarios downstream: the scenario page's parts show all their topics and
 * parties with the provenance, and `socrates simulate` plays promediate-williams:general (five
 * parties) against the stand-in over real HTTP.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { ScenarioDetails } from "../../../app/components/ScenarioDetails.tsx";
import { ScenarioProvenance } from "../../../app/components/ScenarioProvenance.tsx";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { getScenario } from "../../../app/server/catalog.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { importPromediateCases } from "../../../app/server/promediate/import-cases.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { simulationConfigJson } from "../pipeline/helpers.ts";
import { CASES_DIR } from "./cases-dir.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function importedDb() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "p.db");
  const db = await openDatabase(dbPath);
  cleanups.push(() => db.$client.close());
  await importPromediateCases(db, CASES_DIR);
  return { db, dir, dbPath };
}

describe("imported ProMediate scenarios downstream", { timeout: 120_000 }, () => {
  it("show every topic and party on the scenario page, with where they came from", async () => {
    const { db } = await importedDb();
    for (const [id, topics, parties] of [
      ["promediate-hmo", 5, 3],
      ["promediate-flagship", 4, 6],
    ] as const) {
      const found = await getScenario(db, id);
      if (!found) throw new Error(`${id} missing`);
      const { scenario } = found;
      const html = renderToStaticMarkup(
        <>
          <ScenarioProvenance source={scenario.source} />
          <ScenarioDetails background={scenario.background} topics={scenario.topics} parties={scenario.parties} />
        </>,
      );
      expect(html.match(/<section class="topic">/g)).toHaveLength(topics);
      expect(html.match(/<section class="party-card party-\d">/g)).toHaveLength(parties);
      expect(html).toContain(`Imported from ProMediate&#x27;s <code>${id.replace("promediate-", "")}.json</code>`);
      expect(found.conditionCount).toBe(1);
    }
  });

  it("simulate runs promediate-williams:general with its five parties against the stand-in", async () => {
    const { dir, dbPath, db } = await importedDb();
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    const configPath = join(dir, "socrates.config.json");
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const args = ["simulate", "--condition", "promediate-williams:general", "--scenario", "promediate-williams"];
    const result = await runCliInProcess(
      [...args, "--mediator", "stand-in", "--runs", "1", "--budget", "10", "--config", configPath],
      { SOCRATES_DB: dbPath },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("runs: 2 stored");
    const runs = db.$client
      .prepare("SELECT id, party_order FROM runs WHERE condition_id = 'promediate-williams:general' ORDER BY id")
      .all() as { id: string; party_order: string }[];
    expect(runs).toHaveLength(2);
    for (const r of runs)
      expect(JSON.parse(r.party_order)).toEqual(["BRADLEY", "PATRICIA", "ROBERT", "STEWARD", "SUSAN"]);
    const speakers = db.$client
      .prepare("SELECT DISTINCT speaker FROM turns WHERE run_id = ? AND role = 'party' ORDER BY speaker")
      .all(runs[0].id) as { speaker: string }[];
    expect(speakers.length).toBeGreaterThanOrEqual(2);
    expect(speakers.every((s) => ["BRADLEY", "PATRICIA", "ROBERT", "STEWARD", "SUSAN"].includes(s.speaker))).toBe(true);
  });
});
