/**
 * The CLI's one line for a full disk (scripts/disk-full.ts), for each way a write can fail for lack
 * of space; the real processes are run in cli-disk-full.test.ts. Other errors get no such line.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileSystemFullError, fileSystemOf, formatBytes, isStorageFull } from "../../app/server/storage-full.server.ts";
import { diskFullMessage } from "../../scripts/disk-full.ts";
import { tempDir } from "../../harness/temp-db.ts";

const errno = (code: string, path?: string) =>
  Object.assign(new Error(`${code}: no space left on device`), { code, ...(path ? { path } : {}) });

describe("diskFullMessage", () => {
  it("names the database's file system and the database for SQLite's full answers, opening included (SHMSIZE)", () => {
    const t = tempDir();
    try {
      const db = join(t.dir, "data", "app.db"); // the folder need not exist yet
      const fs = fileSystemOf(db);
      for (const code of ["SQLITE_FULL", "SQLITE_IOERR_SHMSIZE"]) {
        const message = diskFullMessage(new Database.SqliteError("database or disk is full", code), db);
        expect(message).toMatch(
          new RegExp(
            `^database or disk is full on ${fs.mount} \\(\\S+ [KMGT]?B free; database ${db}\\): free space and rerun; nothing was changed by the write that failed$`,
          ),
        );
      }
    } finally {
      t.cleanup();
    }
  });

  it("names the file and its file system for a file write, a mkdir (path on the error) and, without a path, says what it can", () => {
    expect(diskFullMessage(new FileSystemFullError("/tmp/out/report.md", "ENOSPC"))).toMatch(
      /^disk is full on \/\S* \(.* free\): could not write \/tmp\/out\/report\.md, which may be incomplete; free space and rerun$/,
    );
    expect(diskFullMessage(errno("EDQUOT", "/tmp/out/figures"))).toMatch(
      /^disk is full on \/\S* \(.* free\): could not write \/tmp\/out\/figures; free space and rerun$/,
    );
    expect(diskFullMessage(errno("ENOSPC"))).toBe(
      "disk is full (ENOSPC): a file could not be written; free space and rerun",
    );
  });

  it("gives other errors no disk-full line (they keep their own handling)", () => {
    expect(diskFullMessage(new Database.SqliteError("database is locked", "SQLITE_BUSY"))).toBeNull();
    expect(diskFullMessage(new Database.SqliteError("disk I/O error", "SQLITE_IOERR_WRITE"))).toBeNull();
    expect(diskFullMessage(errno("EACCES", "/root/x"))).toBeNull();
    expect(diskFullMessage(new TypeError("a bug"))).toBeNull();
    expect(isStorageFull(undefined)).toBe(false);
  });
});

describe("fileSystemOf and formatBytes", () => {
  it("finds the mount point above a path (the same device all the way up to it)", () => {
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, "a", "b"), { recursive: true });
      const deep = fileSystemOf(join(t.dir, "a", "b", "file"));
      expect(deep.mount).toBe(fileSystemOf(join(t.dir, "file")).mount);
      expect(join(t.dir, "a").startsWith(deep.mount)).toBe(true);
      expect(deep.freeBytes).toBeGreaterThanOrEqual(0);
    } finally {
      t.cleanup();
    }
  });

  it("prints bytes as df -H does (powers of 1000)", () => {
    expect([0, 999, 1000, 812_400, 3_400_000, 1_234_000_000, 56_000_000_000].map(formatBytes)).toEqual([
      "0 B",
      "999 B",
      "1.0 KB",
      "812 KB",
      "3.4 MB",
      "1.2 GB",
      "56 GB",
    ]);
  });
});
