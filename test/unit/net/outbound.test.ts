/**
 * The outbound policy over real HTTP, all on 127.0.0.1: an "internal" server that must receive no
 * request, and first-hop servers reached under made-up names. To make such a name reachable the
 * test maps it to 127.0.0.1 with its own lookup AND lists it (host:port) in the allow-list: the
 * lookup alone loosens nothing, since its answers are classified like the system resolver's.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../harness/temp-db.ts";
import {
  outboundFetch,
  outboundPolicy,
  OutboundRefusal,
  type HostLookup,
  type OutboundLimits,
} from "../../../app/server/net/outbound.server.ts";

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  requests: Recorded[];
  /** Connections the server saw close (a capped answer must close its connection). */
  closed: number;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(
  handle: (req: Recorded, res: ServerResponse) => void = (_q, res) => res.end("internal secret"),
): Promise<TestServer> {
  const t: TestServer = { port: 0, requests: [], closed: 0 };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      t.requests.push(recorded);
      handle(recorded, res);
    });
  });
  server.on("connection", (socket) => socket.on("close", () => (t.closed += 1)));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  t.port = (server.address() as AddressInfo).port;
  return t;
}

/** A lookup answering only the names given, recording every question. */
function fakeDns(names: Record<string, string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const found = names[host];
    if (!found) throw Object.assign(new Error(`no such name ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { asked });
}

const limits: OutboundLimits = { timeoutMs: 5000, maxBytes: 100_000, overflow: "truncate" };

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusal> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof OutboundRefusal)) throw new Error(`expected a refusal, got ${String(err)}`);
  return err;
}

describe("addresses inside the network are refused before any connection", () => {
  it("refuses the internal server under every spelling, and it receives nothing", async () => {
    const internal = await serve();
    const dns = fakeDns({});
    const policy = outboundPolicy({ lookup: dns });
    const urls = [
      `http://127.0.0.1:${internal.port}/`,
      `http://localhost:${internal.port}/`,
      `http://2130706433:${internal.port}/`,
      `http://0x7f.1:${internal.port}/`,
      `http://0177.0.0.1:${internal.port}/`,
      `http://[::ffff:127.0.0.1]:${internal.port}/`,
      `http://[::1]:${internal.port}/`,
    ];
    for (const url of urls) {
      const err = await refusal(outboundFetch({ url }, policy, limits));
      expect(err.requested).toBe(url);
      expect(err.redirected).toBe(false);
      expect(err.message).toBe(`refused ${url}: ${err.reason}`);
      expect(err.reason, url).toMatch(/loopback|localhost is a name inside a network/);
    }
    expect(internal.requests).toEqual([]);
    expect(internal.closed).toBe(0);
    // Literals and internal names are decided without asking the resolver.
    expect(dns.asked).toEqual([]);
  });

  it("refuses metadata, private, unique-local and CGNAT targets, by address or by name", async () => {
    const dns = fakeDns({
      "sneaky.example": ["8.8.8.8", "10.0.0.1"],
      "meta.example": ["169.254.169.254"],
      "v6.example": ["fd00::1"],
    });
    const policy = outboundPolicy({ lookup: dns });
    const cases: [string, RegExp][] = [
      ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a cloud metadata address/],
      ["http://10.0.0.1/", /10\.0\.0\.1 is a private address/],
      ["http://[fd00::1]/", /fd00::1 is a unique-local address/],
      ["http://100.64.0.1/", /carrier-grade NAT/],
      ["http://metadata.google.internal/computeMetadata/v1/", /metadata\.google\.internal is a name inside a network/],
      ["http://metadata/", /single-label/],
      // One private address among public ones is enough: the attacker picks which one is used.
      ["http://sneaky.example/", /10\.0\.0\.1 is a private address \(sneaky\.example resolves to it\)/],
      ["http://meta.example/", /cloud metadata address \(meta\.example resolves to it\)/],
      ["http://v6.example/", /fd00::1 is a unique-local address \(v6\.example resolves to it\)/],
    ];
    for (const [url, reason] of cases)
      expect((await refusal(outboundFetch({ url }, policy, limits))).reason, url).toMatch(reason);
    expect(dns.asked).toEqual(["sneaky.example", "meta.example", "v6.example"]);
  });
});

