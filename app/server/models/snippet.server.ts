/** Data access for snippets (one back-and-forth exchange of a run). */
import { and, asc, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { snippets } = schema;

export type SnippetRow = typeof snippets.$inferSelect;

// Read on every task page and submit: prepared once per connection.
const p = sql.placeholder;
const byId = preparedOnce((db) =>
  db
    .select()
    .from(snippets)
    .where(eq(snippets.id, p("id")))
    .prepare(),
);
const byPosition = preparedOnce((db) =>
  db
    .select()
    .from(snippets)
    .where(and(eq(snippets.runId, p("runId")), eq(snippets.position, p("position"))))
    .prepare(),
);

export function findSnippet(db: Db, snippetId: number): SnippetRow | undefined {
  return byId(db).get({ id: snippetId });
}

export function snippetAt(db: Db, runId: string, position: number): SnippetRow | undefined {
  return byPosition(db).get({ runId, position });
}

export function snippetsOfRun(db: Db, runId: string): SnippetRow[] {
  return db.select().from(snippets).where(eq(snippets.runId, runId)).orderBy(asc(snippets.position)).all();
}
