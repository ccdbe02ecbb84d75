/**
 * The outbound fetch policy: every page or search request curation makes goes through
 * `outboundFetch`, so a search result, or a redirect, cannot make the server read its own
 * network (loopback, private, link-local, unique-local, CGNAT, metadata services, …).
 *
 * Per hop: the URL is checked as written (scheme, credentials, internal names, address literals
 * in any spelling), the name is looked up and EVERY address it resolves to must be public (or
 * the host allow-listed), and the connection goes to the address that was checked — node's own
 * lookup is replaced by one that returns it, so a second answer from DNS (rebinding) is never
 * used; the Host header and TLS server name stay the URL's. Redirects are followed here, each
 * hop checked again, at most `maxRedirects`. One deadline covers every hop and the body; the
 * body is cut at `maxBytes` (decompressed bytes).
 *
 * The lookup is injectable for tests, but that loosens nothing: its answers are classified like
 * the system resolver's. Only the allow-list admits private hosts.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import {
  isAllowListed,
  normalHost,
  parseAllowEntry,
  refusedAddress,
  refusedUrl,
  type AllowEntry,
} from "../../domain/net/outbound-hosts.ts";
import { parseIp } from "../../domain/net/ip-address.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface OutboundPolicy {
  allow: readonly AllowEntry[];
  lookup: HostLookup;
  maxRedirects: number;
}

export const DEFAULT_MAX_REDIRECTS = 5;

/** The policy from the allow-list setting (entries already validated by the config's schema). */
export function outboundPolicy(
  options: { allowPrivateHosts?: readonly string[]; lookup?: HostLookup; maxRedirects?: number } = {},
): OutboundPolicy {
  const allow = (options.allowPrivateHosts ?? []).map((text) => {
    const entry = parseAllowEntry(text);
    if ("error" in entry) throw new Error(`allowPrivateHosts: ${entry.error}`);
    return entry;
  });
  return { allow, lookup: options.lookup ?? systemLookup, maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS };
}

/** The policy refused a hop: `url` is the hop refused, `requested` the URL asked for. */
export class OutboundRefusal extends Error {
  constructor(
    readonly requested: string,
    readonly url: string,
    readonly reason: string,
    /** The refused hop was reached by a redirect. */
    readonly redirected = false,
  ) {
    super(`refused ${redirected ? `${url} (reached by redirect from ${requested})` : requested}: ${reason}`);
    this.name = "OutboundRefusal";
  }
}

export interface OutboundLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Past maxBytes: keep the first maxBytes (a page) or fail (a JSON answer cut short is useless). */
  overflow: "truncate" | "fail";
}

export interface OutboundHead {
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
}

export interface OutboundRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Called with the final answer's head before its body is read; throw to leave the body unread. */
  inspect?: (head: OutboundHead) => void;
}

export interface OutboundResponse extends OutboundHead {
  body: Buffer;
  truncated: boolean;
  /** The URLs redirected to, in order. */
  redirects: string[];
}

