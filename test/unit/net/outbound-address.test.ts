/**
 * The outbound policy's pure part: every spelling of an address that reached `fetch` in the
 * attack round, and the names and allow-list entries. The numeric spellings were converted
 * independently with Python's socket.inet_aton / ipaddress (values written out below).
 */
import { describe, expect, it } from "vitest";
import {
  classifyIp,
  describeAddress,
  formatIp,
  parseIp,
  parseIpv4,
  type AddressKind,
} from "../../../app/domain/net/ip-address.ts";
import {
  isAllowListed,
  parseAllowEntry,
  refusedName,
  refusedUrl,
  type AllowEntry,
} from "../../../app/domain/net/outbound-hosts.ts";

function kindOf(text: string): { kind: AddressKind; embedded?: string; shown: string } {
  const ip = parseIp(text);
  if (!ip) throw new Error(`${text} did not parse as an address`);
  return { ...classifyIp(ip), shown: formatIp(ip) };
}

describe("IPv4 in every spelling inet_aton accepts", () => {
  // inet_ntoa(inet_aton(form)) in Python 3.
  const forms: [string, string][] = [
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
    ["012.0.0.1", "10.0.0.1"],
    ["167772161", "10.0.0.1"],
    ["0", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["127.0.0.1.", "127.0.0.1"],
  ];
  it.each(forms)("reads %s as %s", (form, dotted) => {
    expect(parseIpv4(form)?.join(".")).toBe(dotted);
  });

  it("leaves names and out-of-range numbers alone", () => {
    for (const text of ["example.com", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "0x1g", "4294967296", "1..2", ""]) {
      expect(parseIp(text), text).toBeNull();
    }
  });
});

describe("which kind of address", () => {
  const v4: [string, AddressKind][] = [
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["2130706433", "loopback"],
    ["0177.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["169.254.1.1", "link-local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["93.184.215.14", "public"],
  ];
  it.each(v4)("%s is %s", (text, kind) => expect(kindOf(text).kind).toBe(kind));

  const v6: [string, AddressKind, string | undefined][] = [
    ["::1", "loopback", undefined],
    ["[::1]", "loopback", undefined],
    ["0:0:0:0:0:0:0:1", "loopback", undefined],
    ["::", "unspecified", undefined],
    ["::ffff:127.0.0.1", "loopback", "127.0.0.1"],
    ["[::ffff:7f00:1]", "loopback", "127.0.0.1"],
    ["::ffff:169.254.169.254", "metadata", "169.254.169.254"],
    ["::ffff:0:127.0.0.1", "loopback", "127.0.0.1"],
    ["::127.0.0.1", "loopback", "127.0.0.1"],
    ["::ffff:10.0.0.1", "private", "10.0.0.1"],
    ["64:ff9b::7f00:1", "loopback", "127.0.0.1"],
    ["64:ff9b::a9fe:a9fe", "metadata", "169.254.169.254"],
    ["2002:7f00:1::", "loopback", "127.0.0.1"],
    ["2002:a00:1::1", "private", "10.0.0.1"],
    ["64:ff9b:1::1", "private", undefined],
    ["fd00::1", "unique-local", undefined],
    ["[fd00::1]", "unique-local", undefined],
    ["fc00::1", "unique-local", undefined],
    ["fd00:ec2::254", "metadata", undefined],
    ["fe80::1%eth0", "link-local", undefined],
    ["fec0::1", "private", undefined],
    ["ff02::1", "multicast", undefined],
    ["2001:db8::1", "reserved", undefined],
    ["2001::1", "reserved", undefined],
    ["100::1", "reserved", undefined],
    ["4000::1", "reserved", undefined],
    ["64:ff9b::808:808", "public", "8.8.8.8"],
    ["2606:4700:4700::1111", "public", undefined],
    ["2001:4860:4860::8888", "public", undefined],
  ];
  it.each(v6)("%s is %s", (text, kind, embedded) => {
    const got = kindOf(text);
    expect(got.kind).toBe(kind);
    expect(got.embedded).toBe(embedded);
  });

  it("prints IPv6 compressed as Python's ipaddress does", () => {
    // ipaddress.IPv6Address(x).compressed
    expect(kindOf("::ffff:127.0.0.1").shown).toBe("::ffff:7f00:1");
    expect(kindOf("0:0:0:0:0:0:7f00:1").shown).toBe("::7f00:1");
    expect(kindOf("2002:7f00:0001:0:0:0:0:0").shown).toBe("2002:7f00:1::");
    expect(kindOf("fd00:0ec2:0:0:0:0:0:0254").shown).toBe("fd00:ec2::254");
    expect(kindOf("1:0:0:2:0:0:0:3").shown).toBe("1:0:0:2::3");
  });

  it("says what an address is, naming the IPv4 address inside an IPv6 one", () => {
    const ip = parseIp("::ffff:127.0.0.1")!;
    expect(describeAddress(ip, classifyIp(ip))).toBe("::ffff:7f00:1 carries 127.0.0.1, a loopback address");
    const meta = parseIp("2852039166")!;
    expect(describeAddress(meta, classifyIp(meta))).toBe("169.254.169.254 is a cloud metadata address");
  });
});

describe("names", () => {
  it("refuses names that only mean something inside a network, before any lookup", () => {
    expect(refusedName("localhost")).toMatch(/\.localhost/);
    expect(refusedName("app.localhost")).toMatch(/\.localhost/);
    expect(refusedName("metadata.google.internal")).toMatch(/\.internal/);
    expect(refusedName("METADATA.GOOGLE.INTERNAL.")).toMatch(/metadata\.google\.internal is a name inside a network/);
    expect(refusedName("ip-10-0-0-1.ec2.internal")).toMatch(/\.internal/);
    expect(refusedName("printer.local")).toMatch(/\.local\)/);
    expect(refusedName("router.home.arpa")).toMatch(/\.home\.arpa/);
    expect(refusedName("metadata")).toMatch(/single-label/);
    expect(refusedName("news.example.org")).toBeNull();
    expect(refusedName("internal.example.org")).toBeNull();
  });
});

describe("the allow-list", () => {
  it("takes a host, optionally with a port, spelt as a URL would spell it", () => {
    expect(parseAllowEntry("searx.lab")).toEqual({ host: "searx.lab", port: null });
    expect(parseAllowEntry("SEARX.Lab:8888")).toEqual({ host: "searx.lab", port: 8888 });
    expect(parseAllowEntry("[fd00::5]:8888")).toEqual({ host: "fd00::5", port: 8888 });
    expect(parseAllowEntry("2130706433:80")).toEqual({ host: "127.0.0.1", port: 80 });
    for (const bad of [
      "http://searx.lab",
      "searx.lab/search",
      "searx.lab:0",
      "searx.lab:70000",
      "a b",
      "user@searx.lab",
      "",
    ]) {
      expect(parseAllowEntry(bad), bad).toHaveProperty("error");
    }
  });

  const entries: AllowEntry[] = [
    { host: "searx.lab", port: 8888 },
    { host: "10.0.0.5", port: null },
  ];
  it("matches host and port exactly (default ports included), nothing wider", () => {
    expect(isAllowListed(entries, new URL("http://searx.lab:8888/search"))).toBe(true);
    expect(isAllowListed(entries, new URL("http://SEARX.LAB.:8888/"))).toBe(true);
    expect(isAllowListed(entries, new URL("http://searx.lab/"))).toBe(false);
    expect(isAllowListed(entries, new URL("http://searx.lab:8889/"))).toBe(false);
    expect(isAllowListed(entries, new URL("http://a.searx.lab:8888/"))).toBe(false);
    expect(isAllowListed(entries, new URL("https://10.0.0.5/"))).toBe(true);
    expect(isAllowListed([{ host: "searx.lab", port: 80 }], new URL("http://searx.lab/"))).toBe(true);
    expect(isAllowListed([{ host: "searx.lab", port: 80 }], new URL("https://searx.lab/"))).toBe(false);
  });
});

describe("a URL checked without a lookup", () => {
  const check = (url: string, allow: AllowEntry[] = []) => refusedUrl(new URL(url), allow);

  it("refuses every internal spelling the attack round used, as the URL parser hands it over", () => {
    expect(check("http://127.0.0.1:8080/x")).toBe("127.0.0.1 is a loopback address");
    expect(check("http://2130706433/")).toBe("127.0.0.1 is a loopback address");
    expect(check("http://0x7f.1/")).toBe("127.0.0.1 is a loopback address");
    expect(check("http://0177.0.0.1/")).toBe("127.0.0.1 is a loopback address");
    expect(check("http://[::ffff:127.0.0.1]/")).toBe("::ffff:7f00:1 carries 127.0.0.1, a loopback address");
    expect(check("http://localhost:3000/")).toMatch(/localhost is a name inside a network/);
    expect(check("http://169.254.169.254/latest/meta-data")).toBe("169.254.169.254 is a cloud metadata address");
    expect(check("http://10.0.0.1/")).toBe("10.0.0.1 is a private address");
    expect(check("http://[fd00::1]/")).toBe("fd00::1 is a unique-local address");
    expect(check("http://metadata.google.internal/computeMetadata/v1/")).toMatch(/\.internal/);
    expect(check("http://[::]/")).toBe(":: is the unspecified address");
  });

  it("refuses other schemes and credentials, and leaves public names to the lookup", () => {
    expect(check("file:///etc/passwd")).toMatch(/only http and https/);
    expect(check("ftp://example.org/")).toMatch(/only http and https/);
    expect(check("http://user:pw@example.org/")).toMatch(/credentials/);
    expect(check("https://news.example.org/story")).toBeNull();
    expect(check("http://8.8.8.8/")).toBeNull();
  });

  it("admits a listed private host, but never a metadata, multicast or unspecified address", () => {
    expect(check("http://127.0.0.1:8888/search", [{ host: "127.0.0.1", port: 8888 }])).toBeNull();
    expect(check("http://127.0.0.1:8889/", [{ host: "127.0.0.1", port: 8888 }])).toMatch(/loopback/);
    expect(check("http://searx.internal/", [{ host: "searx.internal", port: null }])).toBeNull();
    expect(check("http://169.254.169.254/", [{ host: "169.254.169.254", port: null }])).toMatch(/metadata/);
    expect(check("http://0.0.0.0:8888/", [{ host: "0.0.0.0", port: 8888 }])).toMatch(/unspecified/);
  });
});
