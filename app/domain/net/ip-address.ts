/**
 * IP addresses as the outbound fetch policy sees them (app/server/net/outbound.server.ts): parse
 * every spelling a URL or a resolver may give (dotted, decimal, octal and hex IPv4; IPv6 with an
 * embedded IPv4 or a zone) and say which kind of address it is. Only "public" may be fetched;
 * every other kind is somewhere a search result has no business sending us.
 */

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "cgnat"
  | "metadata"
  | "reserved";

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: number[];
}

export interface AddressVerdict {
  kind: AddressKind;
  /** The IPv4 address inside an IPv4-mapped, -compatible, NAT64 or 6to4 IPv6 address. */
  embedded?: string;
}

/** One IPv4 part as inet_aton reads it: 0x… hex, 0… octal, else decimal. */
function ipv4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

/**
 * IPv4 in any form inet_aton (and the URL standard) accepts: 127.0.0.1, 2130706433, 0x7f000001,
 * 0177.0.0.1, 127.1 (the last part fills the remaining bytes); one trailing dot allowed.
 */
export function parseIpv4(text: string): number[] | null {
  const parts = text.replace(/\.$/, "").split(".");
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === "")) return null;
  const values = parts.map(ipv4Part);
  if (values.some((v) => v === null || !Number.isSafeInteger(v))) return null;
  const nums = values as number[];
  const last = nums[nums.length - 1];
  if (nums.slice(0, -1).some((v) => v > 255) || last >= 256 ** (5 - nums.length)) return null;
  const bytes = nums.slice(0, -1);
  for (let i = 4 - nums.length; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return bytes;
}

/** Strict dotted-quad, as it may end an IPv6 address. */
function dottedQuad(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

function groupsOf(text: string): number[] | null {
  if (text === "") return [];
  const groups = text.split(":");
  const out: number[] = [];
  for (const [i, g] of groups.entries()) {
    if (i === groups.length - 1 && g.includes(".")) {
      const quad = dottedQuad(g);
      if (!quad) return null;
      out.push(quad[0] * 256 + quad[1], quad[2] * 256 + quad[3]);
    } else if (/^[0-9a-f]{1,4}$/i.test(g)) out.push(parseInt(g, 16));
    else return null;
  }
  return out;
}

/** IPv6, with or without brackets, "::" shortening, an embedded dotted quad or a %zone. */
export function parseIpv6(text: string): number[] | null {
  const bare = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (!bare.includes(":")) return null;
  const halves = bare.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]);
  const tail = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** An IP address in any of the forms above, or null for a host name. */
export function parseIp(text: string): IpAddress | null {
  const v6 = parseIpv6(text);
  if (v6) return { family: 6, bytes: v6 };
  const v4 = parseIpv4(text);
  return v4 ? { family: 4, bytes: v4 } : null;
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return ip.bytes.join(".");
  const groups = Array.from({ length: 8 }, (_, i) => ((ip.bytes[2 * i] << 8) | ip.bytes[2 * i + 1]).toString(16));
  // The longest run of two or more zero groups becomes "::".
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.at < 0) return groups.join(":");
  return `${groups.slice(0, best.at).join(":")}::${groups.slice(best.at + best.len).join(":")}`;
}

type Range = [prefix: number[], bits: number, kind: AddressKind];

function inRange(bytes: number[], [prefix, bits]: Range): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

// Cloud instance metadata services: named apart so a refusal says what was at stake.
const METADATA_V4 = ["169.254.169.254", "169.254.170.2", "169.254.169.253", "100.100.100.200"];
const METADATA_V6 = ["fd00:ec2::254", "fd20:ce::254"];

// First match wins, so narrower ranges come before the ranges that contain them.
const V4_RANGES: Range[] = [
  [[255, 255, 255, 255], 32, "broadcast"],
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "cgnat"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"],
  [[192, 0, 2], 24, "reserved"],
  [[192, 88, 99], 24, "reserved"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "reserved"],
  [[198, 51, 100], 24, "reserved"],
  [[203, 0, 113], 24, "reserved"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
];

function classifyIpv4(bytes: number[]): AddressKind {
  if (METADATA_V4.includes(bytes.join("."))) return "metadata";
  return V4_RANGES.find((r) => inRange(bytes, r))?.[2] ?? "public";
}

// IPv6 prefixes that carry an IPv4 address: [prefix, bits, offset of the IPv4 bytes].
const EMBEDDING: [number[], number, number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 12], // IPv4-mapped ::ffff:a.b.c.d
  [[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96, 12], // IPv4-translated ::ffff:0:a.b.c.d
  [[0, 0x64, 0xff, 0x9b], 96, 12], // NAT64 well-known prefix 64:ff9b::/96
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 12], // IPv4-compatible ::a.b.c.d (deprecated)
  [[0x20, 0x02], 16, 2], // 6to4 2002:aabb:ccdd::/48
];

const V6_RANGES: Range[] = [
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48, "private"], // local-use NAT64 64:ff9b:1::/48
  [[0xfc], 7, "unique-local"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "private"], // site-local (deprecated)
  [[0xff], 8, "multicast"],
  [[0x01, 0x00], 64, "reserved"], // discard-only 100::/64
  [[0x20, 0x01, 0x0d, 0xb8], 32, "reserved"], // documentation
  [[0x20, 0x01], 23, "reserved"], // IETF protocol assignments, Teredo among them
  [[0x3f, 0xff], 20, "reserved"], // documentation 3fff::/20
];

function classifyIpv6(bytes: number[]): AddressVerdict {
  if (bytes.every((b) => b === 0)) return { kind: "unspecified" };
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return { kind: "loopback" };
  if (METADATA_V6.includes(formatIp({ family: 6, bytes }))) return { kind: "metadata" };
  for (const [prefix, bits, at] of EMBEDDING) {
    if (!inRange(bytes, [prefix, bits, "public"])) continue;
    const v4 = bytes.slice(at, at + 4);
    return { kind: classifyIpv4(v4), embedded: v4.join(".") };
  }
  const listed = V6_RANGES.find((r) => inRange(bytes, r));
  if (listed) return { kind: listed[2] };
  // Only 2000::/3 is handed out as global unicast; anything else is not a public host.
  return { kind: inRange(bytes, [[0x20], 3, "public"]) ? "public" : "reserved" };
}

export function classifyIp(ip: IpAddress): AddressVerdict {
  return ip.family === 4 ? { kind: classifyIpv4(ip.bytes) } : classifyIpv6(ip.bytes);
}

const KIND_WORDS: Record<Exclude<AddressKind, "public">, string> = {
  loopback: "a loopback address",
  private: "a private address",
  "link-local": "a link-local address",
  "unique-local": "a unique-local address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  cgnat: "a carrier-grade NAT address",
  metadata: "a cloud metadata address",
  reserved: "a reserved address",
};

/** "127.0.0.1 is a loopback address"; "::ffff:7f00:1 carries 127.0.0.1, a loopback address". */
export function describeAddress(ip: IpAddress, verdict: AddressVerdict): string {
  const shown = formatIp(ip);
  if (verdict.kind === "public") return `${shown} is a public address`;
  return verdict.embedded
    ? `${shown} carries ${verdict.embedded}, ${KIND_WORDS[verdict.kind]}`
    : `${shown} is ${KIND_WORDS[verdict.kind]}`;
}
