/**
 * The crowd assignment store: one row per unit of paid crowd work as its channel reports it (an
 * MTurk assignment, a Prolific session), keyed by (channel, external id). Data access only; the
 * services in app/server/crowd decide what is recorded.
 */
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { crowdAssignments, annotators } = schema;

export const CROWD_ASSIGNMENT_STATUSES = ["accepted", "submitted", "approved", "rejected"] as const;
export type CrowdAssignmentStatus = (typeof CROWD_ASSIGNMENT_STATUSES)[number];
export type CrowdSource = "batch-import" | "external-question" | "sync" | "prolific";

/** What is stored for one channel assignment: enough to check a resubmit against it. */
export interface StoredCrowdAssignment {
  id: number;
  studyId: number;
  studyItemId: number | null;
  annotatorId: number;
  /** MTurk HITId (Prolific STUDY_ID). */
  externalGroupId: string | null;
  labelId: number | null;
  payloadHash: string | null;
  status: CrowdAssignmentStatus;
  /** When the channel confirmed the work; null while pending. */
  confirmedAt: string | null;
}

const findQuery = preparedOnce((db) =>
  db
    .select({
      id: crowdAssignments.id,
      studyId: crowdAssignments.studyId,
      studyItemId: crowdAssignments.studyItemId,
      annotatorId: crowdAssignments.annotatorId,
      externalGroupId: crowdAssignments.externalGroupId,
      labelId: crowdAssignments.labelId,
      payloadHash: crowdAssignments.payloadHash,
      status: crowdAssignments.status,
      confirmedAt: crowdAssignments.confirmedAt,
    })
    .from(crowdAssignments)
    .where(
      and(
        eq(crowdAssignments.channel, sql.placeholder("channel")),
        eq(crowdAssignments.externalId, sql.placeholder("externalId")),
      ),
    )
    .prepare(),
);

export async function findCrowdAssignment(
  db: Db,
  channel: string,
  externalId: string,
): Promise<StoredCrowdAssignment | undefined> {
  return (await findQuery(db).execute({ channel, externalId }))[0] as StoredCrowdAssignment | undefined;
}

export type NewCrowdAssignment = typeof crowdAssignments.$inferInsert;

/** Inserts a crowd assignment; returns its row id. */
export async function insertCrowdAssignment(db: Db, values: NewCrowdAssignment): Promise<number> {
  return (await db.insert(crowdAssignments).values(values).returning({ id: crowdAssignments.id }))[0].id;
}

/** Records the status the channel now reports (e.g. approved after a sync). */
export async function setCrowdAssignmentStatus(db: Db, id: number, status: CrowdAssignmentStatus): Promise<void> {
  await db.update(crowdAssignments).set({ status }).where(eq(crowdAssignments.id, id));
}

/** Attaches the label an assignment produced (a reversed rejection brings its label late). */
export async function setCrowdAssignmentLabel(db: Db, id: number, labelId: number, payloadHash: string): Promise<void> {
  await db.update(crowdAssignments).set({ labelId, payloadHash }).where(eq(crowdAssignments.id, id));
}

/** Restores the hash of an assignment's stored answer (cleared by migration 0005). */
export async function setCrowdAssignmentHash(db: Db, id: number, payloadHash: string): Promise<void> {
  await db.update(crowdAssignments).set({ payloadHash }).where(eq(crowdAssignments.id, id));
}

/** Our review decision on an assignment and when it was made. */
export async function setCrowdAssignmentDecision(
  db: Db,
  id: number,
  decision: "approve" | "reject",
  reason: string | null,
  at: string,
): Promise<void> {
  await db
    .update(crowdAssignments)
    .set({ decision, decisionReason: reason, decidedAt: at })
    .where(eq(crowdAssignments.id, id));
}

export interface CrowdAssignmentRow {
  id: number;
  channel: string;
  externalId: string;
  externalGroupId: string | null;
  studyItemId: number | null;
  annotatorId: number;
  workerId: string;
  labelId: number | null;
  status: CrowdAssignmentStatus;
  rewardUsd: number | null;
  workSeconds: number | null;
  decision: "approve" | "reject" | null;
  decisionReason: string | null;
  /** Null while the channel has not confirmed the work. */
  confirmedAt: string | null;
}

export async function listCrowdAssignments(db: Db, studyId: number, channel?: string): Promise<CrowdAssignmentRow[]> {
  return (await db
    .select({
      id: crowdAssignments.id,
      channel: crowdAssignments.channel,
      externalId: crowdAssignments.externalId,
      externalGroupId: crowdAssignments.externalGroupId,
      studyItemId: crowdAssignments.studyItemId,
      annotatorId: crowdAssignments.annotatorId,
      workerId: annotators.externalId,
      labelId: crowdAssignments.labelId,
      status: crowdAssignments.status,
      rewardUsd: crowdAssignments.rewardUsd,
      workSeconds: crowdAssignments.workSeconds,
      decision: crowdAssignments.decision,
      decisionReason: crowdAssignments.decisionReason,
      confirmedAt: crowdAssignments.confirmedAt,
    })
    .from(crowdAssignments)
    .innerJoin(annotators, eq(annotators.id, crowdAssignments.annotatorId))
    .where(
      and(
        eq(crowdAssignments.studyId, studyId),
        channel === undefined ? undefined : eq(crowdAssignments.channel, channel),
      ),
    )
    .orderBy(asc(crowdAssignments.id))) as CrowdAssignmentRow[];
}

