/**
 * Ctrl-C, the progress line and colour through the real CLI in a child process against the
 * stand-in endpoint with latency: SIGINT mid-batch prints one "interrupted" line, a summary that
 * counts the stopped runs as interrupted (not failed) and the command that resumes; running that
 * command finishes the rest without asking the endpoint anything twice.
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { printedCommand, runCli, spawnCli, until, type CliChild } from "../../helpers/cli.ts";
import {
  chatRequests,
  duplicates,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  servedBodies,
  simulationConfigJson,
} from "./helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Colour left to the output alone: the test runner's own FORCE_COLOR or NO_COLOR must not reach the child. */
const NO_COLOUR_SETTINGS = { FORCE_COLOR: undefined, NO_COLOR: undefined };
const ESCAPE = "\x1b[";

function startCli(args: string[], env: Record<string, string | undefined>): CliChild {
  const child = spawnCli(args, env);
  cleanups.push(child.kill);
  return child;
}

async function setUp() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "interrupt.db");
  const seeded = await openDatabase(dbPath);
  await seedDemo(seeded);
  seeded.$client.close();
  const mock = await startMockLlm({
    respond: standInResponder({ roles: [...SIMULATION_ROLES, "evaluator"] }),
    latencyMs: 20,
  });
  cleanups.push(() => mock.close());
  const configPath = join(dir, "socrates.config.json");
  const price = { inputPerMillion: 100, outputPerMillion: 100 }; // a visible cost per call
  const simulation = simulationConfigJson(mock.url) as { roles: object };
  const config = {
    ...simulation,
    roles: { ...simulation.roles, evaluator: { endpoint: "mock", model: JUDGE_MODEL, temperature: 0 } },
    prices: { [PARTY_MODEL]: price, [MEDIATOR_MODEL]: price, [JUDGE_MODEL]: price },
  };
  writeFileSync(configPath, JSON.stringify(config));
  const reader = new Database(dbPath, { readonly: true });
  cleanups.push(() => reader.close());
  const storedRuns = () =>
    (reader.prepare("SELECT count(*) AS n FROM runs WHERE simulator_backbone = ?").get(PARTY_MODEL) as { n: number }).n;
  const storedEvaluations = () =>
    (reader.prepare("SELECT count(*) AS n FROM evaluations WHERE backbone = ?").get(JUDGE_MODEL) as { n: number }).n;
  return { mock, dbPath, configPath, storedRuns, storedEvaluations };
}

const JUDGE_MODEL = "interrupt-judge";

const RUNS = 8; // per setting: 16 runs with the matched unmediated ones