/** The address to connect to for this hop, or an OutboundRefusal. */
async function admit(
  url: URL,
  policy: OutboundPolicy,
  requested: string,
  redirected = false,
): Promise<ResolvedAddress> {
  const refuse = (reason: string) => new OutboundRefusal(requested, url.href, reason, redirected);
  const early = refusedUrl(url, policy.allow);
  if (early) throw refuse(early);
  const host = normalHost(url.hostname);
  const literal = parseIp(host);
  if (literal) return { address: host, family: literal.family };
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.lookup(host);
  } catch (err) {
    throw new Error(`cannot resolve ${host} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (addresses.length === 0) throw new Error(`cannot resolve ${host} (no address)`);
  const allowListed = isAllowListed(policy.allow, url);
  // One bad address is enough: which one the client would pick is the attacker's to arrange.
  for (const a of addresses) {
    const ip = parseIp(a.address);
    const why = ip ? refusedAddress(ip, allowListed) : `the resolver answered "${a.address}", not an address`;
    if (why) throw refuse(`${why} (${host} resolves to it)`);
  }
  return addresses[0];
}

/** Checks a URL as its first hop would be checked, without connecting: an OutboundRefusal, or nothing. */
export async function checkOutbound(url: string, policy: OutboundPolicy): Promise<void> {
  await admit(new URL(url), policy, url);
}

/** node's lookup, answering only the checked address (called with or without `all`). */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

interface Hop {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

function send(url: URL, target: ResolvedAddress, hop: Hop, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  const host = normalHost(url.hostname);
  return new Promise((resolve, reject) => {
    const req = client.request({
      protocol: url.protocol,
      host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: { "user-agent": "socrates-studio-curation", "accept-encoding": "gzip, deflate, br", ...hop.headers },
      lookup: pinnedLookup(target),
      // No pooled sockets: each connection is made to the address checked for this hop.
      agent: false,
      signal,
      ...(url.protocol === "https:" && !parseIp(host) ? { servername: host } : {}),
    });
    req.on("response", resolve);
    req.on("error", reject);
    req.end(hop.body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Sent on to another origin: nothing that identifies us to the first one (API keys, cookies).
const PORTABLE_HEADERS = new Set(["accept", "accept-language", "content-type"]);

function nextHop(hop: Hop, status: number, sameOrigin: boolean): Hop {
  const headers = sameOrigin
    ? hop.headers
    : Object.fromEntries(Object.entries(hop.headers).filter(([k]) => PORTABLE_HEADERS.has(k.toLowerCase())));
  if (status === 303 || ((status === 301 || status === 302) && hop.method === "POST")) {
    const { "content-type": _dropped, ...rest } = headers;
    return { method: "GET", headers: rest };
  }
  return { ...hop, headers };
}

function decoderFor(encoding: string | undefined): Transform | null {
  const name = (encoding ?? "identity").trim().toLowerCase();
  if (name === "identity" || name === "") return null;
  if (name === "gzip" || name === "x-gzip") return createGunzip();
  if (name === "deflate") return createInflate();
  if (name === "br") return createBrotliDecompress();
  throw new Error(`the answer is in an unsupported encoding (${name})`);
}

/** The body, at most maxBytes of it (decompressed); past it truncated or an error, as the limits say. */
function readBody(
  res: IncomingMessage,
  limits: OutboundLimits,
  signal: AbortSignal,
): Promise<{ body: Buffer; truncated: boolean }> {
  const tooLarge = () => new Error(`the answer is larger than ${limits.maxBytes} bytes`);
  const declared = Number(res.headers["content-length"]);
  if (limits.overflow === "fail" && !res.headers["content-encoding"] && declared > limits.maxBytes) {
    res.destroy();
    return Promise.reject(tooLarge());
  }
  const decoder = decoderFor(res.headers["content-encoding"]);
  const stream = decoder ? res.pipe(decoder) : res;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // Settles once; stopping the stream afterwards fires close and abort events that must not count.
    const finish = (outcome: () => void, stop = false) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      if (stop) {
        res.destroy();
        decoder?.destroy();
      }
      outcome();
    };
    const onAbort = () => finish(() => reject(signal.reason), true);
    signal.addEventListener("abort", onAbort, { once: true });
    stream.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size <= limits.maxBytes) return;
      if (limits.overflow === "fail") return finish(() => reject(tooLarge()), true);
      finish(() => resolve({ body: Buffer.concat(chunks).subarray(0, limits.maxBytes), truncated: true }), true);
    });
    stream.on("end", () => finish(() => resolve({ body: Buffer.concat(chunks), truncated: false })));
    stream.on("error", (err: Error) => finish(() => reject(err)));
    if (decoder) res.on("error", (err: Error) => finish(() => reject(err)));
    res.on("aborted", () => finish(() => reject(new Error("the connection closed before the answer was complete"))));
  });
}

/** Rejects when the signal fires, so a lookup that never answers cannot outlast the deadline. */
function raced<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

async function followHops(
  request: OutboundRequest,
  policy: OutboundPolicy,
  limits: OutboundLimits,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new OutboundRefusal(request.url, request.url, "not a valid URL");
  }
  let hop: Hop = { method: request.method ?? "GET", headers: request.headers ?? {}, body: request.body };
  const redirects: string[] = [];
  for (;;) {
    const target = await raced(admit(url, policy, request.url, redirects.length > 0), signal);
    const res = await send(url, target, hop, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.destroy();
      if (redirects.length >= policy.maxRedirects) throw new Error(`more than ${policy.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new Error(`redirected to an invalid address (${location.slice(0, 200)})`);
      }
      hop = nextHop(hop, status, next.origin === url.origin);
      redirects.push(next.href);
      url = next;
      continue;
    }
    const head = { url: url.href, status, headers: res.headers };
    try {
      request.inspect?.(head);
    } catch (err) {
      res.destroy();
      throw err;
    }
    const { body, truncated } = await readBody(res, limits, signal);
    return { ...head, body, truncated, redirects };
  }
}

/** One request under the policy; a refusal is an OutboundRefusal, a timeout "no answer within N ms". */
export async function outboundFetch(
  request: OutboundRequest,
  policy: OutboundPolicy,
  limits: OutboundLimits,
): Promise<OutboundResponse> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    return await followHops(request, policy, limits, signal);
  } catch (err) {
    if (signal.aborted && !(err instanceof OutboundRefusal)) throw new Error(`no answer within ${limits.timeoutMs} ms`);
    throw err;
  }
}
