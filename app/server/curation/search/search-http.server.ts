/** What the search backends share: the result shape, one JSON request with a timeout, result clean-up. */
import { htmlToText } from "../../../domain/curation/search-html.ts";

export interface SearchResult {
  url: string;
  title: string;
  /** The snippet the backend gives for the result. */
  content: string;
}

export interface SearchBackend {
  /** searxng | tavily | brave, and where it is, for a seed's provenance. */
  name: string;
  url: string;
  search(query: string, maxResults: number): Promise<SearchResult[]>;
}

export interface BackendOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

/** One JSON request with a timeout; a non-2xx answer is an error naming the backend and status. */
export async function fetchJson(name: string, url: string, init: RequestInit, options: BackendOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await options.fetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (err) {
    throw new Error(`${name} search failed: ${(err as Error).name === "TimeoutError" ? `no answer within ${options.timeoutMs} ms` : (err as Error).message}`);
  }
  const body = await response.text();
  if (!response.ok) throw new Error(`${name} search failed: HTTP ${response.status} ${body.slice(0, 200)}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${name} search failed: the answer is not JSON`);
  }
}

/** Results with a usable http(s) URL, trimmed to `max`. */
export function keepResults(results: { url?: unknown; title?: unknown; content?: unknown }[], max: number): SearchResult[] {
  return results
    .filter((r): r is { url: string; title?: unknown; content?: unknown } => typeof r.url === "string" && /^https?:\/\//.test(r.url))
    .slice(0, max)
    .map((r) => ({ url: r.url, title: typeof r.title === "string" ? plain(r.title) : r.url, content: typeof r.content === "string" ? plain(r.content) : "" }));
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Snippets may carry markup (Brave highlights with <strong>); the model gets plain text. */
function plain(text: string): string {
  return htmlToText(text).replace(/\n/g, " ");
}
