/**
 * `socrates curate` end to end, in a child process over real HTTP against the stand-in endpoint:
 * seeds from a folder of reports, candidates written, rejected (invalid, or resolved on a replay)
 * and accepted with their unmediated replays stored as runs; a second run asks nothing; a run
 * killed mid-way and restarted asks no question twice and stores no scenario twice.
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import { startSearchServer } from "../../../app/server/llm/stand-in/search.server.ts";
import { startMockLlm, type Responder } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { duplicates, servedBodies } from "../pipeline/helpers.ts";
import { writeSeedFolder } from "./curate-helpers.ts";
import { spawnCli as startCli, until } from "../../helpers/cli.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DOMAINS = ["healthcare", "legal"] as const;
const WEB_DOMAINS = ["transactional", "legal"] as const;

/** The stand-in answering the searcher, the writer and the parties. */
const standIn: Responder = standInResponder({ roles: ["searcher", "writer", ...SIMULATION_ROLES] });

async function setup(options: { prices?: boolean; source?: "files" | "searxng"; domains?: readonly string[] } = {}) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "curate.db");
  (await openDatabase(dbPath)).$client.close(); // migrated
  const seedsDir = join(dir, "seeds");
  writeSeedFolder(seedsDir, [...DOMAINS], 12, {
    "healthcare/2": "[writer:equal-weights-stubborn]",
    "legal/1": "[writer:weights-sum-9]",
    "legal/2": "[writer:stance-off-options]",
  });
  const mock = await startMockLlm({ respond: standIn });
  cleanups.push(() => mock.close());
  const search = await startSearchServer();
  cleanups.push(() => search.close());
  // The stand-in is on 127.0.0.1: listed like a lab's own search instance.
  const searxng = {
    kind: "search-tools",
    backend: "searxng",
    url: search.url,
    allowPrivateHosts: [new URL(search.url).host],
  };
  const source = options.source === "searxng" ? searxng : { kind: "files", dir: seedsDir };
  const configPath = join(dir, "socrates.config.json");
  const price = { "mock-model": { inputPerMillion: 100, outputPerMillion: 100 } };
  writeFileSync(
    configPath,
    JSON.stringify({ ...mockConfigJson(mock.url, options.prices ? { prices: price } : {}), curation: { source } }),
  );
  const reader = new Database(dbPath, { readonly: true });
  cleanups.push(() => reader.close());
  const all = <T>(sql: string, ...params: unknown[]) => reader.prepare(sql).all(...params) as T[];
  const args = [
    "curate",
    "--domains",
    (options.domains ?? DOMAINS).join(","),
    "--per-domain",
    "2",
    "--config",
    configPath,
  ];
  const run = (extra: string[] = []) => {
    const child = startCli([...args, ...extra], { SOCRATES_DB: dbPath });
    cleanups.push(child.kill);
    return child;
  };
  return { dir, dbPath, seedsDir, mock, search, reader, all, run };
}

interface CandidateRow {
  seed_id: string;
  domain: string;
  status: string;
  rejection: string | null;
  reason: string | null;
  replays: string;
  scenario_id: string | null;
}

