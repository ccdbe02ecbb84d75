/**
 * `socrates mock-llm` in a child process: it says it is a stand-in, writes a configuration the
 * LLM layer and curation accept, answers /v1/models and a chat completion over HTTP, serves the
 * stand-in search server, and stops on SIGTERM.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { curationConfigOf } from "../../app/server/curation/curation-config.server.ts";
import { LLM_ROLES } from "../../app/domain/llm/types.ts";
import { loadLlmConfig } from "../../app/server/llm/config.server.ts";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../../harness/temp-db.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** Starts the command and resolves once it says it is serving, with everything it printed so far. */
function startMockLlmCommand(args: string[]): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [join(ROOT, "scripts/socrates.mjs"), "mock-llm", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Serving until Ctrl-C.")) ready({ child, output: () => output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => fail(new Error(`mock-llm exited with ${code} before serving:\n${output}`)));
  });
}

describe("socrates mock-llm", { timeout: 60_000 }, () => {
  const tmp = tempDir("socrates-mock-llm-");
  afterAll(() => tmp.cleanup());

  it("serves a labelled stand-in with a ready configuration, answers over HTTP, and exits on SIGTERM", async () => {
    const configPath = join(tmp.dir, "socrates.config.json");
    const { child, output } = await startMockLlmCommand([
      "--port",
      "0",
      "--search-port",
      "0",
      "--write-config",
      configPath,
    ]);
    const exited = new Promise<number | null>((done) => child.once("exit", done));
    try {
      const url = /STAND-IN LLM endpoint \(canned replies, not a model\): (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(
        output(),
      )?.[1];
      expect(url, output()).toBeDefined();
      expect(output()).toContain(`Wrote the configuration to ${configPath}`);

      const config = loadLlmConfig(configPath);
      expect(Object.values(config.roles).map((r) => [r?.endpoint, r?.model])).toEqual(
        Array(LLM_ROLES.length).fill(["mock", "stand-in"]),
      );
      expect(config.endpoints.mock.baseUrl).toBe(url);

      // Curation searches the stand-in search server, which answers SearXNG's JSON API.
      const searchUrl =
        /STAND-IN search server \(SearXNG-style, invented disputes, not a search engine\): (http:\/\/127\.0\.0\.1:\d+)/.exec(
          output(),
        )?.[1];
      // On 127.0.0.1, so listed for the outbound policy: that one host and port only.
      expect(curationConfigOf(config).source).toMatchObject({
        kind: "search-tools",
        backend: "searxng",
        url: searchUrl,
        allowPrivateHosts: [new URL(searchUrl!).host],
      });
      const found = await (await fetch(`${searchUrl}/search?q=transactional&format=json`)).json();
      expect(found.results.length).toBeGreaterThan(0);
      expect(found.results[0].url).toMatch(new RegExp(`^${searchUrl}/pages/`));

      // `llm check` passes for every role (the mock runs in the child, so this blocking call is fine).
      const check = runCli(["llm", "check", "--config", configPath]);
      expect(check.stdout.match(/ ok {2}stand-in @ /g), check.stdout + check.stderr).toHaveLength(LLM_ROLES.length);
      expect(check.status).toBe(0);

      const models = await (await fetch(`${url}/models`)).json();
      expect(models.data.map((m: { id: string }) => m.id)).toEqual(["stand-in"]);

      const body = JSON.stringify({
        model: "stand-in",
        messages: [
          {
            role: "system",
            content: "You are playing Ada in a simulated negotiation.\n\n### Price (PRICE)\n- A: low\n- B: high",
          },
          { role: "user", content: "The dialogue so far:\n(none)\nYour turn." },
        ],
      });
      // The stand-in answers by the role and template the request names, never by guessing from the prompt.
      const roleHeaders = { "x-socrates-role": "party", "x-socrates-template": "party" };
      const res = await fetch(`${url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...roleHeaders },
        body,
      });
      expect(res.status).toBe(200);
      const reply = JSON.parse((await res.json()).choices[0].message.content);
      expect(reply).toMatchObject({ signal: "continue", utterance: expect.stringContaining("Price") });
      const unnamed = await fetch(`${url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(unnamed.status).toBe(400);
      expect((await unnamed.json()).error.message).toMatch(
        /names no role \(header x-socrates-role: searcher \| writer/,
      );
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(output()).toContain("Stopped (SIGTERM).");
  });

  it("refuses a port that is not a number", async () => {
    await expect(startMockLlmCommand(["--port", "http"])).rejects.toThrow(
      /--port must be a whole number from 0 to 65535/,
    );
  });
});
