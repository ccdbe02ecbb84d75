/**
 * The CLI on a full disk (issue 29, finding 10): the real `socrates` process names the cause and
 * the file system, prints no stack trace, exits 2 and changes nothing; rerun after freeing space,
 * it succeeds. The database is full in two ways: capped at its size with SOCRATES_DB_MAX_PAGES
 * and filled to the cap (SQLite answers SQLITE_FULL as on a full disk; works anywhere), and, when
 * the tests run as root, on a real tmpfs filled to the last byte. File writes (an export) meet
 * ENOSPC on Linux's /dev/full and on the full tmpfs. Finally an import leaves no write-ahead log
 * behind although another connection (the web server's) keeps the database open.
 */
import Database from "better-sqlite3";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db.server.ts";
import { fixtureBundle } from "../fixtures/bundle-fixture.ts";
import { syntheticBundle } from "../../bench/synthetic-bundle.ts";
import { runCli } from "../helpers/cli.ts";
import { fillToPageLimit } from "../helpers/full-db.ts";
import { tableCounts, tempDir } from "../../harness/temp-db.ts";
import { mountTinyTmpfs, tmpfsUnavailable, type TinyTmpfs } from "../helpers/tmpfs.ts";

/** Each case runs the real CLI several times (seconds each on a loaded machine): a wait, not a timing target. */
const CLI_CASE = { timeout: 180_000 };

let tmp: ReturnType<typeof tempDir>;
let bundleFile: string;

beforeAll(() => {
  tmp = tempDir("socrates-cli-full-");
  bundleFile = join(tmp.dir, "bundle.json");
  // A background long enough to need pages of its own: a small bundle may fit in the free room of pages already there.
  const bundle = fixtureBundle();
  bundle.scenarios[0].background = "A long-running dispute over a shared fence. ".repeat(2000);
  writeFileSync(bundleFile, JSON.stringify(bundle));
});
afterAll(() => tmp.cleanup());

/** Table row counts and the integrity check of a database file, read by a connection of its own. */
async function snapshot(path: string): Promise<{ counts: Record<string, number>; integrity: unknown }> {
  const db = await openDatabase(path);
  try {
    return { counts: await tableCounts(db), integrity: db.$client.pragma("integrity_check", { simple: true }) };
  } finally {
    db.$client.close();
  }
}

function expectCleanFailure(result: { status: number | null; stderr: string }, message: RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  // One line, no stack trace.
  expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
}

describe("socrates import into a database at its page cap (SOCRATES_DB_MAX_PAGES)", () => {
  it(
    "exits 2 naming the cause and the file system, changes nothing, and imports once space is freed",
    CLI_CASE,
    async () => {
      const dbPath = join(tmp.dir, "capped.db");
      const conn = (await openDatabase(dbPath)).$client;
      const filled = fillToPageLimit(conn, 50);
      conn.close();
      const before = await snapshot(dbPath);
      const env = { SOCRATES_DB: dbPath, SOCRATES_DB_MAX_PAGES: String(filled.maxPages) };

      const refused = runCli(["import", bundleFile], env);
      expectCleanFailure(
        refused,
        new RegExp(
          `^error: database or disk is full on /\\S* \\([^)]* free; database ${dbPath.replace(/[.]/g, "\\.")}; SOCRATES_DB_MAX_PAGES caps it at ${filled.maxPages} pages\\): ` +
            "free space and rerun; nothing was changed by the write that failed\\n$",
        ),
      );
      expect(await snapshot(dbPath)).toEqual(before);

      const again = new Database(dbPath);
      again.exec("DELETE FROM disk_filler"); // frees the filler's pages, as deleting files frees a disk
      again.close();
      const imported = runCli(["import", bundleFile], env);
      expect(imported.status, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/^imported 1 scenarios/);
      expect((await snapshot(dbPath)).counts.scenarios).toBe(before.counts.scenarios + 1);
    },
  );

  it("refuses a page cap that is not a whole number, naming the setting", () => {
    const result = runCli(["db", "migrate"], { SOCRATES_DB: join(tmp.dir, "any.db"), SOCRATES_DB_MAX_PAGES: "lots" });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('SOCRATES_DB_MAX_PAGES must be a whole number of pages (at least 1), got "lots"');
  });
});

