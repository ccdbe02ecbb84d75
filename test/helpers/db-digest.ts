/** A content digest of every table of a database: "nothing changed" means no row added, removed or rewritten. */
import { createHash } from "node:crypto";
import type { Db } from "../../app/server/db.server.ts";

/** Per table, sha256 of its rows in rowid order (every column, timestamps included). */
export function tableDigests(db: Db): Record<string, string> {
  const tables = db.$client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => {
      const hash = createHash("sha256");
      for (const row of db.$client.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).iterate())
        hash.update(`${JSON.stringify(row)}\n`);
      return [name, hash.digest("hex")];
    }),
  );
}
