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
  const network = address.includes(":") ? address.split(":").slice(0, 4).join(":") : address;
  return createHmac("sha256", secret).update(`network:${network}`).digest("base64url").slice(0, 22);
}
