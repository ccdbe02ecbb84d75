/**
 * A batch killed mid-way (SIGKILL of the real CLI process) and restarted: no run is stored twice
 * or half, and no request is answered twice by the endpoint — the runs stored before the kill are
 * skipped and the interrupted ones replay their earlier calls from the LLM cache.
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { spawnCli, until, type CliChild } from "../../helpers/cli.ts";
import {
  chatRequests,
  duplicates,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  servedBodies,
  simulationConfigJson,
  slotOf,
} from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The real CLI in a child process, killed at the end of the test if still running. */
function startCli(args: string[], env: Record<string, string>): CliChild {
  const child = spawnCli(args, env);
  cleanups.push(child.kill);
  return child;
}

// Three CLI processes, each compiling TypeScript on start: more time than the default.
describe("restarting a killed simulate batch", { timeout: 120_000 }, () => {
  it("stores every run once and asks the endpoint each question once", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dbPath = join(dir, "bench.db");
    const seeded = await openDatabase(dbPath);
    await seedDemo(seeded);
    seeded.$client.close();

    // Two injected server errors early on: retried by the client, so answered once each in the end.
    const mock = await startMockLlm({
      respond: standInResponder({ roles: SIMULATION_ROLES }),
      latencyMs: 5,
      faults: [{ fault: { kind: "5xx", status: 503 }, times: 2, fromRequest: 3 }],
    });
    cleanups.push(() => mock.close());
    const configPath = join(dir, "socrates.config.json");
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const args = [
      "simulate",
      "--scenario",
      "demo-transactional-1",
      "--mediator",
      MEDIATOR_MODEL,
      "--runs",
      "2",
      "--budget",
      "10",
      "--concurrency",
      "2",
      "--config",
      configPath,
    ];
    const env = { SOCRATES_DB: dbPath };

    const reader = new Database(dbPath, { readonly: true });
    cleanups.push(() => reader.close());
    const storedRuns = () =>
      (
        reader.prepare("SELECT id FROM runs WHERE simulator_backbone = ? ORDER BY id").all(PARTY_MODEL) as {
          id: string;
        }[]
      ).map((r) => r.id);

    const recordedReplies = () =>
      (reader.prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'").get() as { n: number }).n;

    // First attempt: once a run is stored, freeze the endpoint (new requests hang), wait until the
    // child has recorded every reply it was sent, then kill the process outright. (A reply killed
    // in transit would rightly be asked again; this test wants every answered question kept.)
    const answeredForUnstoredRuns = () =>
      (
        reader
          .prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND subject NOT IN (SELECT id FROM runs)")
          .get() as { n: number }
      ).n;
    const hangingRequests = () => chatRequests(mock).filter((r) => r.status === undefined && r.fault === "slow").length;
    const first = startCli(args, env);
    await until(() => storedRuns().length >= 1 && answeredForUnstoredRuns() >= 1, "a stored run and a run half done");
    mock.setFaults([{ fault: { kind: "slow", delayMs: 3_000 }, times: 1_000_000 }]);
    await until(() => hangingRequests() >= 1, "a request in flight at the kill");
    await until(() => recordedReplies() === servedBodies(mock).length, "the child to record every reply");
    process.kill(first.pid, "SIGKILL");
    const killed = await first.exited;
    expect(killed.signal).toBe("SIGKILL");

    const storedAtKill = storedRuns();
    expect(storedAtKill.length).toBeGreaterThanOrEqual(1);
    expect(storedAtKill.length).toBeLessThan(4);
    const pairsAtKill = (
      reader.prepare("SELECT count(*) AS n FROM matched_pairs WHERE id LIKE ?").get(`%${PARTY_MODEL}%`) as { n: number }
    ).n;
    const servedAtKill = servedBodies(mock).length;
    const hanging = chatRequests(mock)
      .filter((r) => r.status === undefined)
      .map((r) => JSON.stringify(r.body));

    // Second attempt: a clean endpoint and the same command.
    mock.setFaults([]);
    const second = await startCli(args, env).exited;
    expect(second.stderr).not.toMatch(/error/i);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `runs: ${4 - storedAtKill.length} stored, ${storedAtKill.length} already stored (skipped), 0 failed`,
    );
    expect(second.stdout).toContain(`matched pairs stored: ${2 - pairsAtKill}`);
    const calls = /LLM calls: (\d+) made, (\d+) from cache/.exec(second.stdout);
    expect(calls).not.toBeNull();
    expect(Number(calls![1])).toBe(servedBodies(mock).length - servedAtKill);
    expect(Number(calls![2])).toBeGreaterThan(0); // the interrupted runs replayed their answered calls
    expect(second.stderr).toContain("simulate 4/4");

    // Each distinct request answered exactly once across both processes; the hanging ones were asked again.
    const served = servedBodies(mock);
    expect(duplicates(served)).toEqual([]);
    for (const body of hanging) expect(served).toContain(body);
    const retried = chatRequests(mock).filter((r) => r.status === 503);
    expect(retried).toHaveLength(2);
    for (const r of retried) expect(served).toContain(JSON.stringify(r.body));

    expect(storedRuns().map(slotOf)).toEqual(
      [0, 1]
        .flatMap((i) => [
          `demo-transactional-1:general:${MEDIATOR_MODEL}:${PARTY_MODEL}:r${i}`,
          `demo-transactional-1:general:none:${PARTY_MODEL}:r${i}`,
        ])
        .sort(),
    );
    const pairs = reader.prepare("SELECT mediated_run_id FROM matched_pairs WHERE id LIKE ?").all(`%${PARTY_MODEL}%`);
    expect(pairs).toHaveLength(2);
    // Every stored run is whole: its turns table matches its recorded turn count.
    const broken = reader
      .prepare("SELECT r.id FROM runs r WHERE r.total_turns != (SELECT count(*) FROM turns t WHERE t.run_id = r.id)")
      .all();
    expect(broken).toEqual([]);

    // A third run of the same command finds everything stored and asks nothing.
    const before = mock.requests.length;
    const third = await startCli(args, env).exited;
    expect(third.code).toBe(0);
    expect(third.stdout).toContain("runs: 0 stored, 4 already stored (skipped), 0 failed");
    expect(mock.requests.length).toBe(before);
  });
});
