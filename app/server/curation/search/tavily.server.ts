/** Tavily: POST {url}/search with a bearer key and { query, max_results }; results carry url, title, content. */
import {
  fetchJson,
  keepResults,
  trimSlash,
  type BackendOptions,
  type JsonRequest,
  type SearchBackend,
} from "./search-http.server.ts";

interface TavilyAnswer {
  results?: { url?: unknown; title?: unknown; content?: unknown }[];
}

export function tavilyBackend(url: string, key: string, options: BackendOptions): SearchBackend {
  const base = trimSlash(url);
  return {
    name: "tavily",
    url: base,
    async search(query, maxResults) {
      const init: JsonRequest = {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ query, max_results: maxResults, search_depth: "basic", include_answer: false }),
      };
      const answer = (await fetchJson("tavily", `${base}/search`, init, options)) as TavilyAnswer;
      return keepResults(answer.results ?? [], maxResults);
    },
  };
}
