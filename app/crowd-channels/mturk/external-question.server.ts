/**
 * MTurk ExternalQuestion mode: MTurk frames `/mturk/task?study=…&item=…` with its parameters
 * (external-question-params.server.ts); the page carries a signed token
 * (external-question-token.server.ts) that the submit is checked against. Workers here are gated
 * by MTurk's qualification requirement, so there is no in-app qualification step. Only HITs this
 * app published (`mturk_hits`) are served. The answer is stored once per AssignmentId through
 * recordCrowdAssignment and stays pending — stored, left out of every statistic — because its
 * worker, HIT and assignment ids come from the worker's browser: `mturk sync` (or a results file)
 * confirms it once MTurk reports that assignment for that worker and HIT. The page then hands the
 * answer back to MTurk.
 */
import { appSecret } from "../../server/auth/secret.server.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError, badInput, forbidden } from "../../server/http/errors.server.ts";
import { checkSecondsOnTask, saveDraft } from "../../server/annotation/submit.server.ts";
import { recordItemShown } from "../../server/annotation/item-shown.server.ts";
import { loadItem } from "../../server/annotation/task-view.server.ts";
import { TASK_SERVERS, type TaskPart } from "../../task-types/registry.server.ts";
import { findCrowdWorker } from "../../server/models/annotator.server.ts";
import { leaseFixedItem } from "../../server/models/assignment.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { findCrowdAssignment } from "../../server/models/crowd-assignment.server.ts";
import { latestOwnLabel, latestPayloadJson, loadDraft } from "../../server/models/label.server.ts";
import { findHit, type StoredHit } from "../../server/models/mturk-hit.server.ts";
import type { ItemRow, StudyRow } from "../../server/models/study.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import {
  allowedSubmitOrigins,
  environmentOfSubmitOrigin,
  submitOriginOf,
  type ExternalAssignment,
  type ExternalQuestionRequest,
} from "./external-question-params.server.ts";
import { signAssignment, verifyAssignmentToken, type SignedAssignment } from "./external-question-token.server.ts";
import { EntryLimited, type CrowdEntryLimiter, type EntryTally } from "../../server/crowd/entry-limiter.server.ts";
import { recordCrowdAssignment } from "../../server/crowd/record-assignment.server.ts";
import { findOrCreateCrowdWorker } from "../../server/crowd/workers.server.ts";

// ---------- checks shared by the page and the submit ----------

async function openCrowdStudy(db: Db, studyId: number): Promise<StudyRow> {
  const study = await studyOrNotFound(db, studyId);
  if (study.pool !== "crowd") throw forbidden(`Study ${studyId} is not a crowd study`);
  if (study.status !== "open")
    throw new ServiceError(409, `Study ${studyId} is closed and takes no more answers. Please return this HIT.`);
  return study;
}

const RETURN_IT = "Please return this HIT.";

/** The HIT as `mturk publish` stored it, for this very item; a HIT the app never created is refused. */
async function publishedHit(db: Db, hitId: string, studyId: number, itemId: number): Promise<StoredHit> {
  const hit = await findHit(db, hitId);
  if (!hit)
    throw forbidden(
      `HIT ${hitId} was not published by this study's \`mturk publish\`; answers are taken only for HITs it created. ${RETURN_IT}`,
    );
  if (hit.studyId !== studyId || hit.itemId !== itemId) {
    throw new ServiceError(
      409,
      `HIT ${hitId} is for item ${hit.itemId} of study ${hit.studyId}, not item ${itemId} of study ${studyId}`,
    );
  }
  return hit;
}

/**
 * An accepted assignment's HIT: published by this app for this item, in the environment the
 * assignment comes from. Anything else is refused before a worker is created or a label stored,
 * so an invented HIT id brings nothing in.
 */
async function checkedHit(db: Db, a: ExternalAssignment): Promise<StoredHit> {
  const hit = await publishedHit(db, a.hitId, a.studyId, a.itemId);
  const environment = environmentOfSubmitOrigin(a.turkSubmitTo);
  if (hit.environment !== environment)
    throw forbidden(
      `HIT ${a.hitId} was published in the MTurk ${hit.environment}, but this assignment comes from the ${environment}. ${RETURN_IT}`,
    );
  return hit;
}

interface StoredAssignment {
  studyId: number;
  itemId: number | null;
  annotatorId: number;
  labelId: number | null;
}

async function storedAssignment(db: Db, assignmentId: string): Promise<StoredAssignment | undefined> {
  const row = await findCrowdAssignment(db, "mturk", assignmentId);
  return row && { studyId: row.studyId, itemId: row.studyItemId, annotatorId: row.annotatorId, labelId: row.labelId };
}

/** What the page posts to MTurk: `<turkSubmitTo>/mturk/externalSubmit` with the assignment id and the stored label. */
export interface ExternalSubmitForm {
  action: string;
  assignmentId: string;
  labelId: number;
  /** The label payload as JSON. */
  label: string;
}

