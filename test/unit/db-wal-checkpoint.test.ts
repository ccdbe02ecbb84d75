/**
 * The write-ahead log after a bulk import (issue 29, finding 10: a 7.5 MB import left a 23 MB log
 * that refilled the disk). importBundleFiles checkpoints it to zero bytes after its commit; the
 * checkpoint is best effort: inside a caller's transaction it waits for that transaction's end,
 * and a reader on an older snapshot makes it give up without failing the import.
 */
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkpointWal } from "../../app/server/db.server.ts";
import { transact } from "../../app/server/db-transaction.server.ts";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { fixtureBundle } from "../fixtures/bundle-fixture.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";

let t: Awaited<ReturnType<typeof tempDb>>;
let other: Database.Database;
const walBytes = () => statSync(`${t.path}-wal`).size;
const bundleFile = () => [{ file: "fixture.json", text: JSON.stringify(fixtureBundle()) }];

beforeEach(async () => {
  t = await tempDb();
  // Another connection on the file (the web server's): with it open, closing ours would not remove the log.
  other = new Database(t.path);
});

afterEach(() => {
  if (other.inTransaction) other.exec("ROLLBACK");
  other.close();
  t.cleanup();
});

describe("checkpointing the write-ahead log after an import", () => {
  it("leaves a zero-byte log after importBundleFiles commits", async () => {
    await importBundleFiles(t.db, bundleFile());
    expect((await tableCounts(t.db)).scenarios).toBe(1);
    expect(walBytes()).toBe(0);
  });

  it("does nothing inside a caller's transaction (the web upload runs under the write lock), which still commits", async () => {
    await transact(t.db, async (tx) => {
      await importBundleFiles(tx, bundleFile());
      expect(checkpointWal(tx)).toBe(false);
    });
    expect(walBytes()).toBeGreaterThan(0);
    expect((await tableCounts(t.db)).scenarios).toBe(1);
    expect(checkpointWal(t.db)).toBe(true);
    expect(walBytes()).toBe(0);
  });

  it("gives up without failing the import while another reader holds an older snapshot", async () => {
    t.db.$client.pragma("busy_timeout = 0"); // the CLI would wait up to 5 s for the reader first
    other.exec("BEGIN");
    other.prepare("SELECT count(*) FROM scenarios").get(); // a read snapshot from before the import
    await importBundleFiles(t.db, bundleFile());
    expect((await tableCounts(t.db)).scenarios).toBe(1);
    expect(walBytes()).toBeGreaterThan(0);
    other.exec("COMMIT");
    expect(checkpointWal(t.db)).toBe(true);
    expect(walBytes()).toBe(0);
  });

  it("caps the log a later checkpoint resets at 4 MiB (journal_size_limit)", () => {
    expect(t.db.$client.pragma("journal_size_limit", { simple: true })).toBe(4 * 1024 * 1024);
  });
});
