/** The `curation` section of socrates.config.json. */
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../app/domain/bundle.ts";
import { curationConfigOf, parseCurationConfig } from "../../../app/server/curation/curation-config.server.ts";
import { loadLlmConfig, parseLlmConfig } from "../../../app/server/llm/config.server.ts";

describe("curation config", () => {
  it("fills the defaults: 5 per domain, 3 replays, all eight domains", () => {
    const config = parseCurationConfig({ source: { kind: "files", dir: "seeds" } }, "socrates.config.json");
    expect(config).toMatchObject({
      perDomain: 5,
      replays: 3,
      domains: [...DOMAINS],
      source: { kind: "files", dir: "seeds" },
    });
  });

  it("reads each source kind with its settings", () => {
    const tools = parseCurationConfig(
      { source: { kind: "search-tools", backend: "searxng", url: "http://127.0.0.1:8888" }, perDomain: 2 },
      "f.json",
    );
    expect(tools.source).toMatchObject({
      kind: "search-tools",
      backend: "searxng",
      maxResults: 5,
      maxSteps: 6,
      pages: { maxChars: 6000 },
      maxAnswerBytes: 2_000_000,
      allowPrivateHosts: [],
    });
    const web = parseCurationConfig({ source: { kind: "web-research" }, domains: ["legal"] }, "f.json");
    expect(web.source).toEqual({ kind: "web-research", tool: "web_search_preview" });
    expect(web.domains).toEqual(["legal"]);
  });

  it("names the file and the JSON path of every problem", () => {
    const bad = () =>
      parseCurationConfig(
        { source: { kind: "search-tools", backend: "searxng", apiKeyEnv: "X" }, replays: 0, domains: ["sports"] },
        "socrates.config.json",
      );
    expect(bad).toThrow(
      /socrates\.config\.json: \$\.curation\.source\.url: the searxng backend needs the instance's url/,
    );
    expect(bad).toThrow(/\$\.curation\.source\.apiKeyEnv: the searxng backend takes no key/);
    expect(bad).toThrow(/socrates\.config\.json: \$\.curation\.replays:/);
    expect(bad).toThrow(/\$\.curation\.domains\[0\]:/);
    expect(() =>
      parseCurationConfig(
        { source: { kind: "search-tools", backend: "tavily", apiKeyEnv: "sk-live-123 abc" } },
        "f.json",
      ),
    ).toThrow(/\$\.curation\.source\.apiKeyEnv: expected the name of an environment variable/);
    expect(() => parseCurationConfig({ source: { kind: "carrier-pigeon" } }, "f.json")).toThrow(
      /f\.json: \$\.curation\.source\.kind:/,
    );
    const allow = (allowPrivateHosts: unknown) => () =>
      parseCurationConfig(
        { source: { kind: "search-tools", backend: "searxng", url: "http://searx.lab:8888", allowPrivateHosts } },
        "f.json",
      );
    expect(allow(["searx.lab:8888", "10.0.0.5"])).not.toThrow();
    expect(allow(["searx.lab", "http://searx.lab:8888/"])).toThrow(
      /f\.json: \$\.curation\.source\.allowPrivateHosts\[1\]: expected a host name or address, optionally with :port/,
    );
    expect(allow(["searx.lab:99999"])).toThrow(
      /\$\.curation\.source\.allowPrivateHosts\[0\]: port 99999 is out of range/,
    );
  });

  it("reads the section of a loaded LLM configuration, and says when it is missing", () => {
    const base = { endpoints: { e: { baseUrl: "http://127.0.0.1:1/v1" } }, roles: {} };
    const llm = parseLlmConfig({ ...base, curation: { source: { kind: "files", dir: "x" } } }, "socrates.config.json");
    expect(curationConfigOf(llm).source).toEqual({ kind: "files", dir: "x" });
    expect(() => curationConfigOf(parseLlmConfig(base, "socrates.config.json"))).toThrow(
      /socrates\.config\.json: \$\.curation: no curation section/,
    );
  });
});

describe("the example configuration", () => {
  it("has a valid curation section", () => {
    const config = curationConfigOf(loadLlmConfig("socrates.config.example.json"));
    expect(config.source).toMatchObject({ kind: "search-tools", backend: "searxng" });
    expect(config.perDomain).toBe(5);
  });
});
