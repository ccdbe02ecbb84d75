/** What the search backends share: the result shape, one JSON request under the outbound policy, result clean-up. */
import { htmlToText } from "../../../domain/curation/search-html.ts";
import {
  OutboundRefusal,
  outboundFetch,
  type OutboundRequest,
  type OutboundResponse,
  type OutboundPolicy,
} from "../../net/outbound.server.ts";

export type JsonRequest = Pick<OutboundRequest, "method" | "headers" | "body">;

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
  /** The outbound policy every request goes through (app/server/net/outbound.server.ts). */
  policy: OutboundPolicy;
  timeoutMs: number;
  /** The most bytes of an answer; past it the search fails rather than parse half a JSON. */
  maxBytes: number;
}

/** One JSON request under the outbound policy; a non-2xx answer is an error naming the backend and status. */
export async function fetchJson(
  name: string,
  url: string,
  init: JsonRequest,
  options: BackendOptions,
): Promise<unknown> {
  let response: OutboundResponse;
  try {
    response = await outboundFetch({ url, ...init }, options.policy, {
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      overflow: "fail",
    });
  } catch (err) {
    // A refusal is the caller's to record; it must not reach the model as a message.
    if (err instanceof OutboundRefusal) throw err;
    throw new Error(`${name} search failed: ${(err as Error).message}`);
  }
  const body = response.body.toString("utf8");
  if (response.status < 200 || response.status > 299)
    throw new Error(`${name} search failed: HTTP ${response.status} ${body.slice(0, 200)}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new Error(`${name} search failed: the answer is not JSON`);
  }
}

/** Results with a usable http(s) URL, trimmed to `max`. */
export function keepResults(
  results: { url?: unknown; title?: unknown; content?: unknown }[],
  max: number,
): SearchResult[] {
  return results
    .filter(
      (r): r is { url: string; title?: unknown; content?: unknown } =>
        typeof r.url === "string" && /^https?:\/\//.test(r.url),
    )
    .slice(0, max)
    .map((r) => ({
      url: r.url,
      title: typeof r.title === "string" ? plain(r.title) : r.url,
      content: typeof r.content === "string" ? plain(r.content) : "",
    }));
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Snippets may carry markup (Brave highlights with <strong>); the model gets plain text. */
function plain(text: string): string {
  return htmlToText(text).replace(/\n/g, " ");
}
