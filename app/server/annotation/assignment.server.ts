/**
 * Task allocation. Each item gets exactly k distinct verified annotators: an active lease or a
 * submitted assignment of an account, a signed-link worker or a confirmed label takes a slot
 * (unverified crowd identities never hold one against a verified annotator, models/assignment.server.ts); an expired
 * lease is released back to the pool; a skip takes no slot but the item is never offered to the skipper again
 * (models/assignment.server.ts). Allocation runs in one IMMEDIATE transaction, so concurrent requests (threads or
 * processes) serialise on SQLite's write lock and can never over-assign. Annotators get items in study order, which
 * keeps a trajectory's snippets in sequence. An active study (docs/active-labelling.md) adds a run's items only when
 * it is drawn, inside the same transaction.
 */
import type { Db } from "../db.server.ts";
import { forbidden, notFound } from "../http/errors.server.ts";
import {
  advanceAllocationCursor,
  firstOpenItem,
  hasOpenWork,
  heldLease,
  releaseLeasesEndedBy,
  upsertLease,
} from "../models/assignment.server.ts";
import { findStudy } from "../models/study.server.ts";
import { canDraw, drawNextRun } from "./active-draw.server.ts";
import { identityConfirmedOnSubmit } from "./identity.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { studyLock, transact } from "../db-transaction.server.ts";

export interface Lease {
  assignmentId: number;
  itemId: number;
  leaseExpiresAt: string;
  /** True when this is a lease the annotator already held (a reload or a return). */
  resumed: boolean;
}

const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000).toISOString();

/** Releases the study's expired leases; returns how many went back to the pool. */
export async function releaseExpiredLeases(db: Db, studyId: number, now = new Date()): Promise<number> {
  return await releaseLeasesEndedBy(db, studyId, now.toISOString());
}

/** The annotator's next task in a study (their current lease if they hold one), or null when none is left for them. */
export async function nextTask(db: Db, studyId: number, annotatorId: number, now = new Date()): Promise<Lease | null> {
  return await transact(
    db,
    async (db): Promise<Lease | null> => {
      const study = await findStudy(db, studyId);
      if (!study) throw notFound(`Study ${studyId}`);
      if (study.status !== "open") throw forbidden(`Study ${studyId} is closed`);
      const { leaseMinutes } = parseStudyConfig(study.config);
      await releaseExpiredLeases(db, studyId, now);

      const held = await heldLease(db, studyId, annotatorId);
      if (held) return { ...held, resumed: true };

      const open = async () =>
        await firstOpenItem(
          db,
          studyId,
          annotatorId,
          study.labelsPerItem,
          await identityConfirmedOnSubmit(db, annotatorId),
          now.toISOString(),
          await advanceAllocationCursor(db, studyId, study.labelsPerItem),
        );
      let itemId = await open();
      // An active study draws its next run only when nothing is open for the asker, in this transaction, so two
      // concurrent askers never draw twice (active-draw.server.ts).
      while (itemId === undefined && (await drawNextRun(db, study, now))) itemId = await open();
      if (itemId === undefined) return null;
      const leaseExpiresAt = addMinutes(now, leaseMinutes);
      // An annotator who let a lease lapse on this item may take it again: the row is reused.
      const assignmentId = await upsertLease(db, itemId, annotatorId, now.toISOString(), leaseExpiresAt);
      return { assignmentId, itemId, leaseExpiresAt, resumed: false };
    },
    { lock: studyLock(studyId) },
  );
}

/**
 * Whether the annotator holds a lease or could get an item now (read-only: leases nothing).
 * `verified` says which places they may take: by default their own identity's (an annotator id
 * that exists nowhere, the entry gate's newcomer, asks as an unverified one).
 */
export async function hasWorkFor(
  db: Db,
  studyId: number,
  annotatorId: number,
  now = new Date(),
  verifiedGiven?: boolean,
): Promise<boolean> {
  const verified = verifiedGiven ?? (await identityConfirmedOnSubmit(db, annotatorId));
  if (await hasOpenWork(db, studyId, annotatorId, now.toISOString(), verified)) return true;
  // An active study's undrawn runs are work too: asking draws one.
  const study = await findStudy(db, studyId);
  return study?.status === "open" && (await canDraw(db, study));
}