async function handoffFor(
  db: Db,
  a: ExternalAssignment,
  stored: StoredAssignment,
  annotatorId: number,
): Promise<ExternalSubmitForm> {
  if (stored.studyId !== a.studyId || stored.itemId !== a.itemId || stored.annotatorId !== annotatorId) {
    throw new ServiceError(409, `Assignment ${a.assignmentId} was stored for another item or worker`);
  }
  if (stored.labelId === null)
    throw new ServiceError(409, `Assignment ${a.assignmentId} was rejected on MTurk; its answer is not used`);
  const label = (await latestPayloadJson(db, stored.labelId)) as string;
  return {
    action: `${a.turkSubmitTo}/mturk/externalSubmit`,
    assignmentId: a.assignmentId,
    labelId: stored.labelId,
    label,
  };
}

/** A worker answers an item once: a label of theirs from another assignment (another HIT) is not added to. */
async function refuseSecondAssignmentOnItem(db: Db, itemId: number, annotatorId: number | undefined): Promise<void> {
  if (annotatorId !== undefined && (await latestOwnLabel(db, itemId, annotatorId))) {
    throw new ServiceError(409, "You have already answered this item in another assignment. Please return this HIT.");
  }
}

/**
 * Refuses (409) an answer whose token says the page was served after the answer arrived. The token
 * is issued only by a served page, so a signed showing time is the item's first showing (issue 28)
 * without the page writing anything (issue 29: a GET creates nothing).
 */
function refuseBeforeShown(a: SignedAssignment, now: Date): void {
  if (!(Date.parse(a.shownAt) <= now.getTime())) {
    throw new ServiceError(
      409,
      `Item ${a.itemId} had not been shown to you yet when this answer arrived, so it was not stored. Read the item, then answer it.`,
    );
  }
}

// ---------- the page ----------

interface PageCommon {
  study: { id: number; name: string; guidelines: string };
  itemId: number;
}

export type ExternalTaskPage = PageCommon &
  TaskPart &
  (
    | { mode: "preview" }
    /** Accepted: the worker answers; `token` goes back with the answer. */
    | { mode: "work"; token: string; assignmentId: string }
    /** This assignment's answer is stored: only the hand-off to MTurk is left. */
    | { mode: "submitted"; token: string; assignmentId: string; handoff: ExternalSubmitForm }
  );

/** The item's typed part; the form starts from the worker's draft only (never a label from another channel). */
async function taskPart(db: Db, item: ItemRow, annotatorId: number | null): Promise<TaskPart> {
  const draft = annotatorId === null ? null : await loadDraft(db, item.id, annotatorId);
  return await TASK_SERVERS[item.kind].taskPart(db, item, annotatorId, { draft, latest: null });
}

/**
 * The task page for MTurk's parameters: a read-only preview, the task for an accepted assignment,
 * or — when this assignment's answer is already stored — the hand-off form again, never a second
 * label. It writes nothing (issue 29): no worker, lease or showing is stored until the worker
 * posts an answer or a draft, so invented worker ids on a published HIT leave no trace and hold
 * no place. The showing time travels in the signed token instead.
 */
export async function externalTaskPage(
  db: Db,
  request: ExternalQuestionRequest,
  now = new Date(),
  secret = appSecret(),
): Promise<ExternalTaskPage> {
  const study = await openCrowdStudy(db, request.studyId);
  const item = await loadItem(db, request.studyId, request.itemId);
  const common: PageCommon = {
    study: { id: study.id, name: study.name, guidelines: study.guidelines },
    itemId: item.id,
  };
  if (request.mode === "preview") {
    // MTurk names the HIT in a preview too: one the app never published is refused before anyone accepts it.
    if (request.hitId !== undefined) await publishedHit(db, request.hitId, study.id, item.id);
    return { ...common, ...(await taskPart(db, item, null)), mode: "preview" };
  }

  await checkedHit(db, { ...request, itemId: item.id });
  const annotatorId = await findCrowdWorker(db, "mturk", request.workerId.trim());
  const token = signAssignment({ ...request, shownAt: now.toISOString() }, secret);
  const stored = await storedAssignment(db, request.assignmentId);
  if (stored) {
    if (annotatorId === undefined)
      throw new ServiceError(409, `Assignment ${request.assignmentId} was stored for another item or worker`);
    return {
      ...common,
      ...(await taskPart(db, item, annotatorId)),
      mode: "submitted",
      token,
      assignmentId: request.assignmentId,
      handoff: await handoffFor(db, request, stored, annotatorId),
    };
  }
  await refuseSecondAssignmentOnItem(db, item.id, annotatorId);
  return {
    ...common,
    ...(await taskPart(db, item, annotatorId ?? null)),
    mode: "work",
    token,
    assignmentId: request.assignmentId,
  };
}

// ---------- the submit ----------

export interface ExternalSubmitInput {
  token: string;
  /** The label payload, parsed from JSON; validated against the item here. */
  payload: unknown;
  secondsOnTask: number | null;
}

export interface ExternalSubmitResult {
  handoff: ExternalSubmitForm;
  /** True when this assignment's answer was already stored: nothing new was written. */
  duplicate: boolean;
}

