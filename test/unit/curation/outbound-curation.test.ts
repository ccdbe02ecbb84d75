/**
 * The attack round's curation findings, replayed against real parts on 127.0.0.1: a search
 * backend whose results point inside the network (and at a "public" page redirecting there), the
 * real LLM client against the stand-in model playing a searcher that tries to read them all, an
 * "internal" server that must receive no request, an endless backend answer, and a search
 * instance on the lab network admitted by name. Names the tests invent are mapped to 127.0.0.1 by
 * the policy's injected lookup and reachable only when allow-listed.
 */
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCurationConfig } from "../../../app/server/curation/curation-config.server.ts";
import { findSeed, SeedSearchError } from "../../../app/server/curation/searcher.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { getSeed, seedsOfDomain, type RefusedFetch } from "../../../app/server/models/seed.server.ts";
import { openDatabase, type Db } from "../../../app/server/db.server.ts";
import type { HostLookup } from "../../../app/server/net/outbound.server.ts";
import { spawnCli } from "../../helpers/cli.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { mockConfig, mockConfigJson } from "../../../app/server/llm/stand-in/config.server.ts";
import { reportOf } from "../../../app/llm-roles/searcher/stand-in.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { disputesFor } from "../../../app/llm-roles/searcher/stand-in-corpus.ts";
import { startMockLlm, type MockChatRequest, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { databasePerTest } from "../pipeline/test-db.ts";

const newDb = databasePerTest();
const SECRET = "INTERNAL-ONLY-7f3a";

interface Site {
  port: number;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  closed: number;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function site(handle: (path: string, res: ServerResponse) => void): Promise<Site> {
  const s: Site = { port: 0, requests: [], closed: 0 };
  const server: Server = createServer((req, res) => {
    s.requests.push({ path: req.url ?? "", headers: req.headers });
    handle(req.url ?? "", res);
  });
  server.on("connection", (socket) => socket.on("close", () => (s.closed += 1)));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(() => (server.closeAllConnections(), new Promise((r) => server.close(r))));
  s.port = (server.address() as AddressInfo).port;
  return s;
}

/** SearXNG's JSON API answering every query with these result URLs. */
const searxngWith = (urls: () => string[]) =>
  site((_path, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ results: urls().map((url, i) => ({ url, title: `Result ${i}`, content: "a dispute" })) }));
  });

/** A lookup for the test's own names only. */
function names(map: Record<string, string>): HostLookup {
  return async (host) => {
    if (!map[host]) throw Object.assign(new Error(host), { code: "ENOTFOUND" });
    return [{ address: map[host], family: 4 }];
  };
}

/** A searcher that reads every result it is shown, plus one address no search returned, then reports. */
function greedySearcher(): { respond: (r: MockChatRequest) => string | object; shown: string[] } {
  const shown: string[] = [];
  const respond = (request: MockChatRequest) => {
    const tools = request.messages.filter((m) => m.role === "tool");
    shown.push(...tools.map((t) => t.content));
    if (tools.length === 0) return { toolCalls: [{ name: "web_search", arguments: { query: "legal dispute" } }] };
    if (tools.length === 1) {
      if (!tools[0].content.startsWith("[")) return { noNewDispute: "the search gave no results" };
      const results = JSON.parse(tools[0].content) as { url: string }[];
      const urls = [...results.map((r) => r.url), "http://169.254.169.254/latest/meta-data/"];
      return { toolCalls: urls.map((url) => ({ name: "fetch_page", arguments: { url } })) };
    }
    return reportOf(disputesFor("legal")[0], "https://news.example.org/legal-1");
  };
  return { respond, shown };
}

async function mockLlm(respond: (r: MockChatRequest) => string | object): Promise<MockLlm> {
  const mock = await startMockLlm({ respond });
  cleanups.push(() => mock.close());
  return mock;
}

function searcherCtx(
  db: Db,
  mock: MockLlm,
  source: Record<string, unknown>,
  lookup: HostLookup,
  refusals: RefusedFetch[] = [],
) {
  const config = parseCurationConfig(
    { source: { kind: "search-tools", backend: "searxng", maxResults: 20, ...source } },
    "test.json",
  );
  return {
    db,
    llm: createLlm({ db, config: mockConfig(mock.url) }),
    config,
    lookup,
    onRefusal: (_d: string, r: RefusedFetch) => refusals.push(r),
  };
}