describe("redirects", () => {
  it("re-checks every hop: an allowed first hop redirecting inside the network is refused there", async () => {
    const internal = await serve();
    const first = await serve((req, res) => {
      const to: Record<string, string> = {
        "/to-literal": `http://127.0.0.1:${internal.port}/secret`,
        "/to-mapped": `http://127.0.0.1.nip.example:${internal.port}/secret`,
        "/to-mapped-v6": `http://[::ffff:127.0.0.1]:${internal.port}/secret`,
        "/to-metadata": "http://169.254.169.254/latest/meta-data/iam",
      };
      res.writeHead(req.path === "/to-metadata" ? 307 : 302, { location: to[req.path] });
      res.end();
    });
    // "public.example" stands for a public site: mapped to the first hop's server and listed, so
    // the test reaches it; the redirect targets are not listed.
    const host = `public.example:${first.port}`;
    const dns = fakeDns({ "public.example": ["127.0.0.1"], "127.0.0.1.nip.example": ["127.0.0.1"] });
    const policy = outboundPolicy({ allowPrivateHosts: [host], lookup: dns });
    for (const path of ["/to-literal", "/to-mapped", "/to-mapped-v6", "/to-metadata"]) {
      const err = await refusal(outboundFetch({ url: `http://${host}${path}` }, policy, limits));
      expect(err.requested).toBe(`http://${host}${path}`);
      expect(err.redirected).toBe(true);
      expect(err.url).not.toBe(err.requested);
      expect(err.message).toContain(`(reached by redirect from http://${host}${path})`);
    }
    expect(first.requests).toHaveLength(4);
    expect(internal.requests).toEqual([]);
  });

  it("follows redirects it may follow, at most maxRedirects, and says where it ended", async () => {
    const site = await serve((req, res) => {
      const n = Number(/^\/hop\/(\d+)$/.exec(req.path)?.[1] ?? -1);
      if (n > 0) {
        res.writeHead(302, { location: `/hop/${n - 1}` });
        return res.end();
      }
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`arrived via ${req.headers.host}`);
    });
    const host = `127.0.0.1:${site.port}`;
    const policy = outboundPolicy({ allowPrivateHosts: [host], maxRedirects: 3 });
    const ok = await outboundFetch({ url: `http://${host}/hop/3` }, policy, limits);
    expect(ok.body.toString()).toBe(`arrived via ${host}`);
    expect(ok.url).toBe(`http://${host}/hop/0`);
    expect(ok.redirects).toEqual([`http://${host}/hop/2`, `http://${host}/hop/1`, `http://${host}/hop/0`]);
    await expect(outboundFetch({ url: `http://${host}/hop/4` }, policy, limits)).rejects.toThrow(
      "more than 3 redirects",
    );
    expect(site.requests).toHaveLength(4 + 4);
  });

  it("drops keys on a redirect to another origin, and turns a POST into a GET on 303", async () => {
    const second = await serve((_req, res) => res.end("ok"));
    const first = await serve((_req, res) => {
      res.writeHead(303, { location: `http://127.0.0.1:${second.port}/after` });
      res.end();
    });
    const policy = outboundPolicy({ allowPrivateHosts: [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`] });
    const headers = {
      accept: "application/json",
      authorization: "Bearer k",
      "x-subscription-token": "k",
      "content-type": "application/json",
    };
    await outboundFetch(
      { url: `http://127.0.0.1:${first.port}/search`, method: "POST", headers, body: '{"q":1}' },
      policy,
      limits,
    );
    expect(first.requests[0]).toMatchObject({
      method: "POST",
      body: '{"q":1}',
      headers: { authorization: "Bearer k" },
    });
    const sent = second.requests[0];
    expect(sent).toMatchObject({ method: "GET", path: "/after", body: "" });
    expect(sent.headers.accept).toBe("application/json");
    expect(sent.headers).not.toHaveProperty("authorization");
    expect(sent.headers).not.toHaveProperty("x-subscription-token");
    expect(sent.headers).not.toHaveProperty("content-type");
  });
});

describe("the connection goes to the address that was checked", () => {
  it("resolves once per hop and connects there, keeping the URL's Host", async () => {
    const site = await serve((req, res) => res.end(`host ${req.headers.host}`));
    // No resolver but the test's knows this name, so reaching the server proves the pinned address was used.
    let answers = 0;
    const rebinding: HostLookup = async () =>
      answers++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "169.254.169.254", family: 4 }];
    const policy = outboundPolicy({ allowPrivateHosts: [`searx.lab:${site.port}`], lookup: rebinding });
    const got = await outboundFetch({ url: `http://searx.lab:${site.port}/search` }, policy, limits);
    expect(got.body.toString()).toBe(`host searx.lab:${site.port}`);
    // A second answer (a rebinding to the metadata service) was never asked for.
    expect(answers).toBe(1);
  });

  it("speaks TLS to the checked address with the URL's name as server name, and verifies the certificate", async () => {
    // A self-signed certificate for the name: the client must reject it (verification is on),
    // after sending the name in its hello to the address the policy checked.
    const { dir, cleanup } = tempDir();
    try {
      const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          key,
          "-out",
          cert,
          "-days",
          "1",
          "-subj",
          "/CN=secure.example",
        ],
        { stdio: "ignore" },
      );
      const names: string[] = [];
      const server = createTlsServer(
        {
          key: readFileSync(key),
          cert: readFileSync(cert),
          SNICallback: (name, done) => (names.push(name), done(null)),
        },
        (_q, res) => res.end("tls"),
      );
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      const policy = outboundPolicy({
        allowPrivateHosts: [`secure.example:${port}`],
        lookup: fakeDns({ "secure.example": ["127.0.0.1"] }),
      });
      await expect(outboundFetch({ url: `https://secure.example:${port}/` }, policy, limits)).rejects.toThrow(
        /self[- ]signed certificate/,
      );
      expect(names).toEqual(["secure.example"]);
    } finally {
      cleanup();
    }
  });

  it("refuses a listed name that resolves to a metadata address", async () => {
    const policy = outboundPolicy({
      allowPrivateHosts: ["searx.lab"],
      lookup: async () => [{ address: "169.254.169.254", family: 4 }],
    });
    expect((await refusal(outboundFetch({ url: "http://searx.lab/" }, policy, limits))).reason).toMatch(
      /cloud metadata address/,
    );
  });
});

