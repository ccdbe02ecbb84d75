/** Labels every item of an A/B study through the annotation services (lease, then submit), as annotators would. */
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import type { Db } from "../../app/server/db.server.ts";
import { findAbPair, type AbPairRow } from "../../app/server/models/ab-pair.server.ts";

export type AbChooser = (pair: AbPairRow, annotatorIndex: number) => "A" | "B";

/** The side with the higher level, flipped for some annotator/pair combinations so agreement is imperfect. */
export const imperfectChooser: AbChooser = (pair, annotator) => {
  const higher = pair.levelA > pair.levelB ? "A" : "B";
  const i = Number(pair.id.split(":").pop());
  const flip = (annotator === 1 && i % 3 === 1) || (annotator === 2 && i % 2 === 1);
  return flip ? (higher === "A" ? "B" : "A") : higher;
};

export async function labelAbStudy(
  db: Db,
  studyId: number,
  annotators: readonly number[],
  choose: AbChooser,
): Promise<number> {
  let stored = 0;
  for (const [index, annotatorId] of annotators.entries()) {
    for (
      let lease = await nextTask(db, studyId, annotatorId);
      lease;
      lease = await nextTask(db, studyId, annotatorId)
    ) {
      const { pairId } = db.$client
        .prepare("SELECT ab_pair_id AS pairId FROM study_items WHERE id = ?")
        .get(lease.itemId) as { pairId: string };
      const choice = choose((await findAbPair(db, pairId))!, index);
      await submitLabel(db, {
        studyId,
        itemId: lease.itemId,
        annotatorId,
        payload: { kind: "ab-reactiveness", choice },
        clientToken: `ab-${studyId}-${lease.itemId}-${annotatorId}`,
        secondsOnTask: 5,
      });
      stored++;
    }
  }
  return stored;
}