describe("Ctrl-C, progress and colour in the CLI", { timeout: 180_000 }, () => {
  it("stops simulate on SIGINT with one line, a right summary and a resume command that pays nothing twice", async () => {
    const { mock, dbPath, configPath, storedRuns } = await setUp();
    const args = [
      "simulate",
      "--scenario",
      "demo-transactional-1",
      "--mediator",
      MEDIATOR_MODEL,
      "--runs",
      String(RUNS),
      "--budget",
      "10",
      "--concurrency",
      "3",
      "--config",
      configPath,
    ];
    // Every step gets a progress line in this log (SOCRATES_PROGRESS_SECONDS=0), so lines mid-run show an ETA.
    const env = { SOCRATES_DB: dbPath, SOCRATES_PROGRESS_SECONDS: "0", ...NO_COLOUR_SETTINGS };
    const child = startCli(args, env);
    const inFlight = () => chatRequests(mock).filter((r) => r.status === undefined).length;
    await until(() => storedRuns() >= 2 && inFlight() >= 1, "two stored runs and a request in flight");
    process.kill(child.pid, "SIGINT");
    const stopped = await child.exited;
    expect(stopped.code).toBe(130);

    const errLines = stopped.stderr.trim().split("\n");
    const interrupted = errLines.filter((l) => /interrupted/.test(l));
    expect(interrupted).toHaveLength(1);
    const line = /^interrupted: finishing nothing new; (\d+) done, (\d+) in flight dropped$/.exec(interrupted[0]);
    expect(line).not.toBeNull();
    const [done, dropped] = [Number(line![1]), Number(line![2])];
    const stored = storedRuns();
    expect(done).toBe(stored);
    expect(dropped).toBeGreaterThanOrEqual(1);
    const notStarted = 2 * RUNS - stored - dropped;
    expect(stopped.stdout).toContain(
      `runs: ${stored} stored, 0 already stored (skipped), 0 failed; interrupted, not failed: ${dropped} dropped in flight, ${notStarted} not started`,
    );
    expect(errLines.filter((l) => /failed/.test(l))).toEqual([]);
    // The progress lines: the unit, the pace, the ETA and the dollars spent.
    const progress = errLines.filter((l) => l.startsWith("simulate "));
    expect(progress.length).toBe(stored);
    expect(progress[0]).toMatch(
      new RegExp(`^simulate 1/${2 * RUNS} runs · [\\d.]+ runs/min · ETA \\d+ (s|min) · \\$\\d+\\.\\d\\d spent `),
    );
    // A log gets no escape codes.
    expect(stopped.stdout + stopped.stderr).not.toContain(ESCAPE);

    // The printed command resumes: the rest is stored and nothing answered before is asked again.
    const resumeLine = errLines.at(-1)!;
    expect(resumeLine).toMatch(/\. Resume with: SOCRATES_DB=.* npx socrates simulate /);
    const resume = printedCommand(resumeLine.slice(resumeLine.indexOf("Resume with: ") + "Resume with: ".length));
    const servedBefore = servedBodies(mock).length;
    const second = await startCli(resume.args, { ...resume.env, ...NO_COLOUR_SETTINGS }).exited;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`runs: ${2 * RUNS - stored} stored, ${stored} already stored (skipped), 0 failed`);
    expect(storedRuns()).toBe(2 * RUNS);
    const calls = /LLM calls: (\d+) made, (\d+) from cache/.exec(second.stdout);
    expect(Number(calls![1])).toBe(servedBodies(mock).length - servedBefore);
    expect(Number(calls![2])).toBeGreaterThan(0); // the dropped runs replay their answered calls
    expect(duplicates(servedBodies(mock))).toEqual([]);
    expect(second.stderr).toMatch(new RegExp(`simulate ${2 * RUNS}/${2 * RUNS} runs · .*\\$\\d+\\.\\d\\d spent`));
    expect(second.stderr).toContain(`done: ${2 * RUNS - stored} run(s) stored`);
    expect(second.stdout + second.stderr).not.toContain(ESCAPE);

    // Colour: FORCE_COLOR turns it on for a log; NO_COLOR and --no-color win over it.
    const again = (extra: string[], colour: Record<string, string | undefined>) =>
      runCli([...extra, ...resume.args], { ...resume.env, ...NO_COLOUR_SETTINGS, ...colour });
    const forced = again([], { FORCE_COLOR: "1" });
    expect(forced.status).toBe(0);
    expect(forced.stderr).toContain(`${ESCAPE}32mdone: 0 run(s) stored`);
    expect(forced.stderr).toContain(`${ESCAPE}36msimulate${ESCAPE}39m ${2 * RUNS}/${2 * RUNS} runs`);
    for (const off of [again([], { FORCE_COLOR: "1", NO_COLOR: "1" }), again(["--no-color"], { FORCE_COLOR: "1" })]) {
      expect(off.status).toBe(0);
      expect(off.stderr).toContain("done: 0 run(s) stored");
      expect(off.stdout + off.stderr).not.toContain(ESCAPE);
    }
    const badInput = runCli(["simulate", "--scenario", "x", "--mediator", "none", "--runs", "0"], { FORCE_COLOR: "1" });
    expect(badInput.status).toBe(2);
    expect(badInput.stderr).toContain(`${ESCAPE}31merror:${ESCAPE}39m --runs must be a whole number`);
  });

  it("stops evaluate on SIGINT the same way, and its resume judges the rest without asking twice", async () => {
    const { mock, dbPath, configPath, storedEvaluations } = await setUp();
    const env = { SOCRATES_DB: dbPath, ...NO_COLOUR_SETTINGS };
    const simulate = ["simulate", "--scenario", "demo-transactional-1", "--mediator", MEDIATOR_MODEL, "--runs", "6"];
    const simulated = await startCli([...simulate, "--budget", "6", "--config", configPath], env).exited;
    expect(simulated.code).toBe(0);

    const args = ["evaluate", "--all", "--method", "topic", "--concurrency", "2", "--config", configPath];
    const child = startCli(args, env);
    const inFlight = () => chatRequests(mock).filter((r) => r.status === undefined).length;
    await until(() => storedEvaluations() >= 2 && inFlight() >= 1, "two stored evaluations and a request in flight");
    process.kill(child.pid, "SIGINT");
    const stopped = await child.exited;
    expect(stopped.code).toBe(130);
    const errLines = stopped.stderr.trim().split("\n");
    const interrupted = errLines.filter((l) => /interrupted/.test(l));
    expect(interrupted).toHaveLength(1);
    const line = /^interrupted: finishing nothing new; (\d+) done, (\d+) in flight dropped$/.exec(interrupted[0]);
    expect(line).not.toBeNull();
    const stored = storedEvaluations();
    const summary =
      /topic with interrupt-judge: (\d+) stored, (\d+) skipped, 0 failed; interrupted, not failed: (\d+) dropped in flight, (\d+) not started/.exec(
        stopped.stdout,
      );
    expect(summary).not.toBeNull();
    const [storedNow, skipped, dropped, notStarted] = summary!.slice(1).map(Number);
    expect(storedNow).toBe(stored);
    expect(Number(line![1])).toBe(stored + skipped);
    expect(Number(line![2])).toBe(dropped);
    expect(errLines.filter((l) => /failed/.test(l))).toEqual([]);
    expect(stopped.stdout + stopped.stderr).not.toContain(ESCAPE);

    const resumeLine = errLines.at(-1)!;
    const resume = printedCommand(resumeLine.slice(resumeLine.indexOf("Resume with: ") + "Resume with: ".length));
    expect([...resume.args].sort()).toEqual([...args].sort()); // the same options, in commander's order
    const second = await startCli(resume.args, { ...resume.env, ...env }).exited;
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`topic with ${JUDGE_MODEL}: ${dropped + notStarted} stored`);
    expect(storedEvaluations()).toBe(stored + dropped + notStarted);
    expect(duplicates(servedBodies(mock))).toEqual([]);
  });

  it("--help describes the progress line, Ctrl-C's exit code and the colour settings", () => {
    const help = runCli(["--help"], NO_COLOUR_SETTINGS);
    expect(help.status).toBe(0);
    for (const text of ["--no-color", "NO_COLOR", "FORCE_COLOR", "SOCRATES_PROGRESS_SECONDS", "code 130", "ETA"])
      expect(help.stdout).toContain(text);
  });
});
