/**
 * findSeed end to end over real HTTP: the real LLM client against the stand-in LLM (its searcher
 * responder) and the stand-in search server; seeds stored in a real SQLite file.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Domain } from "../../../app/domain/bundle.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { parseCurationConfig } from "../../../app/server/curation/curation-config.server.ts";
import { findSeed, SeedSearchError } from "../../../app/server/curation/searcher.server.ts";
import { SeedFileError } from "../../../app/server/curation/search/files-source.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { getSeed, seedsOfDomain } from "../../../app/server/models/seed.server.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { reportOf } from "../../../app/llm-roles/searcher/stand-in.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { disputesFor } from "../../../app/llm-roles/searcher/stand-in-corpus.ts";
import { startSearchServer, type StandInSearch } from "../../../app/server/llm/stand-in/search.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { databasePerTest } from "../pipeline/test-db.ts";

const newDb = databasePerTest();
let search: StandInSearch;
let mock: MockLlm;

beforeAll(async () => {
  search = await startSearchServer();
  mock = await startMockLlm({ respond: standInResponder({ roles: ["searcher"], searchUrl: search.url }) });
});
afterAll(async () => {
  await mock.close();
  await search.close();
});

function searcher(db: Db, source: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const config = parseCurationConfig({ source, ...extra }, "test.json");
  return { db, llm: createLlm({ db, config: mockConfig(mock.url) }), config };
}
// The stand-in and its pages are on 127.0.0.1: listed like a lab's own search instance.
const searxng = () => ({
  kind: "search-tools",
  backend: "searxng",
  url: search.url,
  allowPrivateHosts: [new URL(search.url).host],
});
const llmRequests = () => mock.requests.filter((r) => r.path.startsWith("/v1/")).length;

describe("findSeed with a chat model and a search backend", () => {
  it("searches, reads the cited page and stores the report with its provenance", async () => {
    const db = await newDb();
    const seed = await findSeed(searcher(db, searxng()), "healthcare", { attempt: 0 });
    expect(seed).toMatchObject({
      domain: "healthcare",
      title: "Alder Bay hospital unit closure dispute",
      sourceKind: "search-tools",
    });
    expect(seed!.report.parties).toHaveLength(2);
    expect(seed!.sources).toEqual([
      { url: `${search.url}/pages/healthcare-1`, title: expect.stringContaining("hospital unit closure") },
    ]);
    const stored = (await getSeed(db, seed!.id))!;
    expect(stored.provenance).toMatchObject({
      attempt: 0,
      retry: 0,
      model: "mock-model",
      backend: "searxng",
      backendUrl: search.url,
      queries: ["healthcare dispute negotiation stalled"],
      pages: [`${search.url}/pages/healthcare-1`],
    });
    expect(stored.provenance.unverifiedSources).toBeUndefined();
    // The page was fetched from the search server, and the model saw its reduced text.
    expect(search.requests.some((r) => r.path === "/pages/healthcare-1")).toBe(true);
    const toolTurn = mock.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    const page = toolTurn.messages.filter((m) => m.role === "tool").at(-1)!.content;
    expect(page).toContain("Alder Bay hospital unit closure dispute");
    expect(page).not.toMatch(/<p>|never shown/);
  });

  it("finds different disputes for different domains and attempts, and the same one again without a call", async () => {
    const db = await newDb();
    const ctx = searcher(db, searxng());
    const a = await findSeed(ctx, "legal", { attempt: 0 });
    const b = await findSeed(ctx, "legal", { attempt: 1 });
    const c = await findSeed(ctx, "environmental", { attempt: 0 });
    expect(new Set([a!.id, b!.id, c!.id]).size).toBe(3);
    const before = llmRequests();
    expect(await findSeed(ctx, "legal", { attempt: 1 })).toEqual(b);
    expect(llmRequests()).toBe(before);
  });

  it("asks again with a stored dispute excluded, and answers null when only stored ones are left", async () => {
    const db = await newDb();
    const ctx = searcher(db, searxng());
    const first = await findSeed(ctx, "transactional", { attempt: 0 });
    // A search returns five results (maxResults' default), so round 5 picks the first dispute again:
    // a duplicate, and the searcher is asked once more without it.
    const n = 5;
    const fresh = await findSeed(ctx, "transactional", { attempt: n });
    expect(fresh!.id).not.toBe(first!.id);
    expect((await getSeed(db, fresh!.id))!.provenance).toMatchObject({ attempt: n, retry: 1 });
    const lastAsk = mock.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!.body as {
      messages: { role: string; content: string }[];
    };
    expect(lastAsk.messages[1].content).toContain(`- ${first!.title} (`);
    for (let attempt = 1; attempt < n; attempt++) await findSeed(ctx, "transactional", { attempt });
    expect(await seedsOfDomain(db, "transactional")).toHaveLength(n);
    expect(await findSeed(ctx, "transactional", { attempt: n + 1 })).toBeNull();
  });

  it("answers null, not an error, when the searcher replies that it found nothing new", async () => {
    const db = await newDb();
    const ctx = searcher(db, searxng());
    // The search returns five disputes; with all five excluded the stand-in says so ({"noNewDispute": …}).
    const exclude = disputesFor("legal")
      .slice(0, 5)
      .map((d) => d.title);
    expect(await findSeed(ctx, "legal", { attempt: 0, exclude })).toBeNull();
    expect(await seedsOfDomain(db, "legal")).toEqual([]);
    // It was asked (nothing was decided without the model), and its answer is stored as a call like any other.
    expect(mock.requests.filter((r) => r.path === "/v1/chat/completions").length).toBeGreaterThan(0);
  });

  it("never returns a dispute the caller excluded", async () => {
    const db = await newDb();
    const ctx = searcher(db, searxng());
    const seed = await findSeed(ctx, "international", { attempt: 0, exclude: ["Alder Bay fishing rights dispute"] });
    expect(seed!.title).not.toBe("Alder Bay fishing rights dispute");
  });

  it("reports a failed search as a SeedSearchError and stores nothing", async () => {
    const db = await newDb();
    const ctx = searcher(db, searxng());
    mock.setFaults([{ fault: { kind: "status", status: 400, message: "bad request" } }]);
    const failed = findSeed(ctx, "legal", { attempt: 0 });
    await expect(failed).rejects.toBeInstanceOf(SeedSearchError);
    await expect(failed).rejects.toThrow(/searcher \(legal, attempt 0\): .*400/);
    expect(await seedsOfDomain(db, "legal")).toEqual([]);
  });
});

describe("the fetch_page tool", () => {
  it("reads only pages a search returned, and tells the model so", async () => {
    const seen: string[] = [];
    const rogue = await startMockLlm({
      respond: (request) => {
        const tool = request.messages.find((m) => m.role === "tool");
        if (!tool)
          return { toolCalls: [{ name: "fetch_page", arguments: { url: "http://169.254.169.254/latest/meta-data" } }] };
        seen.push(tool.content);
        return reportOf(disputesFor("legal")[0], "https://news.example.org/legal-1");
      },
    });
    try {
      const db = await newDb();
      const config = parseCurationConfig({ source: searxng() }, "test.json");
      const seed = await findSeed({ db, llm: createLlm({ db, config: mockConfig(rogue.url) }), config }, "legal", {
        attempt: 0,
      });
      expect(seed!.title).toBe(disputesFor("legal")[0].title);
      // It cited a page no search returned: kept, and named for the researcher.
      expect((await getSeed(db, seed!.id))!.provenance.unverifiedSources).toEqual(["https://news.example.org/legal-1"]);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/fetch_page reads only pages that web_search returned/);
      expect(search.requests.some((r) => r.path.includes("meta-data"))).toBe(false);
    } finally {
      await rogue.close();
    }
  });
});

describe("findSeed with built-in web research", () => {
  it("stores the report with the reply's url citations as its sources", async () => {
    const db = await newDb();
    const seed = await findSeed(searcher(db, { kind: "web-research" }), "public-policy", { attempt: 2 });
    expect(seed).toMatchObject({ sourceKind: "web-research", title: "Cedar Falls transit fare reform dispute" });
    expect(seed!.sources.map((s) => s.url)).toEqual([`${search.url}/pages/public-policy-3`]);
    expect((await getSeed(db, seed!.id))!.provenance).toMatchObject({
      attempt: 2,
      backend: "openai-responses:web_search_preview",
      model: "mock-model",
    });
    expect(mock.requests.at(-1)!.path).toBe("/v1/responses");
  });
});

describe("findSeed from a folder of seed files", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "seeds-"));
    const report = (title: string, a: string, b: string) =>
      `# ${title}\n## Summary\nA fight.\n## Parties\n- ${a}: one side\n- ${b}: other side\n## Issues\n- money\n## Status\nopen\n`;
    writeFileSync(
      join(dir, "a-harbour.md"),
      `---\ndomain: legal\n---\n${report("Harbour lease dispute", "Harbour Co", "Tenants Union")}`,
    );
    // The same dispute written up twice, differently: stored once.
    writeFileSync(
      join(dir, "b-harbour-again.md"),
      `---\ndomain: legal\n---\n${report("The harbour LEASE dispute!", "Tenants Union", "Harbour Co.")}`,
    );
    mkdirSync(join(dir, "legal"));
    writeFileSync(
      join(dir, "legal", "c-notes.txt"),
      "# Orchard boundary quarrel\nA long quarrel between Orchard Farm and the Parish Council, over a hedge. See https://example.org/hedge.",
    );
    writeFileSync(
      join(dir, "d-other.md"),
      `---\ndomain: healthcare\n---\n${report("Clinic hours", "Clinic", "Nurses")}`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("takes each file once in name order, de-duplicated, structuring free text with the model, then null", async () => {
    const db = await newDb();
    const ctx = searcher(db, { kind: "files", dir });
    const calls = llmRequests();
    const first = await findSeed(ctx, "legal", { attempt: 0 });
    expect(first).toMatchObject({ title: "Harbour lease dispute", sourceKind: "files", sources: [] });
    expect((await getSeed(db, first!.id))!.provenance).toEqual({ attempt: 0, file: join(dir, "a-harbour.md") });
    expect(llmRequests()).toBe(calls); // a structured file needs no model
    const second = await findSeed(ctx, "legal", { attempt: 1 });
    expect(second!.title).toBe("Orchard boundary quarrel");
    expect(second!.report.parties.map((p) => p.name)).toEqual(["Orchard Farm", "Parish Council"]);
    expect((await getSeed(db, second!.id))!.provenance).toMatchObject({
      file: join(dir, "legal", "c-notes.txt"),
      model: "mock-model",
    });
    expect(llmRequests()).toBe(calls + 1);
    expect(await findSeed(ctx, "legal", { attempt: 2 })).toBeNull();
    expect((await findSeed(ctx, "healthcare", { attempt: 0 }))!.title).toBe("Clinic hours");
  });

  it("names the file and the problem when a structured file is incomplete", async () => {
    const bad = mkdtempSync(join(tmpdir(), "seeds-bad-"));
    try {
      writeFileSync(
        join(bad, "x.md"),
        "---\ndomain: legal\n---\n# Lonely\n## Parties\n- Only: one\n## Summary\nx\n## Issues\n- y\n## Status\nopen\n",
      );
      const ctx = searcher(await newDb(), { kind: "files", dir: bad });
      await expect(findSeed(ctx, "legal" as Domain, { attempt: 0 })).rejects.toThrow(SeedFileError);
      await expect(findSeed(ctx, "legal", { attempt: 0 })).rejects.toThrow(
        /x\.md: not a usable seed report:\n {2}parties: a dispute has at least two parties/,
      );
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

afterEach(() => mock.setFaults([]));
