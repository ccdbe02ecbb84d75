/** socrates.config.json validation: every problem names the file and the JSON path. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import {
  LlmConfigError,
  loadLlmConfig,
  parseLlmConfig,
  resolveConfigPath,
  apiKeyFor,
  endpointConcurrency,
  endpointIdentity,
  replicasOf,
} from "../../../app/server/llm/config.server.ts";
import { tempDb, tempDir } from "../../../harness/temp-db.ts";
import { mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";

const valid = () =>
  mockConfigJson("http://127.0.0.1:8000/v1") as {
    endpoints: Record<string, Record<string, unknown>>;
    roles: Record<string, Record<string, unknown>>;
  } & Record<string, unknown>;

function errorOf(value: unknown): string {
  try {
    parseLlmConfig(value, "socrates.config.json");
  } catch (err) {
    expect(err).toBeInstanceOf(LlmConfigError);
    return (err as Error).message;
  }
  throw new Error("expected the configuration to be rejected");
}

/** Cleanups of the temporary files of the current test. */
const dirs: (() => void)[] = [];
afterEach(() => dirs.splice(0).forEach((cleanup) => cleanup()));

describe("LLM configuration", () => {
  it("fills in the defaults", () => {
    const config = parseLlmConfig(valid(), "socrates.config.json");
    expect(config.endpoints.mock).toEqual({
      baseUrl: "http://127.0.0.1:8000/v1",
      concurrency: 8,
      timeoutMs: 60_000,
      maxRetries: 5,
    });
    expect(config.roles.party).toEqual({
      endpoint: "mock",
      model: "mock-model",
      temperature: 0,
      jsonMode: true,
      structuredOutput: false,
    });
    expect(config.source).toBe("socrates.config.json");
  });

  const cases: { name: string; change: (c: ReturnType<typeof valid>) => void; expected: string }[] = [
    {
      name: "an unknown endpoint",
      change: (c) => (c.roles.party.endpoint = "x"),
      expected: 'socrates.config.json: $.roles.party.endpoint: unknown endpoint "x" (defined: "mock")',
    },
    {
      name: "a missing model",
      change: (c) => delete c.roles.mediator.model,
      expected: "socrates.config.json: $.roles.mediator.model: Required",
    },
    {
      name: "a hyphenated role",
      change: (c) => (c.roles["baseline-judge"].temperature = 5),
      expected: 'socrates.config.json: $.roles["baseline-judge"].temperature: Number must be less than or equal to 2',
    },
    {
      name: "an unknown role",
      change: (c) => (c.roles.judge = { endpoint: "mock", model: "m" }),
      expected: "socrates.config.json: $.roles: Unrecognized key(s) in object: 'judge'",
    },
    {
      name: "a bad URL",
      change: (c) => (c.endpoints.mock.baseUrl = "localhost"),
      expected: "socrates.config.json: $.endpoints.mock.baseUrl: expected a URL",
    },
    {
      name: "a key instead of a variable name",
      change: (c) => (c.endpoints.mock.apiKeyEnv = "sk-abc-123"),
      expected: "socrates.config.json: $.endpoints.mock.apiKeyEnv: expected the name of an environment variable",
    },
    {
      name: "a misspelt field",
      change: (c) => (c.endpoints.mock.baseURL = "x"),
      expected: "socrates.config.json: $.endpoints.mock: Unrecognized key(s) in object: 'baseURL'",
    },
    {
      name: "a fractional concurrency",
      change: (c) => (c.endpoints.mock.concurrency = 2.5),
      expected: "socrates.config.json: $.endpoints.mock.concurrency: Expected integer",
    },
    {
      name: "an endpoint with both a baseUrl and replicas",
      change: (c) => (c.endpoints.mock.replicas = [{ baseUrl: "http://127.0.0.1:8001/v1" }]),
      expected:
        "socrates.config.json: $.endpoints.mock.replicas: give either baseUrl (one server) or replicas (a pool), not both",
    },
    {
      name: "an endpoint with neither",
      change: (c) => delete c.endpoints.mock.baseUrl,
      expected:
        "socrates.config.json: $.endpoints.mock.baseUrl: expected baseUrl (one server) or replicas (a pool of servers)",
    },
    {
      name: "a pool's replica with a bad URL",
      change: (c) =>
        (c.endpoints.cluster = { replicas: [{ baseUrl: "http://10.0.0.1:8000/v1" }, { baseUrl: "10.0.0.2" }] }),
      expected: "socrates.config.json: $.endpoints.cluster.replicas[1].baseUrl: expected a URL",
    },
    {
      name: "a replica weight of 0",
      change: (c) => (c.endpoints.cluster = { replicas: [{ baseUrl: "http://10.0.0.1:8000/v1", weight: 0 }] }),
      expected: "socrates.config.json: $.endpoints.cluster.replicas[0].weight: Number must be greater than 0",
    },
    {
      name: "an empty pool",
      change: (c) => (c.endpoints.cluster = { replicas: [] }),
      expected: "socrates.config.json: $.endpoints.cluster.replicas: a pool needs at least one replica",
    },
    {
      name: "two replicas of one name",
      change: (c) =>
        (c.endpoints.cluster = {
          replicas: [
            { baseUrl: "http://a/v1", name: "gpu" },
            { baseUrl: "http://b/v1", name: "gpu" },
          ],
        }),
      expected: 'socrates.config.json: $.endpoints.cluster.replicas[1].name: replica name "gpu" is used twice',
    },
    {
      name: "health rules on a single server",
      change: (c) => (c.endpoints.mock.health = { failures: 2 }),
      expected: "socrates.config.json: $.endpoints.mock.health: health applies to a pool (replicas) only",
    },
    {
      name: "a misspelt health rule",
      change: (c) => (c.endpoints.cluster = { replicas: [{ baseUrl: "http://a/v1" }], health: { failure: 2 } }),
      expected: "socrates.config.json: $.endpoints.cluster.health: Unrecognized key(s) in object: 'failure'",
    },
    {
      name: "a negative price",
      change: (c) => (c.prices = { m: { inputPerMillion: -1, outputPerMillion: 1 } }),
      expected: "socrates.config.json: $.prices.m.inputPerMillion:",
    },
  ];
  for (const { name, change, expected } of cases) {
    it(`rejects ${name}`, () => {
      const config = valid();
      change(config);
      expect(errorOf(config)).toContain(expected);
    });
  }

  it("names the file for unreadable and invalid JSON files", () => {
    const { dir, cleanup } = tempDir();
    dirs.push(cleanup);
    const missing = join(dir, "none.json");
    expect(() => loadLlmConfig(missing)).toThrow(`${missing}: cannot read the LLM configuration (ENOENT)`);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, '{"endpoints": {');
    expect(() => loadLlmConfig(broken)).toThrow(`${broken}: $: invalid JSON`);
  });

  it("takes the path from the flag, then SOCRATES_CONFIG, then the default", () => {
    expect(resolveConfigPath("a.json", { SOCRATES_CONFIG: "b.json" })).toBe("a.json");
    expect(resolveConfigPath(undefined, { SOCRATES_CONFIG: "b.json" })).toBe("b.json");
    expect(resolveConfigPath(undefined, {})).toBe("socrates.config.json");
  });

  it("reads a pool: replicas take the pool's defaults, the cache knows the pool by its name", () => {
    const raw = valid();
    raw.endpoints.cluster = {
      concurrency: 16,
      apiKeyEnv: "SHARED_KEY",
      replicas: [
        { baseUrl: "http://10.0.0.1:8000/v1", weight: 2 },
        { baseUrl: "http://10.0.0.2:8000/v1", concurrency: 4, name: "small", apiKeyEnv: "OWN_KEY" },
      ],
    };
    raw.roles.party.endpoint = "cluster";
    const config = parseLlmConfig(raw, "socrates.config.json");
    expect(replicasOf("cluster", config.endpoints.cluster)).toEqual([
      { name: "cluster#1", baseUrl: "http://10.0.0.1:8000/v1", concurrency: 16, timeoutMs: 60_000, weight: 2 },
      { name: "small", baseUrl: "http://10.0.0.2:8000/v1", concurrency: 4, timeoutMs: 60_000, weight: 1 },
    ]);
    expect(endpointConcurrency(config.endpoints.cluster)).toBe(20);
    expect(endpointIdentity("cluster", config.endpoints.cluster)).toBe("pool:cluster");
    expect(endpointIdentity("mock", config.endpoints.mock)).toBe("http://127.0.0.1:8000/v1");
    const env = { SHARED_KEY: "shared", OWN_KEY: "own" };
    expect([0, 1].map((i) => apiKeyFor(config, "cluster", env, i))).toEqual(["shared", "own"]);
    expect(() => apiKeyFor(config, "cluster", { SHARED_KEY: "shared" }, 1)).toThrow(
      "socrates.config.json: $.endpoints.cluster.replicas[1].apiKeyEnv: environment variable OWN_KEY is not set",
    );
  });

  it("reads API keys from the environment only, naming the variable when it is missing", () => {
    const raw = valid();
    raw.endpoints.mock.apiKeyEnv = "MY_LLM_KEY";
    const config = parseLlmConfig(raw, "socrates.config.json");
    expect(apiKeyFor(config, "mock", { MY_LLM_KEY: "secret" })).toBe("secret");
    expect(() => apiKeyFor(config, "mock", {})).toThrow(
      "socrates.config.json: $.endpoints.mock.apiKeyEnv: environment variable MY_LLM_KEY is not set",
    );
  });

  it("the client refuses an unconfigured role and a missing key with the same kind of message", async () => {
    const raw = valid();
    delete raw.roles.searcher;
    raw.endpoints.mock.apiKeyEnv = "SOCRATES_TEST_UNSET_KEY";
    const store = await tempDb();
    dirs.push(store.cleanup);
    const llm = createLlm({ db: store.db, config: parseLlmConfig(raw, "socrates.config.json"), env: {} });
    const messages = [{ role: "user" as const, content: "hi" }];
    expect(() => llm.modelFor("searcher")).toThrow(
      'socrates.config.json: $.roles.searcher: role "searcher" is not configured',
    );
    expect(llm.modelFor("searcher", "override-model")).toBe("override-model");
    await expect(llm.call({ role: "searcher", messages, schema: z.object({}) })).rejects.toThrow(LlmConfigError);
    await expect(llm.call({ role: "party", messages, schema: z.object({}) })).rejects.toThrow(
      "socrates.config.json: $.endpoints.mock.apiKeyEnv: environment variable SOCRATES_TEST_UNSET_KEY is not set",
    );
  });

  it("the example configuration is valid and configures every role", () => {
    const config = loadLlmConfig(join(import.meta.dirname, "../../../socrates.config.example.json"));
    expect(Object.keys(config.roles).sort()).toEqual([
      "baseline-judge",
      "emotion-judge",
      "evaluator",
      "mediator",
      "mi-judge",
      "party",
      "searcher",
      "writer",
    ]);
  });
});
