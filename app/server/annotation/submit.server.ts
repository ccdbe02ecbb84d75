/**
 * The submit service. Labels are append-only revisions: a submit adds revision n+1 and the latest
 * counts; a repeated submit with the same client token is stored once. Every submit is checked
 * here against the item it labels, whatever the browser checked: load the item's context, run
 * the pure checks from app/domain, then write through the label store.
 */
import { labelCommentSchema } from "../../domain/label-comment.ts";
import { z } from "zod";
import { checkLabel, labelPayloadSchema, type LabelPayload } from "../../task-types/registry.ts";
import { refuseOnSubmit } from "../../task-types/registry.server.ts";
import type { Db } from "../db.server.ts";
import { ServiceError, badInput, forbidden, zodProblems } from "../http/errors.server.ts";
import { revisionByClientToken, upsertDraft, writeLabelRevision } from "../models/label.server.ts";
import { findAssignment, markSubmitted, takenSlots } from "../models/assignment.server.ts";
import { identityConfirmedOnSubmit } from "./identity.server.ts";
import { refuseUnshown } from "./item-shown.server.ts";
import { statusForNewLabel } from "./label-status.server.ts";
import { getStudy } from "./studies.server.ts";
import { findItem } from "../models/study.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import {
  playedScenarioOfRun,
  previousOwnLabel,
  snippetContext,
  loadItem,
  type SnippetContext,
} from "./task-view.server.ts";
import { studyLock, transact } from "../db-transaction.server.ts";

export interface SubmitInput {
  studyId: number;
  itemId: number;
  annotatorId: number;
  payload: unknown;
  clientToken: string;
  secondsOnTask: number | null;
  /** The annotator's optional comment (checked with labelCommentSchema). */
  comment?: unknown;
}

export interface SubmitResult {
  labelId: number;
  revision: number;
  /** True when this client token had already been stored: nothing new was written. */
  duplicate: boolean;
}

const clientTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "a client token is 8–64 letters, digits, '_' or '-'");

/** Checks a payload against the item; returns it parsed, or throws a 400 listing every problem. */
export async function validatePayload(
  db: Db,
  itemId: number,
  studyId: number,
  annotatorId: number,
  payload: unknown,
): Promise<LabelPayload> {
  const item = await loadItem(db, studyId, itemId);
  const parsed = labelPayloadSchema.safeParse(payload);
  if (!parsed.success) throw badInput("The label is not valid", zodProblems(parsed.error));
  const label = parsed.data;
  if (label.kind !== item.kind)
    throw badInput(`Item ${itemId} takes a ${item.kind} label, not ${label.kind}`, [
      { path: "kind", message: `expected ${item.kind}` },
    ]);
  // The snippet's place in its run is read once, and only when a check needs it.
  let known: SnippetContext | undefined;
  const context = async () => (known ??= await snippetContext(db, item.snippetId as number));
  await refuseOnSubmit(item, label, context);
  const problems = await checkLabel(label, {
    scenario: async () => (await playedScenarioOfRun(db, (await context()).runId)).body,
    previousLabel: async () =>
      await previousOwnLabel(db, item, annotatorId, item.snippetId === null ? undefined : await context()),
  });
  if (problems.length) throw badInput("The label is not valid", problems);
  return label;
}

/** Refuses a time on task outside 0–86400 seconds (null means not measured). */
export function checkSecondsOnTask(seconds: number | null): void {
  if (seconds !== null && (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)) {
    throw badInput("Time on task is out of range", [{ path: "secondsOnTask", message: "0 to 86400 seconds" }]);
  }
}

/** The comment as stored (trimmed, null when empty), or a 400 naming the field. */
function checkedComment(value: unknown): string | null {
  const parsed = labelCommentSchema.safeParse(value ?? null);
  if (!parsed.success)
    throw badInput("The comment is not valid", [{ path: "comment", message: parsed.error.issues[0].message }]);
  return parsed.data;
}

