/** The outbound policy holds only if curation has no other way out: no `fetch`, no http client of its own. */
import { describe, expect, it } from "vitest";
import { importSpecifiers, readSource, sourceFiles } from "../../helpers/source-tree.ts";

// A call to fetch, a fetch passed in (`typeof fetch`, `= fetch`, `?? fetch`) or called as a member.
const FETCH_USE = /(?<![\w$])fetch\s*\(|\.fetch\s*\(|typeof\s+fetch\b|(?:=|\?\?|\|\|)\s*fetch\b(?![\w$])/;
const HTTP_CLIENT = /^(node:)?(http|https|net|tls|http2)$|^undici$|^node-fetch$|^axios$/;

function offendersIn(file: string, text: string): string[] {
  const clients = importSpecifiers(text).filter((s) => HTTP_CLIENT.test(s));
  // Comments may speak of "a page fetch (…)"; code may not use one.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
  const fetches = FETCH_USE.exec(code)?.slice(0, 1) ?? [];
  return [...clients, ...fetches].map((what) => `${file}: ${what}`);
}

describe("curation's requests", () => {
  it("all go through app/server/net/outbound.server.ts", () => {
    const files = sourceFiles("app/server/curation");
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => offendersIn(file, readSource(file)))).toEqual([]);
  });

  it("would have caught the code the policy replaced", () => {
    // The page fetch before the policy: an injectable fetch that followed redirects itself.
    const before =
      'import http from "node:http";\nexport async function fetchPage(url: string, fetchImpl: typeof fetch = fetch) { return fetchImpl(url, { redirect: "follow" }); }';
    expect(offendersIn("fetch-page.server.ts", before)).toEqual([
      "fetch-page.server.ts: node:http",
      "fetch-page.server.ts: typeof fetch",
    ]);
    expect(offendersIn("x.ts", "const r = await options.fetch(url);")).toEqual(["x.ts: .fetch("]);
    expect(
      offendersIn(
        "x.ts",
        "// a page fetch (search results)\nconst s = `cannot fetch ${url}`; fetchPage(u); fetch_page;",
      ),
    ).toEqual([]);
  });
});
