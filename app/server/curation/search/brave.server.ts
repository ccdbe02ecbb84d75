/**
 * Brave: GET {url}/res/v1/web/search?q=…&count=N with X-Subscription-Token; results under web.results with a
 * description.
 */
import {
  fetchJson,
  keepResults,
  trimSlash,
  type BackendOptions,
  type JsonRequest,
  type SearchBackend,
} from "./search-http.server.ts";

interface BraveAnswer {
  web?: { results?: { url?: unknown; title?: unknown; description?: unknown }[] };
}

export function braveBackend(url: string, key: string, options: BackendOptions): SearchBackend {
  const base = trimSlash(url);
  return {
    name: "brave",
    url: base,
    async search(query, maxResults) {
      const params = new URLSearchParams({ q: query, count: String(Math.min(maxResults, 20)) });
      const init: JsonRequest = { headers: { accept: "application/json", "x-subscription-token": key } };
      const answer = (await fetchJson("brave", `${base}/res/v1/web/search?${params}`, init, options)) as BraveAnswer;
      const results = (answer.web?.results ?? []).map((r) => ({ url: r.url, title: r.title, content: r.description }));
      return keepResults(results, maxResults);
    },
  };
}
