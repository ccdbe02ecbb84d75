/**
 * A web search backend the searcher's model calls through a tool: SearXNG (a self-hosted
 * instance's JSON API, no key), Tavily or Brave (hosted, keyed from the environment). Each turns
 * a query into a few results of the same shape; HTTP errors become thrown messages the tool loop
 * shows the model.
 */
import { formatJsonPath } from "../../../domain/judge-problems.ts";
import { LlmConfigError, type Env } from "../../llm/config.server.ts";
import type { SearchToolsConfig } from "../curation-config.server.ts";
import { braveBackend } from "./brave.server.ts";
import type { BackendOptions, SearchBackend } from "./search-http.server.ts";
import { searxngBackend } from "./searxng.server.ts";
import { tavilyBackend } from "./tavily.server.ts";

export type { BackendOptions, SearchBackend, SearchResult } from "./search-http.server.ts";

export const DEFAULT_URLS = { tavily: "https://api.tavily.com", brave: "https://api.search.brave.com" } as const;
const DEFAULT_KEY_ENV = { tavily: "TAVILY_API_KEY", brave: "BRAVE_API_KEY" } as const;

/** The configured backend; a hosted backend's key is read from the environment now, so a missing key fails early. */
export function searchBackendFor(
  source: SearchToolsConfig,
  options: BackendOptions,
  env: Env = process.env,
  configFile = "config",
): SearchBackend {
  if (source.backend === "searxng") return searxngBackend(source.url!, options);
  const variable = source.apiKeyEnv ?? DEFAULT_KEY_ENV[source.backend];
  const key = env[variable];
  if (!key) {
    throw new LlmConfigError(
      `${configFile}: ${formatJsonPath(["curation", "source", "apiKeyEnv"])}: environment variable ${variable} is not set (the ${source.backend} key)`,
    );
  }
  const url = source.url ?? DEFAULT_URLS[source.backend];
  return source.backend === "tavily" ? tavilyBackend(url, key, options) : braveBackend(url, key, options);
}
