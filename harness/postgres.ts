/**
 * A real PostgreSQL server for tests and benches: Debian's package (`.ci/run` installs it),
 * started once per test run in a temporary directory, listening on a Unix socket only, with
 * durability off (a test cluster is thrown away). As root it runs as the `postgres` user, since
 * PostgreSQL refuses to run as root. TEST_DATABASE_URL names an existing server instead.
 * Each test takes a database of its own (`pgDatabase`), dropped at its end.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openPostgres } from "../app/server/db-pg.server.ts";

/** The folder of initdb and pg_ctl: Debian keeps them out of PATH, per major version. */
function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin/initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], "bin") : undefined;
}

/** Whether this machine can start a test server (or TEST_DATABASE_URL names one). */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL) || binDir() !== undefined;
}

export interface TestServer {
  /** A URL of the server's maintenance database `postgres`. */
  url: string;
  stop: () => void;
}

const asRoot = () => process.getuid?.() === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
}

/** Starts a throwaway cluster; its socket and data live under one temporary directory. */
export function startTestServer(): TestServer {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop: () => {} };
  const bin = binDir();
  if (!bin) throw new Error("PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run does it)");
  const dir = mkdtempSync(join(tmpdir(), "socrates-pg-"));
  chmodSync(dir, 0o777);
  if (asRoot()) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  run(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  writeFileSync(join(dir, "README"), "A test PostgreSQL cluster (harness/postgres.ts); safe to delete.\n");
  // Many test databases at once, each with serializable transactions: room for their predicate locks.
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_pred_locks_per_transaction=512`;
  run(join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "start"]);
  return {
    url: `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`,
    stop: () => {
      try {
        run(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

let counter = 0;

/** The database tests copy when they want the current schema (CREATE DATABASE … TEMPLATE is a file copy). */
const TEMPLATE = "socrates_template";

/** Creates the template database with the current schema (once per test run: test/global-setup.ts). */
export async function prepareTemplate(server: string): Promise<void> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${TEMPLATE}`;
  const db = await openPostgres(url.href);
  await db.$client.end();
}

/**
 * A fresh database on the test server named by SOCRATES_TEST_PG (test/global-setup.ts): empty, with
 * `migrated` a copy of the template holding the current schema, or with `copyOf` a copy of that
 * database (which nobody may be connected to).
 */
export async function pgDatabase(
  options: { migrated?: boolean; copyOf?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.SOCRATES_TEST_PG;
  if (!server)
    throw new Error("no test PostgreSQL server (test/global-setup.ts starts one when PostgreSQL is installed)");
  const name = `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const template = options.copyOf ? new URL(options.copyOf).pathname.slice(1) : options.migrated ? TEMPLATE : null;
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
