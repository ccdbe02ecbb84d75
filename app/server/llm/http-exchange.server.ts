/**
 * One HTTP request on node:http(s) with keep-alive agents, its whole answer read into one buffer.
 * The LLM client's transport: node's built-in fetch (undici) spent about 350 µs of CPU per chat
 * completion on web streams, abort signals and header objects, and the SDK around it about 250 µs
 * more, against about 140 µs for this exchange (bench:benchmark makes thousands a minute).
 * `leanFetch` gives the same exchange to the OpenAI SDK for its other requests, with fetch's
 * shapes: a Response, a socket failure as TypeError("fetch failed") caused by the socket's error,
 * an abort as an AbortError.
 */
import http from "node:http";
import https from "node:https";

const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

export interface Exchanged {
  status: number;
  statusText: string;
  /** Name, value, name, value… as received (node's rawHeaders). */
  rawHeaders: string[];
  body: Buffer;
}

export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** The whole exchange's time limit: past it the request is dropped and rejects with ExchangeTimeout. */
  timeoutMs?: number;
}

/** The rejection of an exchange that ran past its `timeoutMs`. */
export class ExchangeTimeout extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
  }
}

/** True when `url` is served by `exchange` (http and https); anything else goes to the built-in fetch. */
export const exchangeable = (url: URL) => url.protocol in agents;

/**
 * Sends one request and reads its whole answer. Rejects with the socket's error, or with the
 * signal's reason once it aborts; an answer cut short rejects as the socket's reset would.
 */
export function exchange(url: URL, o: ExchangeOptions): Promise<Exchanged> {
  const { signal } = o;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const transport = url.protocol === "https:" ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  return new Promise<Exchanged>((resolve, reject) => {
    const req = transport.request(url, { method: o.method, headers: o.headers, agent });
    const onAbort = () => req.destroy(abortReason(signal as AbortSignal) as Error);
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      o.timeoutMs === undefined
        ? undefined
        : setTimeout(() => req.destroy(new ExchangeTimeout(o.timeoutMs as number)), o.timeoutMs);
    const settle = (err: unknown, value?: Exchanged) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (value) resolve(value);
      else reject(signal?.aborted ? abortReason(signal) : err);
    };
    req.on("error", settle);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", settle);
      res.on("end", () => {
        if (!res.complete) return settle(new Error("other side closed"));
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        settle(undefined, {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          rawHeaders: res.rawHeaders,
          body,
        });
      });
    });
    req.end(o.body);
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** A Headers object of an answer's raw headers. */
export function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  return headers;
}

/** Statuses whose Response must have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  for (const [name, value] of init instanceof Headers ? init : new Headers(init)) out[name] = value;
  return out;
}

/** `fetch` for the OpenAI SDK's requests other than chat completions (GET /models, the Responses API). */
export async function leanFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const body = init.body;
  const plain = body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  const url = input instanceof Request ? undefined : new URL(input);
  if (!url || !plain || !exchangeable(url)) return fetch(input, init);
  let got: Exchanged;
  try {
    got = await exchange(url, {
      method: init.method ?? "GET",
      headers: headerRecord(init.headers),
      body: body ?? undefined,
      signal: init.signal ?? undefined,
    });
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new TypeError("fetch failed", { cause: err });
  }
  const bytes = new Uint8Array(got.body.buffer as ArrayBuffer, got.body.byteOffset, got.body.byteLength);
  return new Response(NO_BODY.has(got.status) || bytes.byteLength === 0 ? null : bytes, {
    status: got.status,
    statusText: got.statusText,
    headers: headersOf(got.rawHeaders),
  });
}
