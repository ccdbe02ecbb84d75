/**
 * Builds what the tests run, once per test run. The `socrates` CLI is built into dist/cli/
 * (scripts/build-cli.mjs; nothing to do when it is fresh), so the CLI tests, which spawn
 * scripts/socrates.mjs, run the built CLI and never compile TypeScript per call. The web app is
 * built so browser tests exercise the production server. Its build goes to build-test/
 * (harness/test-build.ts), never to the build/ a running `npm start` serves. When the run is
 * filtered to files outside test/e2e (`vitest run test/unit/x`), no test needs the app build and
 * it is skipped, which keeps focused runs fast. A throwaway PostgreSQL server is started when
 * PostgreSQL is installed (harness/postgres.ts), for the tests that run on both engines; its URL
 * goes to the test processes in SOCRATES_TEST_PG. With the app build come the browser tests' server bundle and
 * seeded database (harness/test-server-build.ts).
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { startAppServer } from "../harness/app-server.ts";
import { postgresAvailable, prepareTemplate, startTestServer, type TestServer } from "../harness/postgres.ts";
import { tempDir } from "../harness/temp-db.ts";
import { buildAppAsync, ROOT, TEST_BUILD_DIR } from "../harness/test-build.ts";
import { buildServerBundle } from "../harness/test-server-build.ts";

function filters(): string[] {
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && a !== "watch");
  return args.filter((a) => !a.endsWith("vitest") && !a.endsWith("vitest.mjs"));
}

function buildCli(): void {
  const result = spawnSync(process.execPath, [resolve(ROOT, "scripts/build-cli.mjs")], { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`building the CLI (scripts/build-cli.mjs) failed:\n${result.stdout}${result.stderr}`);
}

/**
 * The browser tests' server bundle, and the database it seeds on its first start (harness/test-server-build.ts), for
 * the test processes.
 */
async function prepareServers(): Promise<{ cleanup: () => void }> {
  process.env.SOCRATES_TEST_SERVER = await buildServerBundle();
  const tmp = tempDir("socrates-seeded-");
  const dbPath = join(tmp.dir, "seeded.db");
  await (await startAppServer({ dbPath })).stop();
  process.env.SOCRATES_TEST_SEEDED_DB = dbPath;
  return tmp;
}

async function prepare(): Promise<() => void> {
  buildCli();
  const selected = filters();
  // The app builds in a child process while PostgreSQL starts.
  const browserTests = selected.length === 0 || selected.some((f) => f.includes("e2e"));
  const app = browserTests ? buildAppAsync(TEST_BUILD_DIR) : null;
  let server: TestServer | undefined;
  let seeded: { cleanup: () => void } | undefined;
  try {
    server = postgresAvailable() ? startTestServer() : undefined;
    if (server) {
      process.env.SOCRATES_TEST_PG = server.url;
      await prepareTemplate(server.url);
    }
    await app;
    if (browserTests) seeded = await prepareServers();
  } catch (error) {
    server?.stop();
    await app?.catch(() => {});
    throw error;
  }
  return () => {
    seeded?.cleanup();
    server?.stop();
  };
}

const ONCE = Symbol.for("socrates.test.global-setup");

/**
 * Vitest runs a globalSetup for the root project and again for each project that extends it (sqlite, postgres), all
 * in this one process: the work is done by the first call, which alone tears it down.
 */
export default async function setup(): Promise<() => void> {
  const shared = globalThis as { [ONCE]?: Promise<() => void> };
  if (shared[ONCE]) {
    await shared[ONCE];
    return () => {};
  }
  shared[ONCE] = prepare();
  return shared[ONCE];
}