async function storeSubmit(db: Db, input: SubmitInput): Promise<SubmitResult> {
  const repeated = await revisionByClientToken(db, input.clientToken);
  if (repeated) {
    if (repeated.annotatorId !== input.annotatorId || repeated.itemId !== input.itemId)
      throw new ServiceError(409, "This client token was already used for another submission");
    return { labelId: repeated.labelId, revision: repeated.revision, duplicate: true };
  }
  const study = await getStudy(db, input.studyId);
  if (study.status !== "open")
    throw new ServiceError(409, `Study ${input.studyId} is closed; labels can no longer be changed`);
  const payload = await validatePayload(db, input.itemId, input.studyId, input.annotatorId, input.payload);

  const assignment = await findAssignment(db, input.itemId, input.annotatorId);
  if (!assignment) throw forbidden(`Item ${input.itemId} is not assigned to you`);
  if (assignment.status === "skipped")
    throw new ServiceError(
      409,
      "You skipped this item, so it went back to the pool for others; your answer was not stored",
    );
  await refuseGoldRevision(db, study.config, input.itemId, assignment.status);
  // The lease lapsed: the work still counts if the item has a free slot.
  if (assignment.status === "released" && (await takenSlots(db, input.itemId)) >= study.labelsPerItem) {
    throw new ServiceError(
      409,
      "Your time on this item ran out and it went to another annotator; your answer was not stored",
    );
  }
  await markSubmitted(db, assignment.id, new Date().toISOString());
  const statusIfNew = await statusForNewLabel(
    db,
    input.itemId,
    study.labelsPerItem,
    await identityConfirmedOnSubmit(db, input.annotatorId),
  );
  const { labelId, revision } = await writeLabelRevision(db, {
    itemId: input.itemId,
    annotatorId: input.annotatorId,
    payload,
    clientToken: input.clientToken,
    secondsOnTask: input.secondsOnTask,
    comment: checkedComment(input.comment),
    statusIfNew,
  });
  return { labelId, revision, duplicate: false };
}

/**
 * Where the study shows gold feedback, a gold item's answer is final once given: the expected answer was shown after
 * it, and a revision would turn gold accuracy into a copy of that answer.
 */
async function refuseGoldRevision(db: Db, config: unknown, itemId: number, status: string): Promise<void> {
  if (status !== "submitted" || !parseStudyConfig(config).goldFeedback || !(await findItem(db, itemId))?.isGold) return;
  throw new ServiceError(
    409,
    "This answer is final: this study shows the expected answer of a check item after it is given, so it cannot be changed",
  );
}

export async function submitLabel(db: Db, input: SubmitInput): Promise<SubmitResult> {
  const token = clientTokenSchema.safeParse(input.clientToken);
  if (!token.success)
    throw badInput("The submission has no valid client token", [
      { path: "clientToken", message: token.error.issues[0].message },
    ]);
  checkSecondsOnTask(input.secondsOnTask);
  checkedComment(input.comment);
  return await transact(db, async (db) => await storeSubmit(db, input), { lock: studyLock(input.studyId) });
}

/**
 * A submit from a page that served the item (the task page; the MTurk page has its own store):
 * refused unless a page showed the item to this annotator before it arrived
 * (item-shown.server.ts). Services and seeding that write labels without a page call `submitLabel`.
 */
export async function submitShownLabel(db: Db, input: SubmitInput, now = new Date()): Promise<SubmitResult> {
  return await transact(
    db,
    async (db) => {
      await loadItem(db, input.studyId, input.itemId); // an item that does not exist is a 404 first, as for any submit
      await refuseUnshown(db, input.itemId, input.annotatorId, now);
      return await submitLabel(db, input);
    },
    { lock: studyLock(input.studyId) },
  );
}

/** Autosaved work in progress: checked for size and shape only, replaced on every save. */
export async function saveDraft(
  db: Db,
  studyId: number,
  itemId: number,
  annotatorId: number,
  payload: unknown,
): Promise<void> {
  await loadItem(db, studyId, itemId);
  const json = JSON.stringify(payload ?? null);
  if (json.length > 50_000) throw badInput("The draft is too large");
  if (!(await findAssignment(db, itemId, annotatorId))) throw forbidden(`Item ${itemId} is not assigned to you`);
  await upsertDraft(db, itemId, annotatorId, json, new Date().toISOString());
}
