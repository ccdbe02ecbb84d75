/**
 * Data access for an active study's draws (study_draws): its population with each run's size and
 * key, and which runs have been drawn into the study, in what order. A draw and its items are
 * written by the caller's transaction (the allocation's IMMEDIATE one), never on their own.
 */
import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { DrawRow } from "../../domain/estimation/active-design.ts";
import type { Db } from "../db.server.ts";
import type { NewStudyItem } from "./study.server.ts";
import { changedRows } from "../db.server.ts";

const { studyDraws, studyItems, snippets, evaluations } = schema;

/** Stores a new active study's population (none drawn). */
export async function insertDraws(db: Db, studyId: number, rows: readonly DrawRow[]): Promise<void> {
  for (const r of rows) {
    await db.insert(studyDraws).values({
      studyId,
      runId: r.runId,
      mediator: r.mediator,
      uncertainty: r.uncertainty,
      size: r.size,
      key: r.key,
      position: r.position,
    });
  }
}

/** The study's population with its draws, in stratum then key order. */
export async function drawsOf(db: Db, studyId: number): Promise<(DrawRow & { drawnAt: string | null })[]> {
  return await db
    .select({
      runId: studyDraws.runId,
      mediator: studyDraws.mediator,
      uncertainty: studyDraws.uncertainty,
      size: studyDraws.size,
      key: studyDraws.key,
      position: studyDraws.position,
      drawnAt: studyDraws.drawnAt,
    })
    .from(studyDraws)
    .where(eq(studyDraws.studyId, studyId))
    .orderBy(asc(studyDraws.mediator), asc(studyDraws.key), asc(studyDraws.runId));
}

/** Marks the run drawn as the study's next draw; returns its position (1, 2, …). */
export async function markDrawn(db: Db, studyId: number, runId: string, at: string): Promise<number> {
  const last =
    (
      await db
        .select({ n: max(studyDraws.position) })
        .from(studyDraws)
        .where(eq(studyDraws.studyId, studyId))
        .limit(1)
    )[0]?.n ?? 0;
  const position = last + 1;
  const changed = changedRows(
    await db
      .update(studyDraws)
      .set({ position, drawnAt: at })
      .where(and(eq(studyDraws.studyId, studyId), eq(studyDraws.runId, runId), sql`${studyDraws.position} is null`)),
  );
  // The caller holds the write lock, so the run cannot have been drawn since it was chosen.
  if (changed !== 1) throw new Error(`study ${studyId}: run ${runId} is already drawn`);
  return position;
}

/** Appends items after the study's last position, in the order given. */
export async function appendItems(db: Db, studyId: number, items: readonly NewStudyItem[]): Promise<void> {
  const last =
    (
      await db
        .select({ n: max(studyItems.position) })
        .from(studyItems)
        .where(eq(studyItems.studyId, studyId))
        .limit(1)
    )[0]?.n ?? -1;
  for (const [i, item] of items.entries()) {
    await db.insert(studyItems).values({ ...item, studyId, position: last + 1 + i });
  }
}

/** Snippet rows of several runs, by run then position. */
export async function snippetsOfRuns(db: Db, runIds: readonly string[]) {
  if (runIds.length === 0) return [];
  return await db
    .select()
    .from(snippets)
    .where(inArray(snippets.runId, [...runIds]))
    .orderBy(asc(snippets.runId), asc(snippets.position));
}

/** The backbones of stored topic-localized evaluations, in name order (an active study's judge choices). */
export async function topicJudgeBackbones(db: Db): Promise<string[]> {
  return (
    await db
      .selectDistinct({ backbone: evaluations.backbone })
      .from(evaluations)
      .where(eq(evaluations.method, "topic-localized"))
      .orderBy(asc(evaluations.backbone))
  ).map((r) => r.backbone);
}
