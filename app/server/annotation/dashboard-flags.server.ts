/**
 * The study dashboard's flags: annotators' comments that an item is broken or unclear, listed for
 * admins with where to look, and marked resolved (resolved ones are hidden unless asked for).
 */
import { flagItemLinks, type FlagsPanelData } from "../../domain/flag-view.ts";
import type { Db } from "../db.server.ts";
import { badInput, notFound, ServiceError } from "../http/errors.server.ts";
import { findAbPair } from "../models/ab-pair.server.ts";
import { flagsOfStudy, resolveItemFlag } from "../models/item-flag.server.ts";
import { itemsWithContext } from "../models/study.server.ts";

export async function studyFlagsPanel(
  db: Db,
  studyId: number,
  options: { showResolved: boolean },
): Promise<FlagsPanelData> {
  const all = await flagsOfStudy(db, studyId);
  const flaggedIds = new Set(all.map((f) => f.itemId));
  // Most studies have no flags: then the study's items (thousands) are not read at all.
  const items = new Map(
    flaggedIds.size === 0
      ? []
      : (await itemsWithContext(db, [studyId])).filter((i) => flaggedIds.has(i.itemId)).map((i) => [i.itemId, i]),
  );
  const linksOf = async (itemId: number) => {
    const item = items.get(itemId);
    if (!item) return [];
    const pair = item.pairId ? await findAbPair(db, item.pairId) : undefined;
    return flagItemLinks({
      runId: item.runId,
      startTurn: item.startTurn,
      snippetPosition: item.snippetPosition,
      pairRuns: pair ? [pair.runAId, pair.runBId] : null,
    });
  };
  const shown = options.showResolved ? all : all.filter((f) => f.resolvedAt === null);
  return {
    // Newest first: the latest report is the one an admin has not seen yet.
    flags: (
      await Promise.all(
        shown.map(async (f) => ({
          id: f.id,
          itemId: f.itemId,
          position: f.position + 1,
          annotatorName: f.annotatorName,
          comment: f.comment,
          createdAt: f.createdAt,
          resolvedAt: f.resolvedAt,
          links: await linksOf(f.itemId),
        })),
      )
    ).reverse(),
    open: all.filter((f) => f.resolvedAt === null).length,
    resolved: all.filter((f) => f.resolvedAt !== null).length,
    showResolved: options.showResolved,
  };
}

/** Marks one of this study's open flags resolved; a flag of another study is a 404, one already resolved a 409. */
export async function resolveStudyFlag(db: Db, studyId: number, flagIdField: FormDataEntryValue | null): Promise<void> {
  const flagId = Number(flagIdField);
  if (!Number.isInteger(flagId) || flagId < 1)
    throw badInput("Which flag? The form did not say", [{ path: "flagId", message: "required" }]);
  const flag = (await flagsOfStudy(db, studyId)).find((f) => f.id === flagId);
  if (!flag) throw notFound(`Flag ${flagId} on this study`);
  if ((await resolveItemFlag(db, flagId, new Date().toISOString())) === 0)
    throw new ServiceError(409, `Flag ${flagId} was already resolved`);
}