describe("bytes and time", () => {
  /** Writes forever until the client goes away. */
  function endless(res: ServerResponse, type = "application/json"): void {
    res.writeHead(200, { "content-type": type });
    res.write('{"results": [');
    const chunk = `${'{"url": "https://example.org/", "title": "more", "content": "and more"},'.repeat(200)}\n`;
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", more);
    };
    more();
  }

  it("stops an endless answer at the byte cap, with an error or cut, and closes the connection", async () => {
    const site = await serve((_req, res) => endless(res));
    const policy = outboundPolicy({ allowPrivateHosts: [`127.0.0.1:${site.port}`] });
    const url = `http://127.0.0.1:${site.port}/search`;
    await expect(outboundFetch({ url }, policy, { ...limits, maxBytes: 50_000, overflow: "fail" })).rejects.toThrow(
      "the answer is larger than 50000 bytes",
    );
    const cut = await outboundFetch({ url }, policy, { ...limits, maxBytes: 50_000, overflow: "truncate" });
    expect(cut.truncated).toBe(true);
    expect(cut.body.byteLength).toBe(50_000);
    await expect.poll(() => site.closed).toBe(2);
  });

  it("refuses at once an answer that declares a length over the cap", async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "10000000" });
      res.write("x".repeat(1000));
    });
    const policy = outboundPolicy({ allowPrivateHosts: [`127.0.0.1:${site.port}`] });
    await expect(
      outboundFetch({ url: `http://127.0.0.1:${site.port}/` }, policy, {
        ...limits,
        maxBytes: 50_000,
        overflow: "fail",
      }),
    ).rejects.toThrow("the answer is larger than 50000 bytes");
  });

  it("counts decompressed bytes, so a small compressed answer cannot blow up past the cap", async () => {
    const bomb = gzipSync(Buffer.alloc(20_000_000, 0x20));
    const site = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end(bomb);
    });
    const policy = outboundPolicy({ allowPrivateHosts: [`127.0.0.1:${site.port}`] });
    const cut = await outboundFetch({ url: `http://127.0.0.1:${site.port}/` }, policy, {
      ...limits,
      maxBytes: 100_000,
    });
    expect(bomb.byteLength).toBeLessThan(100_000);
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.body.byteLength).toBe(100_000);
  });

  it("gives up when no answer comes within the deadline", async () => {
    const site = await serve(() => undefined);
    const policy = outboundPolicy({ allowPrivateHosts: [`127.0.0.1:${site.port}`] });
    await expect(
      outboundFetch({ url: `http://127.0.0.1:${site.port}/` }, policy, { ...limits, timeoutMs: 300 }),
    ).rejects.toThrow("no answer within 300 ms");
    await expect(
      outboundFetch({ url: "http://slow.example/" }, outboundPolicy({ lookup: () => new Promise(() => undefined) }), {
        ...limits,
        timeoutMs: 300,
      }),
    ).rejects.toThrow("no answer within 300 ms");
  });
});
