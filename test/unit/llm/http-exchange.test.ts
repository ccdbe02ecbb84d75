/**
 * The SDK's fetch (lean-fetch.server.ts) against a real local server: what it sends, what it
 * answers, and the error shapes the SDK's classification relies on (a socket failure as
 * TypeError("fetch failed") with the socket's error as cause, an abort as an AbortError).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leanFetch } from "../../../app/server/llm/http-exchange.server.ts";

let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url === "/echo") {
        res.writeHead(201, "Made", { "content-type": "application/json", "x-twice": ["a", "b"] });
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }));
      } else if (req.url === "/empty") {
        res.writeHead(204).end();
      } else if (req.url === "/drop") {
        res.writeHead(200, { "content-length": "100" });
        res.write("partial");
        setTimeout(() => res.socket?.destroy(), 10);
      } else if (req.url === "/slow") {
        setTimeout(() => res.end("late"), 2000);
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("leanFetch", () => {
  it("sends method, headers and body, and answers status, headers and body as a Response", async () => {
    const headers = new Headers({ authorization: "Bearer k", "content-type": "application/json" });
    const res = await leanFetch(`${base}/echo`, { method: "POST", headers, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe("Made");
    expect(res.ok).toBe(true);
    expect(res.headers.get("x-twice")).toBe("a, b");
    expect(await res.json()).toEqual({ method: "POST", auth: "Bearer k", body: '{"a":1}' });
  });

  it("answers a 204 with no body", async () => {
    const res = await leanFetch(`${base}/empty`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("fails a dropped connection as fetch does: TypeError('fetch failed') caused by the socket's error", async () => {
    const error = await leanFetch(`${base}/drop`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("fails a refused connection with the socket's message as cause", async () => {
    const error = (await leanFetch("http://127.0.0.1:9/x").catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("fetch failed");
    expect(String((error.cause as Error).message)).toMatch(/ECONNREFUSED/);
  });

  it("rejects with an AbortError when its signal aborts, before or during the request", async () => {
    const controller = new AbortController();
    const pending = leanFetch(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(leanFetch(`${base}/echo`, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