describe.skipIf(!existsSync("/dev/full"))("socrates export onto a device with no space (/dev/full)", () => {
  it("exits 2 naming the file it could not write and its file system, without a stack trace", CLI_CASE, () => {
    const dbPath = join(tmp.dir, "export.db");
    expect(runCli(["import", bundleFile], { SOCRATES_DB: dbPath }).status).toBe(0);
    const result = runCli(["export", "/dev/full"], { SOCRATES_DB: dbPath });
    expectCleanFailure(
      result,
      /^error: disk is full on \/\S*.*: could not write \/dev\/full, which may be incomplete; free space and rerun\n$/,
    );
  });
});

describe.skipIf(tmpfsUnavailable() !== null)("on a real full file system (a tmpfs; root only)", () => {
  let fs: TinyTmpfs | null = null;
  afterEach(() => {
    fs?.cleanup();
    fs = null;
  });

  it(
    "import and export exit 2 naming the tmpfs with 0 B free; both work once the filler is deleted",
    CLI_CASE,
    async (ctx) => {
      fs = mountTinyTmpfs(8 * 1024 * 1024);
      if (!fs) return ctx.skip(); // root, but this system does not allow the mount
      const dbPath = join(fs.dir, "app.db");
      (await openDatabase(dbPath)).$client.close(); // migrated, then the last close removes the log
      const before = await snapshot(dbPath);
      // The export reads a database elsewhere and writes onto the tmpfs.
      const sourceEnv = { SOCRATES_DB: join(tmp.dir, "tmpfs-export-source.db") };
      expect(runCli(["import", bundleFile], sourceEnv).status).toBe(0);
      const outFile = join(fs.dir, "export.json");
      fs.fill();

      const env = { SOCRATES_DB: dbPath };
      const refused = runCli(["import", bundleFile], env);
      expectCleanFailure(
        refused,
        new RegExp(
          `^error: database or disk is full on ${fs.dir} \\(0 B free; database ${dbPath}\\): free space and rerun; nothing was changed by the write that failed\\n$`,
        ),
      );
      const exported = runCli(["export", outFile], sourceEnv);
      expectCleanFailure(
        exported,
        new RegExp(
          `^error: disk is full on ${fs.dir} \\(0 B free\\): could not write ${outFile}, which may be incomplete; free space and rerun\\n$`,
        ),
      );

      fs.free();
      expect(await snapshot(dbPath)).toEqual(before);
      expect(runCli(["import", bundleFile], env).status).toBe(0);
      expect(runCli(["export", outFile], sourceEnv).status).toBe(0);
      expect((JSON.parse(readFileSync(outFile, "utf8")) as { scenarios: unknown[] }).scenarios).toHaveLength(1);
    },
  );
});

describe("the write-ahead log after an import", () => {
  it(
    "is checkpointed and truncated to zero bytes although the web server's connection keeps the database open",
    CLI_CASE,
    async () => {
      const dbPath = join(tmp.dir, "wal.db");
      const big = join(tmp.dir, "big.json");
      writeFileSync(big, JSON.stringify(syntheticBundle(1, "wal")));
      // Stands in for the running web server: while it is open, the CLI's exit does not remove the log.
      const server = await openDatabase(dbPath);
      try {
        const result = runCli(["import", big], { SOCRATES_DB: dbPath });
        expect(result.status, result.stderr).toBe(0);
        expect((await tableCounts(server)).scenarios).toBe(1);
        expect(statSync(big).size).toBeGreaterThan(3_000_000);
        // Without the checkpoint the log would hold every page the import wrote (more than the bundle's size).
        expect(statSync(`${dbPath}-wal`).size).toBe(0);
        expect(statSync(dbPath).size).toBeGreaterThan(3_000_000);
      } finally {
        server.$client.close();
      }
    },
  );
});
