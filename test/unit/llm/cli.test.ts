/** `socrates llm check` and `socrates llm usage` through the real CLI. */
import { spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { LLM_ROLES } from "../../../app/domain/llm/types.ts";
import { runCli, type CliResult } from "../../helpers/cli.ts";
import { tempDb, tempDir } from "../../../harness/temp-db.ts";
import { mockConfig, mockConfigJson, mockPoolConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function writeConfig(value: unknown): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = join(dir, "socrates.config.json");
  writeFileSync(file, JSON.stringify(value));
  return file;
}

describe("socrates llm check", () => {
  it("prints one FAILED line per role and exits 2 when the endpoint is unreachable", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const file = writeConfig(mockConfigJson(url));
    const result = runCli(["llm", "check", "--config", file, "--timeout", "3000"]);

    expect(result.status).toBe(2);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(LLM_ROLES.length);
    for (const [i, role] of LLM_ROLES.entries()) {
      expect(lines[i]).toMatch(
        new RegExp(
          `^${role}\\s+FAILED  mock-model @ ${url.replace(/\./g, "\\.")}: network error: connect ECONNREFUSED`,
        ),
      );
    }
    expect(result.stderr).toContain(`error: ${LLM_ROLES.length} of ${LLM_ROLES.length} roles failed the check`);
  });

  it("connects to a port the built-in fetch refuses (9) like any other, and says what the socket said", () => {
    const file = writeConfig(mockConfigJson("http://127.0.0.1:9/v1"));
    const result = runCli(["llm", "check", "--config", file]);
    expect(result.status).toBe(2);
    expect(result.stdout).toContain(
      "party           FAILED  mock-model @ http://127.0.0.1:9/v1: network error: connect ECONNREFUSED 127.0.0.1:9",
    );
  });

  it("reports ok with the model, URL and latency, read from SOCRATES_CONFIG", async () => {
    const mock = await startMockLlm();
    cleanups.push(() => mock.close());
    const file = writeConfig(mockConfigJson(mock.url));
    // The mock lives in this process, so the CLI must run without blocking it (runCli would).
    const result = await runCliAsync(["llm", "check"], { SOCRATES_CONFIG: file });

    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(LLM_ROLES.length);
    expect(lines[0]).toMatch(
      new RegExp(`^searcher\\s+ok  mock-model @ ${mock.url.replace(/\./g, "\\.")} \\(\\d+ ms\\)$`),
    );
    expect(mock.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(LLM_ROLES.length);
  });

  it("lists each replica of a pool: reachable with its latency and whether it lists the model, or out", async () => {
    const [up, down] = [await startMockLlm({ models: ["mock-model"] }), await startMockLlm()];
    cleanups.push(
      () => up.close(),
      () => down.close(),
    );
    down.setOutage(503);
    const file = writeConfig(
      mockPoolConfigJson([up.url, down.url], { replicas: [{ name: "gpu-a" }, { name: "gpu-b" }] }),
    );
    const result = await runCliAsync(["llm", "check", "--config", file], {});

    expect(result.status).toBe(0); // every role still has a working replica
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(LLM_ROLES.length * 3);
    expect(lines[0]).toBe('searcher        ok  mock-model @ pool "cluster" (2 replicas, 1 out)');
    const escaped = (url: string) => url.replace(/\./g, "\\.");
    expect(lines[1]).toMatch(new RegExp(`^  gpu-a\\s+ok   ${escaped(up.url)} \\(\\d+ ms; model listed\\)$`));
    expect(lines[2]).toMatch(new RegExp(`^  gpu-b\\s+OUT  ${escaped(down.url)}: HTTP 503 .*; models: HTTP 503`));
  });

  it("explains a bad configuration file with its JSON path and exits 2", () => {
    const config = mockConfigJson("http://127.0.0.1:9/v1") as { roles: Record<string, { endpoint: string }> };
    config.roles.party.endpoint = "x";
    const file = writeConfig(config);
    const result = runCli(["llm", "check", "--config", file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}: $.roles.party.endpoint: unknown endpoint "x"`);
  });
});

describe("socrates llm usage", () => {
  it("prints the per-role accounting table of the database", async () => {
    const mock = await startMockLlm();
    const store = await tempDb();
    cleanups.push(
      () => mock.close(),
      () => store.cleanup(),
    );
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url, { prices: { "mock-model": { inputPerMillion: 1000, outputPerMillion: 1000 } } }),
    });
    const schema = z.object({ echo: z.string() });
    await llm.call({
      role: "party",
      messages: [{ role: "user", content: "abcd".repeat(10) }],
      schema,
      subject: "run-1",
    });
    await llm.call({ role: "mediator", messages: [{ role: "user", content: "abcd" }], schema, subject: "run-2" });

    const all = runCli(["llm", "usage"], { SOCRATES_DB: store.path });
    expect(all.status).toBe(0);
    const lines = all.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^role\s+calls\s+ok\s+failed\s+http requests\s+prompt tokens\s+completion tokens\s+cost$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(["mediator", "party", "total"]);
    // party: 10 prompt tokens, reply {"echo":"abcd…"} of 51 characters = 13 tokens, at $1000 per million each.
    expect(lines[2].split(/\s+/)).toEqual(["party", "1", "1", "0", "1", "10", "13", "$0.0230"]);

    const one = runCli(["llm", "usage", "--subject", "run-2", "--json"], { SOCRATES_DB: store.path });
    expect(JSON.parse(one.stdout)).toEqual([
      {
        role: "mediator",
        calls: 1,
        ok: 1,
        failed: 0,
        attempts: 1,
        promptTokens: 1,
        completionTokens: 4,
        costUsd: 0.005,
      },
    ]);
  });
});

/** Like runCli, but asynchronous: spawnSync would block this process and starve the in-process mock. */
function runCliAsync(args: string[], env: Record<string, string>): Promise<CliResult> {
  const root = resolve(import.meta.dirname, "../../..");
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, "scripts/socrates.mjs"), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/** A port nothing listens on: bound by the OS, then released. */
function closedPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close((err) => (err ? fail(err) : done(port)));
    });
  });
}
