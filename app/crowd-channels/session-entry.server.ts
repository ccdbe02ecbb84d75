/** The start shared by channels whose workers take the in-app reading test first. */
import type { Db } from "../server/db.server.ts";
import { qualifiedAt } from "../server/models/annotator.server.ts";
import type { EntryOutcome } from "./channel.server.ts";

export async function crowdSession(db: Db, studyId: number, annotatorId: number): Promise<EntryOutcome> {
  return {
    kind: "session",
    annotatorId,
    next: (await qualifiedAt(db, annotatorId)) ? `/annotate/${studyId}/next` : `/crowd/qualify?study=${studyId}`,
  };
}
