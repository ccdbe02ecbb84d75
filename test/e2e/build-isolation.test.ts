/**
 * `npm test` in the folder of a running `npm start` must leave that server's files alone: the
 * tests build into build-test/, `npm start` serves build/. A server started from build/ keeps
 * answering every script its pages reference after a test build has run.
 *
 * The test build here goes to a scratch directory rather than the shared build-test/: rebuilding
 * build-test/ mid-run would pull the assets from under the servers of the other e2e files (the
 * very failure this guards against). That the shared test build is not build/ is checked directly.
 * Cost: one build. When build/ is missing (a fresh clone, CI) it is made by copying the test build
 * the global setup just made: the same sources and configuration at the same depth give the same
 * files, so a second full build would only cost time.
 */
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDirectory, DEFAULT_BUILD_DIR } from "../../scripts/build-dir.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { tempDir } from "../../harness/temp-db.ts";
import { buildAppAsync, ROOT, TEST_BUILD_DIR } from "../../harness/test-build.ts";

/** Script and module-preload URLs a page references. */
function scriptUrls(html: string): string[] {
  const urls = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  return [...new Set(urls)];
}

/** Every file of a build with its inode and modification time: unchanged means untouched. */
function fileStamps(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => join(dir, f));
  const stamps = files.filter((f) => statSync(f).isFile()).map((f) => [f, `${statSync(f).ino}:${statSync(f).mtimeMs}`]);
  return Object.fromEntries(stamps);
}

async function statuses(base: string, urls: string[]): Promise<Record<string, number>> {
  const entries = await Promise.all(urls.map(async (u) => [u, (await fetch(base + u)).status] as const));
  return Object.fromEntries(entries);
}

describe("a running server's build survives the test build", () => {
  let server: AppServer;
  const madeBuild = !existsSync(join(ROOT, DEFAULT_BUILD_DIR, "server/index.js"));
  const scratch = tempDir("socrates-test-build-");

  beforeAll(async () => {
    // What `npm start` builds (only when absent: an existing build/ may be serving someone).
    if (madeBuild) cpSync(join(ROOT, TEST_BUILD_DIR), join(ROOT, DEFAULT_BUILD_DIR), { recursive: true });
    server = await startAppServer({ env: { SOCRATES_BUILD_DIR: DEFAULT_BUILD_DIR } });
  });
  afterAll(async () => {
    await server?.stop();
    scratch.cleanup();
    if (madeBuild) rmSync(join(ROOT, DEFAULT_BUILD_DIR), { recursive: true, force: true });
  });

  it("builds the tests' app somewhere other than the build npm start serves", () => {
    expect(buildDirectory({})).toBe(DEFAULT_BUILD_DIR);
    expect(TEST_BUILD_DIR).not.toBe(DEFAULT_BUILD_DIR);
    expect(buildDirectory({ SOCRATES_BUILD_DIR: TEST_BUILD_DIR })).toBe(TEST_BUILD_DIR);
  });

  // A whole Vite build runs inside this test: on a loaded 2-core machine it outlasts the default 30 s.
  it("keeps serving every script of its pages after a test build ran", { timeout: 180_000 }, async () => {
    const html = await (await fetch(server.url + "/login")).text();
    const urls = scriptUrls(html);
    expect(urls.length).toBeGreaterThan(2);
    const allOk = Object.fromEntries(urls.map((u) => [u, 200]));
    expect(await statuses(server.url, urls)).toEqual(allOk);

    // Same sources give the same file names, so a rebuild in place would answer 200 again once
    // done; the stamps show whether the served files were replaced at all.
    const before = fileStamps(join(ROOT, DEFAULT_BUILD_DIR));
    await buildAppAsync(join(scratch.dir, "build"));
    expect(existsSync(join(scratch.dir, "build/server/index.js"))).toBe(true);

    expect(fileStamps(join(ROOT, DEFAULT_BUILD_DIR))).toEqual(before);
    expect(await statuses(server.url, urls)).toEqual(allOk);
    // And the page it serves now still points at the same files.
    expect(scriptUrls(await (await fetch(server.url + "/login")).text())).toEqual(urls);
  });
});