function checkStored(t: Awaited<ReturnType<typeof setup>>) {
  const candidates = t.all<CandidateRow>("SELECT * FROM curation_candidates ORDER BY id");
  const seeds = t.all<{ id: string; domain: string }>("SELECT id, domain FROM seeds");
  for (const d of new Set(candidates.map((c) => c.domain)))
    expect(candidates.filter((c) => c.domain === d && c.status === "accepted")).toHaveLength(2);
  expect(new Set(candidates.map((c) => c.domain)).size).toBe(2);
  // Every seed found became exactly one candidate.
  expect(candidates.map((c) => c.seed_id).sort()).toEqual(seeds.map((s) => s.id).sort());
  const curated = t.all<{ id: string }>("SELECT id FROM scenarios WHERE json_extract(source, '$.kind') = 'curated'");
  expect(curated.map((s) => s.id).sort()).toEqual(
    candidates
      .filter((c) => c.status === "accepted")
      .map((c) => c.scenario_id)
      .sort(),
  );
  for (const c of candidates.filter((c) => c.status === "accepted")) {
    const replays = JSON.parse(c.replays) as { replay: number; outcome: string; runId: string }[];
    expect(replays.map((r) => r.replay)).toEqual([1, 2, 3]);
    const runs = t.all<{ id: string; outcome: string; mediated: number }>(
      "SELECT r.id, r.outcome, r.mediated FROM runs r JOIN conditions c ON c.id = r.condition_id WHERE c.scenario_id = ? AND c.axis = 'general'",
      c.scenario_id,
    );
    expect(runs.map((r) => r.id).sort()).toEqual(replays.map((r) => r.runId).sort());
    expect(runs.every((r) => r.mediated === 0 && r.outcome !== "resolved")).toBe(true);
  }
  return { candidates, seeds };
}