/** A channel session (Prolific) as stored. */
export interface SessionRow {
  id: number;
  studyId: number;
  annotatorId: number;
  externalGroupId: string | null;
  status: string;
  acceptedAt: string | null;
  workSeconds: number | null;
}

const sessionColumns = {
  id: crowdAssignments.id,
  studyId: crowdAssignments.studyId,
  annotatorId: crowdAssignments.annotatorId,
  externalGroupId: crowdAssignments.externalGroupId,
  status: crowdAssignments.status,
  acceptedAt: crowdAssignments.acceptedAt,
  workSeconds: crowdAssignments.workSeconds,
};

export async function findSession(db: Db, channel: string, externalId: string): Promise<SessionRow | undefined> {
  return (
    await db
      .select(sessionColumns)
      .from(crowdAssignments)
      .where(and(eq(crowdAssignments.channel, channel), eq(crowdAssignments.externalId, externalId)))
      .limit(1)
  )[0];
}

/** The annotator's latest session on a channel in a study. */
export async function latestSession(
  db: Db,
  channel: string,
  studyId: number,
  annotatorId: number,
): Promise<SessionRow | undefined> {
  return (
    await db
      .select(sessionColumns)
      .from(crowdAssignments)
      .where(
        and(
          eq(crowdAssignments.channel, channel),
          eq(crowdAssignments.studyId, studyId),
          eq(crowdAssignments.annotatorId, annotatorId),
        ),
      )
      .orderBy(desc(crowdAssignments.id))
      .limit(1)
  )[0];
}

/** A channel session with what a channel's own list must match to confirm it. */
export interface SessionForConfirmation {
  id: number;
  sessionId: string;
  studyId: number;
  /** The participant id the session was entered with. */
  participantId: string;
  annotatorId: number;
  externalGroupId: string | null;
  status: CrowdAssignmentStatus;
  confirmedAt: string | null;
}

const confirmationQuery = preparedOnce((db) =>
  db
    .select({
      id: crowdAssignments.id,
      sessionId: crowdAssignments.externalId,
      studyId: crowdAssignments.studyId,
      participantId: annotators.externalId,
      annotatorId: crowdAssignments.annotatorId,
      externalGroupId: crowdAssignments.externalGroupId,
      status: crowdAssignments.status,
      confirmedAt: crowdAssignments.confirmedAt,
    })
    .from(crowdAssignments)
    .innerJoin(annotators, eq(annotators.id, crowdAssignments.annotatorId))
    .where(
      and(
        eq(crowdAssignments.channel, sql.placeholder("channel")),
        eq(crowdAssignments.externalId, sql.placeholder("externalId")),
      ),
    )
    .prepare(),
);

/** The stored session with this external id on a channel, in whatever study (the caller checks). */
export async function sessionForConfirmation(
  db: Db,
  channel: string,
  externalId: string,
): Promise<SessionForConfirmation | undefined> {
  return (await confirmationQuery(db).execute({ channel, externalId }))[0] as SessionForConfirmation | undefined;
}

/** Records that the channel confirmed the work (only the first time). */
export async function confirmCrowdAssignment(db: Db, id: number, at: string): Promise<void> {
  await db
    .update(crowdAssignments)
    .set({ confirmedAt: sql`coalesce(${crowdAssignments.confirmedAt}, ${at})` })
    .where(eq(crowdAssignments.id, id));
}

/** A study's sessions on a channel: how many the channel confirmed and how many await it. */
export async function sessionConfirmationCounts(
  db: Db,
  studyId: number,
  channel: string,
): Promise<{ confirmed: number; pending: number }> {
  const row = (
    await db
      .select({
        confirmed: sql<number>`count(${crowdAssignments.confirmedAt})`,
        pending: sql<number>`count(*) - count(${crowdAssignments.confirmedAt})`,
      })
      .from(crowdAssignments)
      .where(and(eq(crowdAssignments.studyId, studyId), eq(crowdAssignments.channel, channel)))
      .limit(1)
  )[0];
  return { confirmed: row?.confirmed ?? 0, pending: row?.pending ?? 0 };
}

/** Closes a session: submitted now, with its work time; a reward already set is kept. */
export async function markSessionSubmitted(
  db: Db,
  id: number,
  at: string,
  workSeconds: number | null,
  rewardUsd: number | null,
): Promise<void> {
  await db
    .update(crowdAssignments)
    .set({
      status: "submitted",
      submittedAt: at,
      workSeconds,
      rewardUsd: sql`coalesce(${crowdAssignments.rewardUsd}, ${rewardUsd})`,
    })
    .where(eq(crowdAssignments.id, id));
}

/** The channel of every annotator with a label or a crowd assignment in the study (null for accounts of our own). */
export async function annotatorChannelsOfStudy(
  db: Db,
  studyId: number,
): Promise<{ id: number; channel: string | null }[]> {
  const labelled = db
    .select({ id: schema.labels.annotatorId })
    .from(schema.labels)
    .innerJoin(schema.studyItems, eq(schema.studyItems.id, schema.labels.studyItemId))
    .where(eq(schema.studyItems.studyId, studyId));
  const assigned = db
    .select({ id: crowdAssignments.annotatorId })
    .from(crowdAssignments)
    .where(eq(crowdAssignments.studyId, studyId));
  return await db
    .select({ id: annotators.id, channel: annotators.channel })
    .from(annotators)
    .where(or(inArray(annotators.id, labelled), inArray(annotators.id, assigned)));
}
