/**
 * A database as it stands on a full disk, without needing one: SQLite's own page cap
 * (PRAGMA max_page_count, what SOCRATES_DB_MAX_PAGES sets) makes a write that needs a new page
 * fail with SQLITE_FULL, exactly as when the file system has no room. The file is filled with a
 * filler table up to the cap, so no free page is left; deleting the filler frees pages again, as
 * deleting files frees a disk.
 */
import type Database from "better-sqlite3";

export interface FilledDatabase {
  /** The page cap the file is filled to (pass it as SOCRATES_DB_MAX_PAGES to another process). */
  maxPages: number;
  /** Deletes the filler rows: their pages become free pages that later writes reuse. */
  free: () => void;
}

function insertUntilFull(conn: Database.Database, bytes: number): void {
  const insert = conn.prepare("INSERT INTO disk_filler (b) VALUES (?)");
  for (;;) {
    try {
      insert.run(Buffer.alloc(bytes, 7));
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_FULL") return;
      throw err;
    }
  }
}

/** Caps `conn`'s database at its size plus `headroom` pages and fills that headroom; the cap stays set on `conn`. */
export function fillToPageLimit(conn: Database.Database, headroom: number): FilledDatabase {
  conn.exec("CREATE TABLE IF NOT EXISTS disk_filler (b BLOB NOT NULL)");
  const maxPages = (conn.pragma("page_count", { simple: true }) as number) + headroom;
  conn.pragma(`max_page_count = ${maxPages}`);
  // Large rows first, then small ones for what is left in the last pages.
  for (const bytes of [3000, 300, 30]) insertUntilFull(conn, bytes);
  return { maxPages, free: () => void conn.exec("DELETE FROM disk_filler") };
}