describe("socrates curate", { timeout: 240_000 }, () => {
  it("curates 2 domains × 2 scenarios from a seed folder, records rejections with their reasons, and asks nothing on a second run", async () => {
    const t = await setup();
    const first = await t.run().exited;
    expect(first.code, first.stderr).toBe(0);
    const { candidates } = checkStored(t);
    const resolved = candidates.filter((c) => c.rejection === "resolved");
    expect(resolved.length).toBeGreaterThan(0);
    for (const c of resolved) expect(c.reason).toMatch(/^resolved on replay [123]$/);
    const invalid = candidates.filter((c) => c.rejection === "invalid");
    expect(invalid).toHaveLength(1);
    expect(invalid[0].reason).toBe(
      "weights after one repair: rule weights-not-all-equal: FIRST_SIDE's weights are all 5; they must set a priority order; rule weights-not-all-equal: SECOND_SIDE's weights are all 5; they must set a priority order",
    );
    // Seeds whose writer reply broke a rule once were repaired, not rejected.
    const repairedSeeds = t.all<{ id: string }>(
      "SELECT id FROM seeds WHERE title LIKE '%weights-sum-9%' OR title LIKE '%stance-off-options%'",
    );
    for (const s of repairedSeeds) expect(candidates.find((c) => c.seed_id === s.id)?.rejection).not.toBe("invalid");

    // Progress per domain, with cost and ETA, and the closing summary.
    expect(first.stderr).toMatch(/curate healthcare: 2\/2 accepted, \d+ candidates; cost \$0\.0000; ETA /);
    for (const d of DOMAINS) {
      const own = candidates.filter((c) => c.domain === d);
      const rate = `${Math.round((2 / own.length) * 100)}%`;
      expect(first.stdout).toContain(
        `${d}: seeds ${own.length}, candidates ${own.length}, accepted 2, rejected (invalid scenario: ${own.filter((c) => c.rejection === "invalid").length}`,
      );
      expect(first.stdout).toContain(`acceptance rate ${rate}`);
    }
    expect(first.stdout).toMatch(/resolved on replay \d/);

    const before = t.mock.requests.length;
    const second = await t.run().exited;
    expect(second.code, second.stderr).toBe(0);
    expect(t.mock.requests.length).toBe(before);
    expect(second.stdout).toContain("LLM calls: 0 made, 0 from cache");
    expect(t.all("SELECT id FROM curation_candidates")).toHaveLength(candidates.length);
  });

  it("curates 2 domains × 2 scenarios from web search through a SearXNG-style server, and asks nothing on a second run", async () => {
    // The stand-in search server knows four disputes a domain; the stand-in's outcomes are a
    // function of the prompts, and in these two domains two of the four are accepted.
    const t = await setup({ source: "searxng", domains: WEB_DOMAINS });
    const first = await t.run().exited;
    expect(first.code, first.stderr).toBe(0);
    const { candidates } = checkStored(t);
    expect(t.search.requests.some((r) => r.path === "/search" && r.query.format === "json")).toBe(true);
    const seeds = t.all<{ source_kind: string; sources: string }>("SELECT source_kind, sources FROM seeds");
    for (const s of seeds) {
      expect(s.source_kind).toBe("search-tools");
      expect(JSON.parse(s.sources)[0].url).toContain(t.search.url);
    }
    const rejected = candidates.filter((c) => c.status === "rejected");
    expect(rejected.length).toBeGreaterThan(0);
    for (const c of rejected) expect(c.reason).toMatch(/^resolved on replay [123]$|after one repair: rule /);

    const llmBefore = t.mock.requests.length;
    const searchBefore = t.search.requests.length;
    const second = await t.run().exited;
    expect(second.code, second.stderr).toBe(0);
    expect(t.mock.requests.length).toBe(llmBefore);
    expect(t.search.requests.length).toBe(searchBefore);
  });

  it("finishes after a kill -9 mid-curation with no question asked twice and no scenario stored twice", async () => {
    const t = await setup();
    const recorded = () =>
      (t.reader.prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'").get() as { n: number }).n;
    const first = t.run();
    // Kill once some candidates are recorded and more are under way; freeze the endpoint first
    // so every reply it sent is recorded (a reply lost in transit would rightly be asked again).
    await until(
      () => t.all("SELECT id FROM curation_candidates").length >= 2 && recorded() > 0,
      "two candidates recorded",
    );
    t.mock.setFaults([{ fault: { kind: "slow", delayMs: 3_000 }, times: 1_000_000 }]);
    await until(
      () => t.mock.requests.some((r) => r.status === undefined && r.fault === "slow"),
      "a request in flight at the kill",
    );
    await until(() => recorded() === servedBodies(t.mock).length, "the child to record every reply");
    process.kill(first.pid, "SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const accepted = t.all("SELECT id FROM curation_candidates WHERE status = 'accepted'").length;
    expect(accepted).toBeLessThan(4);

    t.mock.setFaults([]);
    const second = await t.run().exited;
    expect(second.code, second.stderr).toBe(0);
    checkStored(t);
    expect(duplicates(servedBodies(t.mock))).toEqual([]);
    const scenarios = t.all<{ id: string }>("SELECT id FROM scenarios");
    expect(new Set(scenarios.map((s) => s.id)).size).toBe(scenarios.length);
  });

  it("stops cleanly at the cost cap and continues from there on the next run", async () => {
    const t = await setup({ prices: true });
    const capped = await t.run(["--max-cost", "1"]).exited;
    expect(capped.code, capped.stderr).toBe(0);
    // The call that crossed the cap is the last one: at most one call's cost over it.
    const spent = Number(/stopped at the cost cap \(\$(\d+\.\d+) of \$1\.00\)/.exec(capped.stdout)?.[1]);
    expect(spent).toBeGreaterThanOrEqual(1);
    expect(spent).toBeLessThan(1.5);
    // The cap counts one command's new calls: the printed command, every option as given, goes on.
    expect(capped.stdout).toContain(
      `resume with: SOCRATES_DB=${t.dbPath} npx socrates curate --domains ${DOMAINS.join(",")} --per-domain 2 --max-cost 1 --config ${join(t.dir, "socrates.config.json")}\n`,
    );
    expect(t.all("SELECT id FROM curation_candidates WHERE status = 'accepted'").length).toBeLessThan(4);
    const done = await t.run().exited;
    expect(done.code, done.stderr).toBe(0);
    checkStored(t);
    expect(duplicates(servedBodies(t.mock))).toEqual([]);
  });

  it("--dry-run says what each domain still needs and calls nothing; bad options exit 2", async () => {
    const t = await setup();
    const dry = await t.run(["--dry-run"]).exited;
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("healthcare: 0/2 accepted, 2 still wanted");
    expect(t.mock.requests).toHaveLength(0);
    const bad = await t.run(["--domains", "sports"]).exited;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown domain sports");
    const help = await startCli(["curate", "--help"], {}).exited;
    expect(help.stdout).toContain("--max-cost <usd>");
  });
});
