/**
 * A stand-in web search server for tests and `socrates mock-llm`: never a real search engine.
 * It answers the three backends' request shapes over the same invented disputes
 * (./search-corpus.ts) and serves the pages its results link, so fetching and reducing cited
 * pages is exercised end to end:
 *   GET  /search?q=…&format=json          SearXNG's JSON API
 *   POST /search {query, max_results}     Tavily (Authorization: Bearer …)
 *   GET  /res/v1/web/search?q=…&count=N   Brave (X-Subscription-Token)
 *   GET  /pages/<slug>                    the linked pages (HTML)
 * A query naming a domain (e.g. "healthcare", "business-to-business") finds that domain's
 * disputes in a fixed order; any other query matches titles word by word. Every request is
 * recorded (method, path, query, headers, body) so tests can check what a backend sent.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { DOMAINS } from "../../../domain/bundle.ts";
import {
  pageHtml,
  pagePath,
  STAND_IN_DISPUTES,
  type StandInDispute,
} from "../../../llm-roles/searcher/stand-in-corpus.ts";

export interface SearchRequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface StandInSearch {
  /** Base URL (no trailing slash): the SearXNG `url`, and the Tavily/Brave base for tests. */
  url: string;
  requests: SearchRequestRecord[];
  close(): Promise<void>;
}

export interface StandInSearchOptions {
  port?: number;
  /** Require this key from Tavily- and Brave-shaped requests (401 otherwise). */
  apiKey?: string;
}

/** The disputes a query finds: a named domain's, else those sharing a word with the title. */
export function searchDisputes(query: string, max = 10): StandInDispute[] {
  const q = query.toLowerCase();
  const domain = [...DOMAINS]
    .sort((a, b) => b.length - a.length)
    .find((d) => q.includes(d) || q.includes(d.replace(/-/g, " ")));
  if (domain) return STAND_IN_DISPUTES.filter((d) => d.domain === domain).slice(0, max);
  const words = q.split(/[^a-z0-9]+/).filter((w) => w.length > 3);
  return STAND_IN_DISPUTES.filter((d) => words.some((w) => d.title.toLowerCase().includes(w))).slice(0, max);
}

export async function startSearchServer(options: StandInSearchOptions = {}): Promise<StandInSearch> {
  const requests: SearchRequestRecord[] = [];
  let base = "";
  const result = (d: StandInDispute) => ({ url: `${base}${pagePath(d)}`, title: d.title, content: d.summary });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text || undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the text */
      }
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      const keyed = (given: string | undefined) => options.apiKey === undefined || given === options.apiKey;

      if (req.method === "GET" && url.pathname === "/search") {
        if (url.searchParams.get("format") !== "json") return json(403, { error: "format=json required" });
        const q = url.searchParams.get("q") ?? "";
        return json(200, {
          query: q,
          number_of_results: 0,
          results: searchDisputes(q).map((d) => ({ ...result(d), engine: "stand-in" })),
        });
      }
      if (req.method === "POST" && url.pathname === "/search") {
        if (!keyed(req.headers.authorization?.replace(/^Bearer /, "")))
          return json(401, { detail: { error: "Unauthorized: missing or invalid API key." } });
        const b = (body ?? {}) as { query?: string; max_results?: number };
        return json(200, {
          query: b.query,
          results: searchDisputes(b.query ?? "", b.max_results ?? 5).map((d) => ({ ...result(d), score: 0.9 })),
        });
      }
      if (req.method === "GET" && url.pathname === "/res/v1/web/search") {
        if (!keyed(req.headers["x-subscription-token"] as string | undefined))
          return json(401, { type: "ErrorResponse", error: { status: 401 } });
        const found = searchDisputes(url.searchParams.get("q") ?? "", Number(url.searchParams.get("count") ?? 10));
        return json(200, {
          type: "search",
          web: {
            type: "search",
            results: found.map((d) => ({
              url: result(d).url,
              title: d.title,
              description: `<strong>${d.title}</strong>: ${d.summary}`,
            })),
          },
        });
      }
      const page = STAND_IN_DISPUTES.find((d) => pagePath(d) === url.pathname);
      if (req.method === "GET" && page) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(pageHtml(page));
      }
      json(404, { error: `stand-in search: no route ${req.method} ${url.pathname}` });
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
