/**
 * The CLI's answer to a full disk: one line naming the cause and the file system to free, instead
 * of a stack trace (cli.ts prints it and exits with code 2, as for bad input).
 */
import { databasePath, testPageLimit } from "../app/server/db.server.ts";
import { FileSystemFullError, fileSystemOf, formatBytes, isStorageFull } from "../app/server/storage-full.server.ts";

/** "<mount point> (<free> free; <notes>)": the file system holding `path`, and anything else worth saying. */
function where(path: string, ...notes: string[]): string {
  const fs = fileSystemOf(path);
  const details = [...(fs.freeBytes === null ? [] : [`${formatBytes(fs.freeBytes)} free`]), ...notes];
  return details.length ? `${fs.mount} (${details.join("; ")})` : fs.mount;
}

/** The message for a write that failed for lack of space, or null when `err` is something else. */
export function diskFullMessage(err: unknown, dbPath: string = databasePath()): string | null {
  if (!isStorageFull(err)) return null;
  if (err instanceof FileSystemFullError) {
    return `disk is full on ${where(err.path)}: could not write ${err.path}, which may be incomplete; free space and rerun`;
  }
  const code = (err as { code?: string }).code ?? "";
  if (code.startsWith("SQLITE_")) {
    // The test-only page cap makes SQLite say "full" with room on the disk: say so rather than send the user hunting.
    const limit = testPageLimit();
    const cap = limit === null ? [] : [`SOCRATES_DB_MAX_PAGES caps it at ${limit} pages`];
    return `database or disk is full on ${where(dbPath, `database ${dbPath}`, ...cap)}: free space and rerun; nothing was changed by the write that failed`;
  }
  // ENOSPC or EDQUOT from outside writeOutputFile: mkdir and open name their path, a plain write does not.
  const path = (err as NodeJS.ErrnoException).path;
  if (path) return `disk is full on ${where(path)}: could not write ${path}; free space and rerun`;
  return `disk is full (${code}): a file could not be written; free space and rerun`;
}
