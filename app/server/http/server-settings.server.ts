/**
 * The web server's settings from the environment, read once at start; a bad value stops the
 * server with a message naming the variable.
 *
 *   MAX_BODY_BYTES  largest request body accepted, in bytes (default 8 MiB; larger → 413)
 *   APP_ORIGIN      the origin browsers use for this app (e.g. https://studio.example.org) when it
 *                   runs behind a proxy that changes the Host header; trusted by the CSRF check
 *                   and used as the base of every request URL (so login redirects stay on it)
 *   TRUST_PROXY     express "trust proxy" (e.g. 1, loopback, 10.0.0.0/8): take the client
 *                   address and scheme from X-Forwarded-* set by that proxy; unset = the socket's
 */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface ServerSettings {
  maxBodyBytes: number;
  appOrigin: string | null;
  trustProxy: boolean | number | string;
}

function maxBodyBytes(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_MAX_BODY_BYTES;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1024)
    throw new Error(`MAX_BODY_BYTES must be a whole number of bytes, at least 1024 (got "${raw}")`);
  return n;
}

function appOrigin(raw: string | undefined): string | null {
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !["https:", "http:"].includes(url.protocol) || url.origin !== raw.replace(/\/$/, "")) {
    throw new Error(`APP_ORIGIN: "${raw}" is not an origin like https://host[:port] (no path)`);
  }
  return url.origin;
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw === "0" || raw === "false") return false;
  if (raw === "true") return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

export function serverSettings(env: Record<string, string | undefined> = process.env): ServerSettings {
  return {
    maxBodyBytes: maxBodyBytes(env.MAX_BODY_BYTES),
    appOrigin: appOrigin(env.APP_ORIGIN),
    trustProxy: trustProxy(env.TRUST_PROXY),
  };
}
