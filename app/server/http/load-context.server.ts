/**
 * What the web server (scripts/serve.ts) hands every loader and action besides the request: the
 * client's network address (for per-network limits; the socket's address, or the proxy's
 * X-Forwarded-For only when TRUST_PROXY is set) and the CSP nonce of this response.
 * Loaders called without the server (unit tests) get neither; the accessors say so.
 */
import { createHmac } from "node:crypto";
import { appSecret } from "../auth/secret.server.ts";

declare module "@remix-run/node" {
  interface AppLoadContext {
    clientAddress?: string;
    cspNonce?: string;
  }
}

export interface RequestContext {
  clientAddress?: string;
  cspNonce?: string;
}

/** The client's address, or "unknown" outside the web server. */
export function clientAddress(context: RequestContext | undefined): string {
  return context?.clientAddress || "unknown";
}

/**
 * A keyed hash of the client's network: the IPv4 address, or the /64 prefix of an IPv6 address
 * (one household or device usually holds a whole /64). Stored instead of the address itself.
 */
export function networkIdentity(context: RequestContext | undefined, secret = appSecret()): string {
  const address = clientAddress(context).replace(/^::ffff:/, "");
  const network = address.includes(":") ? ipv6Groups(address).slice(0, 4).join(":") : address;
  return createHmac("sha256", secret).update(`network:${network}`).digest("base64url").slice(0, 22);
}

/**
 * The eight groups of an IPv6 address, "::" expanded and leading zeros dropped, so a /64 reads the same however it was
 * written.
 */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split("%")[0].toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0");
  return [...left, ...zeros, ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}
