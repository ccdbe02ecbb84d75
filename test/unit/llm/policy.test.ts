/** The pure helpers under the client: Retry-After parsing, backoff, the semaphore, reply extraction, cache keys. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { cacheKey, canonicalJson } from "../../../app/server/llm/cache-key.server.ts";
import { parseReply } from "../../../app/domain/llm/reply-parsing.ts";
import { backoffMs, isRetryableStatus, retryAfterMs } from "../../../app/domain/llm/retry-policy.ts";
import { Semaphore } from "../../../app/domain/llm/semaphore.ts";

const headers = (values: Record<string, string>) => new Headers(values);

describe("retry policy", () => {
  it("retries 408, 429, 5xx and network failures only", () => {
    expect([undefined, 408, 429, 500, 503].map(isRetryableStatus)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 422].map(isRetryableStatus)).toEqual([false, false, false, false, false]);
  });

  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms first", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after": "Wed, 01 Jan 2025 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(headers({ "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(headers({ "retry-after": "2", "retry-after-ms": "1500" }), now)).toBe(1500);
    expect(retryAfterMs(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
  });

  it("full jitter: uniform under a doubling, capped ceiling", () => {
    const opts = { baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((r) => backoffMs(r, () => 1, opts))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffMs(3, () => 0.25, opts)).toBe(200);
    expect(backoffMs(3, () => 0, opts)).toBe(0);
  });
});

describe("semaphore", () => {
  it("never runs more than its limit, and runs everything", async () => {
    const limit = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        limit.run(async () => {
          peak = Math.max(peak, ++running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
          done.push(i);
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("frees the slot when a task throws", async () => {
    const limit = new Semaphore(1);
    await expect(limit.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await limit.run(async () => "next")).toBe("next");
  });
});

describe("reply parsing", () => {
  const schema = z.object({ a: z.number() });
  it("takes JSON bare, fenced, or fenced inside prose", () => {
    expect(parseReply(' {"a": 1} ', schema)).toEqual({ ok: true, value: { a: 1 }, form: "json" });
    expect(parseReply('```json\n{"a": 1}\n```', schema)).toEqual({ ok: true, value: { a: 1 }, form: "fenced" });
    expect(parseReply('Here you go:\n```\n{"a": 1}\n```\nThanks', schema)).toEqual({
      ok: true,
      value: { a: 1 },
      form: "fenced",
    });
  });

  it("describes problems with JSON paths", () => {
    expect(parseReply('{"a": "x"}', schema)).toEqual({ ok: false, error: "$.a: Expected number, received string" });
    const nested = z.object({ items: z.array(z.object({ id: z.string() })) });
    expect(parseReply('{"items": [{"id": "x"}, {}]}', nested)).toEqual({ ok: false, error: "$.items[1].id: Required" });
    const broken = parseReply('{"a": 1', schema);
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.error).toMatch(/^\$: the reply is not valid JSON/);
  });
});

describe("cache keys", () => {
  const base = {
    baseUrl: "http://h/v1",
    model: "m",
    messages: [{ role: "user" as const, content: "x" }],
    jsonMode: true,
  };
  it("ignore key order, undefined fields and a trailing slash, but nothing that changes the reply", () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 2, c: undefined }] })).toBe('{"a":[1,{"d":2}],"b":1}');
    expect(cacheKey(base)).toBe(cacheKey({ ...base, baseUrl: "http://h/v1/", temperature: undefined }));
    const variants = [
      { temperature: 0 },
      { seed: 1 },
      { maxTokens: 10 },
      { jsonMode: false },
      { model: "n" },
      { messages: [{ role: "system" as const, content: "x" }] },
      { structured: true },
      { tools: [{ name: "web_search" }] },
      { continuation: [{ role: "tool", content: "r" }] },
      { api: "responses" },
    ];
    const keys = new Set([cacheKey(base), ...variants.map((v) => cacheKey({ ...base, ...v }))]);
    expect(keys.size).toBe(variants.length + 1);
    // Structured output off is the key of before it existed, so earlier caches stay valid.
    expect(cacheKey({ ...base, structured: false })).toBe(cacheKey(base));
  });

  it("are the keys stored caches were written under (pinned: the messages' fast path changes no byte)", () => {
    const messages = [
      { role: "system" as const, content: 'Be "brief" ✓\n' },
      { role: "user" as const, content: '{"a":1} \u2028 é' },
    ];
    const parts = {
      baseUrl: "http://h/v1/",
      model: "m",
      messages,
      temperature: 0.2,
      maxTokens: 100,
      seed: 7,
      jsonMode: false,
      structured: true,
    };
    expect(cacheKey(parts)).toBe("6e03c46c38fc13a57d24b9527b4dc4e06426c43e3419b3a4ce9dd5f4fd699df0");
  });
});
