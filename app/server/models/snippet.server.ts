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

export async function findSnippet(db: Db, snippetId: number): Promise<SnippetRow | undefined> {
  return (await byId(db).execute({ id: snippetId }))[0];
}

export async function snippetAt(db: Db, runId: string, position: number): Promise<SnippetRow | undefined> {
  return (await byPosition(db).execute({ runId, position }))[0];
}

export async function snippetsOfRun(db: Db, runId: string): Promise<SnippetRow[]> {
  return await db.select().from(snippets).where(eq(snippets.runId, runId)).orderBy(asc(snippets.position));
}
