/**
 * A full disk, told apart from other failures. SQLite answers SQLITE_FULL ("database or disk is
 * full") when its file system has no room (SQLITE_IOERR_SHMSIZE when that stops it growing the
 * shared-memory file of a WAL database), and also when a connection's max_page_count is reached
 * (the SOCRATES_DB_MAX_PAGES test setting, db.server.ts); a plain file write answers ENOSPC, or
 * EDQUOT past a quota. Either way the write that failed changed nothing in the database (SQLite
 * rolls its transaction back), and writing works again once space is freed. The web server answers
 * such a failure with 503 and Retry-After (http/unavailable.server.ts), the CLI with a message
 * naming the file system and exit code 2 (scripts/disk-full.ts).
 */
import Database from "better-sqlite3";
import { dirname, resolve } from "node:path";
import { realpathSync, statfsSync, statSync, writeFileSync, type WriteFileOptions } from "node:fs";

const FULL_ERRNO = new Set(["ENOSPC", "EDQUOT"]);

/** A file the program writes (a report, an export) could not be written: its file system is full. */
export class FileSystemFullError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`no space left to write ${path} (${code})`);
    this.name = "FileSystemFullError";
  }
}

/** True for a write refused for lack of space: SQLite's SQLITE_FULL, a file write's ENOSPC or EDQUOT. */
export function isStorageFull(err: unknown): boolean {
  if (err instanceof FileSystemFullError) return true;
  // SHMSIZE: the shared-memory file beside a WAL database could not grow, which on Unix means no space (e.g. opening on
  // a full disk).
  if (err instanceof Database.SqliteError)
    return err.code.startsWith("SQLITE_FULL") || err.code === "SQLITE_IOERR_SHMSIZE";
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" && FULL_ERRNO.has(code);
}

/**
 * writeFileSync that names the file when the disk is full: Node's ENOSPC error does not carry the
 * path, and the user needs it to know which file system to free.
 */
export function writeOutputFile(path: string, data: string | NodeJS.ArrayBufferView, options?: WriteFileOptions): void {
  try {
    writeFileSync(path, data, options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code && FULL_ERRNO.has(code)) throw new FileSystemFullError(resolve(path), code);
    throw err;
  }
}

export interface FileSystemInfo {
  /** Where the file system holding the path is mounted (the path itself when that cannot be found). */
  mount: string;
  /** Bytes an unprivileged writer may still use there; null when the system does not say. */
  freeBytes: number | null;
}

/** The nearest existing directory at or above `path` (a database or report folder may not exist yet). */
function existingDir(path: string): string {
  let dir = resolve(path);
  for (;;) {
    try {
      if (statSync(dir).isDirectory()) return realpathSync(dir);
    } catch {
      // not there (yet): look one level up
    }
    const up = dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
}

/** The file system a path lives on: its mount point (the highest directory on the same device) and its free space. */
export function fileSystemOf(path: string): FileSystemInfo {
  const start = existingDir(dirname(resolve(path)));
  let mount = start;
  try {
    const device = statSync(start).dev;
    for (let up = dirname(mount); up !== mount && statSync(up).dev === device; up = dirname(up)) mount = up;
  } catch {
    mount = start;
  }
  let freeBytes: number | null = null;
  try {
    const fs = statfsSync(start);
    freeBytes = fs.bavail * fs.bsize;
  } catch {
    freeBytes = null;
  }
  return { mount, freeBytes };
}

/** Bytes in a short human form: 0 B, 812 KB, 3.4 MB, 1.2 GB (powers of 1000, as df -H). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
