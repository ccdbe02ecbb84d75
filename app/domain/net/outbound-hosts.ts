/**
 * Host names for the outbound fetch policy: names that only ever mean something inside a
 * network (refused before any lookup), and the operator's allow-list of private hosts (the
 * lab's own search instance), entries "host" or "host:port".
 */
import { classifyIp, describeAddress, parseIp, type AddressKind, type IpAddress } from "./ip-address.ts";

/** A URL's host name as compared here: lower case, no trailing dot, no IPv6 brackets. */
export function normalHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/\.+$/, "")
    .replace(/^\[(.*)\]$/, "$1");
}

// Suffixes that name hosts inside a network: RFC 6761/6762/8375 and ICANN's private-use
// .internal (where metadata.google.internal and *.ec2.internal live), plus common home and
// corporate conventions.
const INTERNAL_SUFFIXES = ["localhost", "local", "internal", "home.arpa", "localdomain", "lan", "intranet", "corp"];

/** Why a host name is refused before it is looked up, or null when it may be looked up. */
export function refusedName(hostname: string): string | null {
  const name = normalHost(hostname);
  if (name === "") return "no host name";
  const suffix = INTERNAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) return `${name} is a name inside a network (.${suffix})`;
  // A single label ("metadata", "intranet") is completed by the resolver's search domains.
  if (!name.includes(".")) return `${name} is a single-label name, resolved inside the local network`;
  return null;
}

export interface AllowEntry {
  host: string;
  /** null: any port. */
  port: number | null;
}

/** "searx.lab", "searx.lab:8888", "10.0.0.5:8080", "[fd00::5]:8888" → an entry, or an error message. */
export function parseAllowEntry(text: string): AllowEntry | { error: string } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:/?#@[\]]+)(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match)
    return { error: `expected a host name or address, optionally with :port (e.g. searx.lab:8888), got "${text}"` };
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535)) return { error: `port ${port} is out of range in "${text}"` };
  let host: string;
  try {
    // The URL parser spells the host as every request URL will (lower case, IPv4 dotted, IDN as punycode).
    host = normalHost(new URL(`http://${match[1]}/`).hostname);
  } catch {
    return { error: `"${text}" is not a valid host` };
  }
  return { host, port };
}

function effectivePort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

export function isAllowListed(entries: readonly AllowEntry[], url: URL): boolean {
  const host = normalHost(url.hostname);
  return entries.some((e) => e.host === host && (e.port === null || e.port === effectivePort(url)));
}

// Listing a host admits its private address, never these: no search instance lives at a
// metadata service, a multicast group or "any address".
const NEVER_ADMITTED: readonly AddressKind[] = ["metadata", "multicast", "unspecified", "broadcast"];

/** Why this address may not be connected to, or null when it may (public, or private and allow-listed). */
export function refusedAddress(ip: IpAddress, allowListed: boolean): string | null {
  const verdict = classifyIp(ip);
  if (verdict.kind === "public") return null;
  if (allowListed && !NEVER_ADMITTED.includes(verdict.kind)) return null;
  return describeAddress(ip, verdict);
}

/**
 * What can be decided about a URL without a lookup: the scheme, credentials, an internal name
 * or an address literal. null means "look the name up and check its addresses".
 */
export function refusedUrl(url: URL, entries: readonly AllowEntry[]): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `only http and https pages (${url.protocol})`;
  if (url.username || url.password) return "the address carries credentials";
  const allowListed = isAllowListed(entries, url);
  const ip = parseIp(normalHost(url.hostname));
  if (ip) return refusedAddress(ip, allowListed);
  return allowListed ? null : refusedName(url.hostname);
}