export interface ExternalOptions {
  secret?: string;
  allowed?: readonly string[];
  /**
   * Limits new assignments and workers per study and client network (the server passes its limiter; tests may leave it
   * out).
   */
  entries?: { limiter: CrowdEntryLimiter; network: string; tally?: EntryTally };
}

/** Refuses (429) a new row while the study's entries from this network are used up (unless this request counted). */
function checkEntryLimit(options: ExternalOptions, studyId: number, now: Date): void {
  if (options.entries?.tally?.counted) return;
  const wait = options.entries?.limiter.retryAfter(studyId, options.entries.network, now.getTime()) ?? 0;
  if (wait > 0) throw new EntryLimited(wait);
}

/** Counts the request's new row, once however often its transaction runs (PostgreSQL may run it again). */
function countEntry(options: ExternalOptions, studyId: number, now: Date): void {
  const entries = options.entries;
  if (!entries || entries.tally?.counted) return;
  entries.limiter.record(studyId, entries.network, now.getTime());
  if (entries.tally) entries.tally.counted = true;
}

/** The assignment behind a token, with its submit address still allowed. */
function assignmentOfToken(token: string, options: ExternalOptions): SignedAssignment {
  const a = verifyAssignmentToken(token, options.secret ?? appSecret());
  if (submitOriginOf(a.turkSubmitTo, options.allowed ?? allowedSubmitOrigins()) === null) {
    throw badInput(`turkSubmitTo "${a.turkSubmitTo}" is no longer an allowed MTurk submit address`, [
      { path: "turkSubmitTo", message: "not allowed" },
    ]);
  }
  return a;
}

/**
 * Stores the answer of an accepted assignment, once: a repeated submit (a double click, a reload,
 * a resent form) returns the stored answer's hand-off and writes nothing. Bad answers are refused
 * with a 400 listing each problem by its path.
 */
export async function submitExternalQuestion(
  db: Db,
  input: ExternalSubmitInput,
  now = new Date(),
  options: ExternalOptions = {},
): Promise<ExternalSubmitResult> {
  const a = assignmentOfToken(input.token, options);
  const study = await openCrowdStudy(db, a.studyId);
  await loadItem(db, study.id, a.itemId);
  const hit = await checkedHit(db, a);
  const before = await storedAssignment(db, a.assignmentId);
  if (before)
    return {
      handoff: await handoffFor(db, a, before, await findOrCreateCrowdWorker(db, "mturk", a.workerId)),
      duplicate: true,
    };
  checkEntryLimit(options, study.id, now);
  const annotatorId = await findOrCreateCrowdWorker(db, "mturk", a.workerId);

  const seconds = input.secondsOnTask;
  checkSecondsOnTask(seconds);
  await refuseSecondAssignmentOnItem(db, a.itemId, annotatorId);
  refuseBeforeShown(a, now);
  const outcome = await recordCrowdAssignment(db, {
    channel: "mturk",
    externalId: a.assignmentId,
    externalGroupId: a.hitId,
    studyId: study.id,
    itemId: a.itemId,
    workerId: a.workerId,
    status: "submitted",
    payload: input.payload,
    secondsOnTask: seconds,
    rewardUsd: hit.rewardUsd,
    acceptedAt: a.shownAt,
    submittedAt: now.toISOString(),
    source: "external-question",
  });
  // The page wrote nothing when it served the item; the showing its token carries is recorded now.
  await recordItemShown(db, a.itemId, annotatorId, new Date(a.shownAt));
  const after = await storedAssignment(db, a.assignmentId);
  if (!after) throw new Error(`Assignment ${a.assignmentId} was not stored`);
  if (outcome.kind === "stored") countEntry(options, study.id, now);
  // "unchanged": a concurrent submit of the same answer got there first.
  return { handoff: await handoffFor(db, a, after, annotatorId), duplicate: outcome.kind !== "stored" };
}

/** Autosaves the worker's unfinished answer; a worker id seen for the first time counts as a new entry. */
export async function saveExternalDraft(
  db: Db,
  token: string,
  payload: unknown,
  options: ExternalOptions = {},
  now = new Date(),
): Promise<void> {
  const a = assignmentOfToken(token, options);
  await openCrowdStudy(db, a.studyId);
  if (await storedAssignment(db, a.assignmentId)) return; // answered: the draft is no longer needed
  const known = await findCrowdWorker(db, "mturk", a.workerId.trim());
  if (known === undefined) checkEntryLimit(options, a.studyId, now);
  const annotatorId = known ?? (await findOrCreateCrowdWorker(db, "mturk", a.workerId));
  // A draft needs the worker's assignment: this POST leases the item (an unverified lease holds no
  // place against verified annotators) and records the showing the token carries.
  const study = await studyOrNotFound(db, a.studyId);
  const { leaseMinutes } = parseStudyConfig(study.config);
  await leaseFixedItem(
    db,
    a.itemId,
    annotatorId,
    a.shownAt,
    new Date(now.getTime() + leaseMinutes * 60_000).toISOString(),
  );
  await recordItemShown(db, a.itemId, annotatorId, new Date(a.shownAt));
  await saveDraft(db, a.studyId, a.itemId, annotatorId, payload);
  if (known === undefined) countEntry(options, a.studyId, now);
}
