/**
 * The three search backends and page fetching, over real HTTP against the stand-in search server
 * (on 127.0.0.1, so allow-listed by host and port like a lab's own SearXNG would be).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCurationConfig, type SearchToolsConfig } from "../../../app/server/curation/curation-config.server.ts";
import { searchBackendFor } from "../../../app/server/curation/search/backend.server.ts";
import { fetchPage } from "../../../app/server/curation/search/fetch-page.server.ts";
import { outboundPolicy } from "../../../app/server/net/outbound.server.ts";
import { startSearchServer, type StandInSearch } from "../../../app/server/llm/stand-in/search.server.ts";

let server: StandInSearch;
beforeAll(async () => {
  server = await startSearchServer({ apiKey: "test-key" });
});
afterAll(() => server.close());

const standIn = () => outboundPolicy({ allowPrivateHosts: [new URL(server.url).host] });
const options = () => ({ policy: standIn(), timeoutMs: 5000, maxBytes: 100_000 });
function sourceOf(search: Record<string, unknown>): SearchToolsConfig {
  const config = parseCurationConfig({ source: { kind: "search-tools", ...search } }, "test.json");
  return config.source as SearchToolsConfig;
}

describe("search backends", () => {
  it("asks SearXNG's JSON API and keeps url, title and snippet", async () => {
    const backend = searchBackendFor(sourceOf({ backend: "searxng", url: `${server.url}/` }), options());
    const results = await backend.search("healthcare dispute", 3);
    expect(results).toHaveLength(3);
    expect(results[0].url).toBe(`${server.url}/pages/healthcare-1`);
    expect(results[0].title).toContain("hospital unit closure");
    const sent = server.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "GET", path: "/search", query: { q: "healthcare dispute", format: "json" } });
  });

  it("sends Tavily a POST with the bearer key from the named environment variable", async () => {
    const source = sourceOf({ backend: "tavily", url: server.url, apiKeyEnv: "MY_TAVILY" });
    const backend = searchBackendFor(source, options(), { MY_TAVILY: "test-key" });
    const results = await backend.search("legal dismissal", 2);
    expect(results.map((r) => r.url)).toEqual([`${server.url}/pages/legal-1`, `${server.url}/pages/legal-2`]);
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.headers.authorization).toBe("Bearer test-key");
    expect(sent.body).toMatchObject({ query: "legal dismissal", max_results: 2 });
  });

  it("sends Brave a GET with X-Subscription-Token and reads web.results, markup stripped", async () => {
    const backend = searchBackendFor(sourceOf({ backend: "brave", url: server.url }), options(), {
      BRAVE_API_KEY: "test-key",
    });
    const results = await backend.search("international fishing", 2);
    expect(results).toHaveLength(2);
    expect(results[0].content).not.toContain("<strong>");
    const sent = server.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: "GET",
      path: "/res/v1/web/search",
      query: { q: "international fishing", count: "2" },
    });
    expect(sent.headers["x-subscription-token"]).toBe("test-key");
  });

  it("reports a wrong key as the backend's HTTP error, and a missing key before any request", async () => {
    const wrong = searchBackendFor(sourceOf({ backend: "brave", url: server.url }), options(), {
      BRAVE_API_KEY: "nope",
    });
    await expect(wrong.search("legal", 1)).rejects.toThrow(/brave search failed: HTTP 401/);
    expect(() => searchBackendFor(sourceOf({ backend: "tavily" }), options(), {}, "socrates.config.json")).toThrow(
      /socrates\.config\.json: \$\.curation\.source\.apiKeyEnv: environment variable TAVILY_API_KEY is not set/,
    );
  });
});

describe("fetching a cited page", () => {
  const pages = { timeoutMs: 5000, maxBytes: 1_000_000, maxChars: 6000 };

  it("reduces the page to its readable text and title", async () => {
    const page = await fetchPage(`${server.url}/pages/environmental-2`, pages, standIn());
    expect(page.title).toContain("river water allocation");
    expect(page.text).toContain("Birchfield river water allocation dispute");
    expect(page.text).not.toContain("never shown");
    expect(page.text).not.toContain("<");
    expect(page.truncated).toBe(false);
  });

  it("cuts text to the character budget and stops reading at the byte cap", async () => {
    const short = await fetchPage(`${server.url}/pages/environmental-2`, { ...pages, maxChars: 200 }, standIn());
    expect(short.text.length).toBeLessThanOrEqual(200);
    const big = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("word ".repeat(100_000));
    });
    await new Promise<void>((resolve) => big.listen(0, "127.0.0.1", resolve));
    try {
      const host = `127.0.0.1:${(big.address() as AddressInfo).port}`;
      const capped = await fetchPage(
        `http://${host}/`,
        { ...pages, maxBytes: 2000, maxChars: 100_000 },
        outboundPolicy({ allowPrivateHosts: [host] }),
      );
      expect(capped.truncated).toBe(true);
      expect(capped.text.length).toBeLessThanOrEqual(2000);
    } finally {
      big.closeAllConnections();
      big.close();
    }
  });

  it("refuses non-http URLs, error statuses and binary content", async () => {
    await expect(fetchPage("file:///etc/passwd", pages, standIn())).rejects.toThrow(/only http and https/);
    await expect(fetchPage(`${server.url}/pages/nowhere`, pages, standIn())).rejects.toThrow(/HTTP 404/);
    await expect(fetchPage(`${server.url}/search?q=legal&format=json`, pages, standIn())).rejects.toThrow(
      /not a text page/,
    );
  });
});
