/** Data access for snippets (one back-and-forth exchange of a run). */
import { and, asc, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { snippets } = schema;

export type SnippetRow = typeof snippets.$inferSelect;

export function findSnippet(db: Db, snippetId: number): SnippetRow | undefined {
  return db.select().from(snippets).where(eq(snippets.id, snippetId)).get();
}

export function snippetAt(db: Db, runId: string, position: number): SnippetRow | undefined {
  return db.select().from(snippets).where(and(eq(snippets.runId, runId), eq(snippets.position, position))).get();
}

export function snippetsOfRun(db: Db, runId: string): SnippetRow[] {
  return db.select().from(snippets).where(eq(snippets.runId, runId)).orderBy(asc(snippets.position)).all();
}
