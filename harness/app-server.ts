/**
 * Starts the real web server (scripts/serve.ts, the tests' production build in build-test/ unless
 * `env.SOCRATES_BUILD_DIR` says otherwise) on a free port, with its own
 * database in a temporary directory or, given `dbPath`, on a database the test prepared (which
 * `stop` leaves in place). In a test run the server is the bundle of serve.ts and its own database starts as a
 * copy of one the server seeded (harness/test-server-build.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { tempDir } from "./temp-db.ts";
import { ROOT, TEST_BUILD_DIR } from "./test-build.ts";

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

export interface AppServer {
  url: string;
  dbPath: string;
  output: () => string;
  stop: () => Promise<void>;
}

export interface AppServerOptions {
  /** Serve this database file instead of a fresh one; the caller owns it. */
  dbPath?: string;
  /** Extra environment for the server process (e.g. MTURK_SUBMIT_ORIGINS, SOCRATES_BUILD_DIR). */
  env?: Record<string, string>;
  /** Start on an empty database, which the server seeds with the demo (its first start), even in a test run. */
  seedOnStart?: boolean;
}

/** The test run's seeded database (SOCRATES_TEST_SEEDED_DB) copied to `dbPath`, its write-ahead log with it. */
function copySeeded(dbPath: string): void {
  const seeded = process.env.SOCRATES_TEST_SEEDED_DB;
  if (!seeded) return;
  copyFileSync(seeded, dbPath);
  if (existsSync(`${seeded}-wal`)) copyFileSync(`${seeded}-wal`, `${dbPath}-wal`);
}

/** The bundle of serve.ts when the test run made one (SOCRATES_TEST_SERVER), else the sources through tsx. */
function serverCommand(): [string, string[]] {
  const bundle = process.env.SOCRATES_TEST_SERVER;
  if (bundle) return [process.execPath, ["--enable-source-maps", bundle]];
  return [resolve(ROOT, "node_modules/.bin/tsx"), ["scripts/serve.ts"]];
}

export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const tmp = options.dbPath === undefined ? tempDir("socrates-app-") : null;
  const dbPath = options.dbPath ?? join(tmp!.dir, "app.db");
  if (tmp && !options.seedOnStart) copySeeded(dbPath);
  const port = await freePort();
  const [command, args] = serverCommand();
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      SOCRATES_BUILD_DIR: TEST_BUILD_DIR,
      ...options.env,
      SOCRATES_DB: dbPath,
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s:\n${log}`)), 60_000);
    child.stdout!.on("data", () => {
      if (log.includes("is running at")) {
        clearTimeout(timer);
        ok();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    dbPath,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((ok) => child.once("exit", ok));
        child.kill("SIGTERM");
        await exited;
      }
      tmp?.cleanup();
    },
  };
}
