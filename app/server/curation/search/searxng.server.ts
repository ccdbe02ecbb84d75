/** SearXNG's JSON API: GET {url}/search?q=…&format=json (the instance must enable the json format). */
import { fetchJson, keepResults, trimSlash, type BackendOptions, type SearchBackend } from "./search-http.server.ts";

interface SearxngAnswer {
  results?: { url?: unknown; title?: unknown; content?: unknown }[];
}

export function searxngBackend(url: string, options: BackendOptions): SearchBackend {
  const base = trimSlash(url);
  return {
    name: "searxng",
    url: base,
    async search(query, maxResults) {
      const params = new URLSearchParams({ q: query, format: "json" });
      const answer = (await fetchJson(
        "searxng",
        `${base}/search?${params}`,
        { headers: { accept: "application/json" } },
        options,
      )) as SearxngAnswer;
      return keepResults(answer.results ?? [], maxResults);
    },
  };
}
