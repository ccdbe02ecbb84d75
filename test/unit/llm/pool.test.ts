/**
 * Endpoint pools over real HTTP: two stand-in servers as the replicas of one endpoint. A replica
 * in an outage is routed around, taken out and brought back; the cache does not care which
 * replica answered; each replica's concurrency limit holds; a 429 sends the call elsewhere.
 */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig, mockPoolConfig, type MockPoolOptions } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm, type MockLlmOptions } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";

const schema = z.object({ answer: z.string() });
const ask = (text: string) => ({
  role: "party" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
});
const noWait = async () => {};
/** A short time out, so a taken-out replica is probed again within a few calls. */
const quickHealth = { failures: 2, backoffMs: 5, maxBackoffMs: 20 };
/** A long one, so what a test looks at afterwards is still out. */
const slowHealth = { failures: 1, backoffMs: 60_000, maxBackoffMs: 60_000 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function stand(options: MockLlmOptions = {}): Promise<MockLlm> {
  const mock = await startMockLlm({ respond: (req) => ({ answer: req.messages.at(-1)?.content ?? "" }), ...options });
  cleanups.push(() => mock.close());
  return mock;
}

async function db() {
  const store = await tempDb();
  cleanups.push(store.cleanup);
  return store.db;
}

const chats = (mock: MockLlm) => mock.requests.filter((r) => r.path === "/v1/chat/completions");
const probes = (mock: MockLlm) => mock.requests.filter((r) => r.path === "/v1/models");

function poolLlm(database: Awaited<ReturnType<typeof db>>, mocks: MockLlm[], options: MockPoolOptions = {}) {
  const config = mockPoolConfig(
    mocks.map((m) => m.url),
    { ...options, pool: { health: quickHealth, ...options.pool } },
  );
  return createLlm({ db: database, config, sleep: noWait, random: () => 0 });
}

describe("endpoint pools", () => {
  it("keeps every call succeeding while one replica answers 503, takes it out, and brings it back once it recovers", async () => {
    const [healthy, failing] = [await stand(), await stand()];
    failing.setOutage(503);
    const database = await db();
    const llm = poolLlm(database, [healthy, failing], { replicas: [{ concurrency: 4 }, { concurrency: 4 }] });

    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => llm.call(ask(`question ${i}`))));

    expect(results.every((r) => r.ok)).toBe(true);
    expect(chats(healthy)).toHaveLength(40); // every reply came from the healthy replica, each once
    // Its 4 slots, plus what it was handed before the failures added up: then out of rotation,
    // asked only by health checks.
    expect(chats(failing).length).toBeLessThanOrEqual(4 + quickHealth.failures - 1);
    expect(probes(failing).length).toBeGreaterThan(0);
    const rows = await database.select().from(llmCalls);
    expect(rows).toHaveLength(40); // usage recorded once per reply, whatever the retries
    expect(new Set(rows.map((r) => r.baseUrl))).toEqual(new Set(["pool:cluster"]));
    expect(rows.every((r) => r.status === "ok")).toBe(true);

    failing.setOutage(undefined);
    // Calls one after another: once the back-off ends, a health check passes and the replica takes calls again.
    for (let i = 0; i < 2000 && chats(failing).every((r) => r.status !== 200); i++) {
      expect((await llm.call(ask(`after recovery ${i}`))).ok).toBe(true);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(probes(failing).some((r) => r.status === 200)).toBe(true);
    expect(chats(failing).some((r) => r.status === 200)).toBe(true);
  });

  it("shares the cache across replicas: a second run, whichever replica would be next, sends nothing", async () => {
    const [a, b] = [await stand(), await stand()];
    const database = await db();
    const questions = Array.from({ length: 6 }, (_, i) => ask(`cached ${i}`));
    const first = await Promise.all(questions.map((q) => poolLlm(database, [a, b]).call(q)));
    expect(first.every((r) => r.ok && !r.cached)).toBe(true);
    const sent = a.requests.length + b.requests.length;

    // The replicas in the other order (b first), and a third one added: the keys stay the same.
    const c = await stand();
    const second = await Promise.all(questions.map((q) => poolLlm(database, [b, a, c]).call(q)));
    expect(second.every((r) => r.ok && r.cached)).toBe(true);
    expect(a.requests.length + b.requests.length + c.requests.length).toBe(sent);
    expect(second.map((r) => r.ok && r.value)).toEqual(first.map((r) => r.ok && r.value));
  });

  it("keeps each replica within its own concurrency and gives both work", async () => {
    const [small, large] = [await stand({ latencyMs: 15 }), await stand({ latencyMs: 15 })];
    const llm = poolLlm(await db(), [small, large], { replicas: [{ concurrency: 2 }, { concurrency: 5, weight: 3 }] });

    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => llm.call(ask(`load ${i}`))));

    expect(results.every((r) => r.ok)).toBe(true);
    expect(small.maxInFlight()).toBeLessThanOrEqual(2);
    expect(large.maxInFlight()).toBeLessThanOrEqual(5);
    expect(chats(small).length).toBeGreaterThan(0);
    expect(chats(large).length).toBeGreaterThan(chats(small).length);
  });

  it("sends a call rate-limited by one replica to the other at once, and keeps the limited one aside", async () => {
    const [limited, free] = [await stand(), await stand()];
    limited.setFaults([{ fault: { kind: "429", retryAfterSeconds: 60 } }]);
    const waits: number[] = [];
    const config = mockPoolConfig([limited.url, free.url], { pool: { health: quickHealth } });
    const llm = createLlm({ db: await db(), config, sleep: async (ms) => void waits.push(ms) });

    const first = await llm.call(ask("one"));
    const second = await llm.call(ask("two"));

    expect(first.ok && second.ok).toBe(true);
    expect(waits).toEqual([]); // nobody waited the minute
    expect(chats(limited).map((r) => r.status)).toEqual([429]); // the Retry-After marks that replica only
    expect(chats(free).map((r) => r.status)).toEqual([200, 200]);
  });

  it("fails a call clearly when the whole pool is down, naming each replica and its last error, within maxRetries", async () => {
    const [a, b] = [await stand(), await stand()];
    a.setOutage(503);
    b.setOutage(502);
    const llm = poolLlm(await db(), [a, b], {
      replicas: [{ name: "gpu-a" }, { name: "gpu-b" }],
      pool: { maxRetries: 3, health: slowHealth },
    });

    const result = await llm.call(ask("anyone there?"));

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain("gave up after 4 attempts");
    expect(result.error).toMatch(new RegExp(`gpu-a ${a.url.replace(/\./g, "\\.")} out of rotation: HTTP 503`));
    expect(result.error).toMatch(new RegExp(`gpu-b ${b.url.replace(/\./g, "\\.")} out of rotation: HTTP 502`));
    expect(chats(a).length + chats(b).length).toBe(4);
  });

  it("routes a request's --endpoint override to a pool while the role keeps its own endpoint", async () => {
    const [plain, replica] = [await stand(), await stand()];
    const json = {
      endpoints: { plain: { baseUrl: plain.url }, cluster: { replicas: [{ baseUrl: replica.url }] } },
      roles: { party: { endpoint: "plain", model: "mock-model" } },
    };
    const llm = createLlm({ db: await db(), config: parseLlmConfig(json, "test") });

    expect((await llm.call(ask("default"))).ok).toBe(true);
    expect((await llm.call({ ...ask("override"), endpoint: "cluster" })).ok).toBe(true);
    expect(chats(plain)).toHaveLength(1);
    expect(chats(replica)).toHaveLength(1);
  });

  it("a plain endpoint is never taken out: it keeps its retries as before", async () => {
    const mock = await stand();
    mock.setFaults([{ fault: { kind: "5xx", status: 503 }, times: 5 }]);
    const llm = createLlm({ db: await db(), config: mockConfig(mock.url), sleep: noWait, random: () => 0 });
    expect((await llm.call(ask("persist"))).ok).toBe(true);
    expect(chats(mock).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 200]);
    expect(probes(mock)).toHaveLength(0);
  });
});