describe("search results pointing inside the network", () => {
  it("are never fetched nor shown to the model; refusals go to the provenance and the caller", async () => {
    const internal = await site((_p, res) => res.end(`<title>${SECRET}</title>${SECRET}`));
    const inside = `127.0.0.1:${internal.port}`;
    // A page on a "public" site (listed so the test can reach it) that redirects inside.
    const news = await site((_p, res) => (res.writeHead(302, { location: `http://${inside}/admin` }), res.end()));
    const internalUrls = [
      `http://${inside}/internal-page`,
      `http://localhost:${internal.port}/`,
      `http://2130706433:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.1/",
      "http://[fd00::1]/",
      "http://metadata.google.internal/computeMetadata/v1/",
    ];
    const redirecting = `http://news.public.example:${news.port}/story`;
    const rebinding = `http://rebind.example:${internal.port}/`;
    const searx = await searxngWith(() => [...internalUrls, redirecting, rebinding]);
    const lookup = names({
      "searx.lab": "127.0.0.1",
      "news.public.example": "127.0.0.1",
      "rebind.example": "127.0.0.1",
    });
    const greedy = greedySearcher();
    const mock = await mockLlm(greedy.respond);
    const db = await newDb();
    const refusals: RefusedFetch[] = [];
    const source = {
      url: `http://searx.lab:${searx.port}`,
      allowPrivateHosts: [`searx.lab:${searx.port}`, `news.public.example:${news.port}`],
    };

    const seed = await findSeed(searcherCtx(db, mock, source, lookup, refusals), "legal", { attempt: 0 });

    expect(internal.requests).toEqual([]);
    expect(news.requests.map((r) => r.path)).toEqual(["/story"]);
    const refused = (await getSeed(db, seed!.id))!.provenance.refused!;
    expect(refused).toEqual(refusals);
    expect(refused.map((r) => r.url)).toEqual([...internalUrls, redirecting, rebinding]);
    expect(refused.find((r) => r.url === redirecting)).toEqual({
      url: redirecting,
      redirectedTo: `http://${inside}/admin`,
      reason: "127.0.0.1 is a loopback address",
    });
    expect(refused.find((r) => r.url === rebinding)!.reason).toBe(
      "127.0.0.1 is a loopback address (rebind.example resolves to it)",
    );
    expect(refused.find((r) => r.url.includes("metadata.google"))!.reason).toMatch(/name inside a network/);
    // The model saw only the two results that looked public, and "not available" for each.
    const results = JSON.parse(greedy.shown[0]) as { url: string }[];
    expect(results.map((r) => r.url)).toEqual([redirecting, rebinding]);
    const everything = JSON.stringify(mock.requests.map((r) => r.body));
    expect(everything).toContain(`cannot fetch ${redirecting}: the page is not available`);
    expect(everything).toContain(
      "fetch_page reads only pages that web_search returned; http://169.254.169.254/latest/meta-data/ was not among them",
    );
    for (const leak of [SECRET, inside, "loopback", "localhost", "fd00::1", "metadata.google"])
      expect(everything, leak).not.toContain(leak);
    // Nor did the internal page reach the stored calls.
    const calls = JSON.stringify(db.$client.prepare("SELECT * FROM llm_calls").all());
    expect(calls).not.toContain(SECRET);
    expect(calls).not.toContain(inside);
  });
});

describe("the search backend's own answer", () => {
  it("is cut at maxAnswerBytes with a clear error, and its connection closed", async () => {
    const endless = await site((_p, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"results": [');
      const chunk = '{"url": "https://example.org/", "title": "t", "content": "c"},'.repeat(500);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", more);
      };
      more();
    });
    const greedy = greedySearcher();
    const mock = await mockLlm(greedy.respond);
    const db = await newDb();
    const source = {
      url: `http://127.0.0.1:${endless.port}`,
      allowPrivateHosts: [`127.0.0.1:${endless.port}`],
      maxAnswerBytes: 20_000,
    };
    // A failed search is the tool's answer, as before: the searcher then reports nothing new.
    expect(await findSeed(searcherCtx(db, mock, source, names({})), "legal", { attempt: 0 })).toBeNull();
    expect(greedy.shown[0]).toBe("error: searxng search failed: the answer is larger than 20000 bytes");
    await expect.poll(() => endless.closed).toBe(1);
    expect(await seedsOfDomain(db, "legal")).toEqual([]);
  });
});

describe("a search instance on the lab network", () => {
  it("is refused until its name is listed, with the setting to add named", async () => {
    const searx = await searxngWith(() => []);
    const lookup = names({ "searx.lab": "10.1.2.3" });
    const mock = await mockLlm(greedySearcher().respond);
    const unlisted = findSeed(
      searcherCtx(await newDb(), mock, { url: `http://searx.lab:${searx.port}` }, lookup),
      "legal",
      {
        attempt: 0,
      },
    );
    await expect(unlisted).rejects.toThrow(SeedSearchError);
    await expect(unlisted).rejects.toThrow(
      `searcher (legal, attempt 0): searxng search refused: refused http://searx.lab:${searx.port}: 10.1.2.3 is a private address (searx.lab resolves to it) (a search instance on your own network must be listed: "allowPrivateHosts": ["searx.lab:${searx.port}"] in curation.source)`,
    );
    // Checked before the first model turn: nothing was asked, nothing sent to the instance.
    expect(searx.requests).toEqual([]);
    expect(mock.requests).toEqual([]);
  });

  it("is reached by its name once listed, at the address checked, and only on the listed port", async () => {
    const searx = await searxngWith(() => [`http://searx.lab:${searx.port + 1}/other-service`]);
    const mock = await mockLlm(greedySearcher().respond);
    const db = await newDb();
    const refusals: RefusedFetch[] = [];
    const source = { url: `http://searx.lab:${searx.port}`, allowPrivateHosts: [`searx.lab:${searx.port}`] };
    const seed = await findSeed(searcherCtx(db, mock, source, names({ "searx.lab": "127.0.0.1" }), refusals), "legal", {
      attempt: 0,
    });
    expect(searx.requests).toHaveLength(1);
    expect(searx.requests[0].headers.host).toBe(`searx.lab:${searx.port}`);
    expect((await getSeed(db, seed!.id))!.provenance).toMatchObject({
      backend: "searxng",
      backendUrl: `http://searx.lab:${searx.port}`,
      queries: ["legal dispute"],
    });
    // Another port on the same host is not the listed instance: shown (the name looks public) but not fetched.
    expect(refusals).toEqual([
      {
        url: `http://searx.lab:${searx.port + 1}/other-service`,
        reason: "127.0.0.1 is a loopback address (searx.lab resolves to it)",
      },
    ]);
  });
});

describe("socrates curate", () => {
  it("prints each refusal and fetches nothing inside the network", async () => {
    const internal = await site((_p, res) => res.end(SECRET));
    const inside = `127.0.0.1:${internal.port}`;
    const searx = await searxngWith(() => [
      `http://${inside}/internal-page`,
      "http://169.254.169.254/latest/meta-data/",
    ]);
    const mock = await mockLlm(standInResponder({ roles: ["searcher"] }));
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const dbPath = join(dir, "curate.db");
    (await openDatabase(dbPath)).$client.close();
    const configPath = join(dir, "socrates.config.json");
    const source = {
      kind: "search-tools",
      backend: "searxng",
      url: `http://127.0.0.1:${searx.port}`,
      allowPrivateHosts: [`127.0.0.1:${searx.port}`],
    };
    writeFileSync(configPath, JSON.stringify({ ...mockConfigJson(mock.url), curation: { source } }));
    const child = spawnCli(["curate", "--domains", "legal", "--per-domain", "1", "--config", configPath], {
      SOCRATES_DB: dbPath,
    });
    cleanups.push(child.kill);
    const done = await child.exited;
    expect(done.stderr).toContain(
      `curate legal: refused http://${inside}/internal-page: 127.0.0.1 is a loopback address; not fetched, not shown to the searcher`,
    );
    expect(done.stderr).toContain(
      "curate legal: refused http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a cloud metadata address; not fetched, not shown to the searcher",
    );
    expect(internal.requests).toEqual([]);
    expect(searx.requests.length).toBeGreaterThan(0);
  });
});
