/**
 * The label store. Labels are append-only revisions: a submit adds revision n+1 and the latest
 * counts; a repeated submit with the same client token is stored once. Every submit is validated
 * here against the item it labels, whatever the browser checked.
 */
import { z } from "zod";
import { labelPayloadSchema, type LabelPayload } from "../../domain/labels.ts";
import { checkLabel } from "../../domain/tasks/registry.ts";
import type { Db } from "../db.server.ts";
import { assignmentFor } from "./assignment.server.ts";
import { ServiceError, badInput, forbidden, notFound } from "../http/errors.server.ts";
import { playedScenarioOfRun, previousOwnLabel, snippetContext, loadItem } from "./task-view.server.ts";

export interface SubmitInput {
  studyId: number;
  itemId: number;
  annotatorId: number;
  payload: unknown;
  clientToken: string;
  secondsOnTask: number | null;
}

export interface SubmitResult {
  labelId: number;
  revision: number;
  /** True when this client token had already been stored: nothing new was written. */
  duplicate: boolean;
}

const clientTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "a client token is 8–64 letters, digits, '_' or '-'");

function formatZodProblems(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
}

/** Checks a payload against the item; returns it parsed, or throws a 400 listing every problem. */
export function validatePayload(db: Db, itemId: number, studyId: number, annotatorId: number, payload: unknown): LabelPayload {
  const item = loadItem(db, studyId, itemId);
  const parsed = labelPayloadSchema.safeParse(payload);
  if (!parsed.success) throw badInput("The label is not valid", formatZodProblems(parsed.error));
  const label = parsed.data;
  if (label.kind !== item.kind) throw badInput(`Item ${itemId} takes a ${item.kind} label, not ${label.kind}`, [{ path: "kind", message: `expected ${item.kind}` }]);
  const problems = checkLabel(label, {
    scenario: () => playedScenarioOfRun(db, snippetContext(db, item.snippetId as number).runId).body,
    previousLabel: () => previousOwnLabel(db, item, annotatorId),
  });
  if (problems.length) throw badInput("The label is not valid", problems);
  return label;
}

export function submitLabel(db: Db, input: SubmitInput): SubmitResult {
  const token = clientTokenSchema.safeParse(input.clientToken);
  if (!token.success) throw badInput("The submission has no valid client token", [{ path: "clientToken", message: token.error.issues[0].message }]);
  const seconds = input.secondsOnTask;
  if (seconds !== null && (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)) {
    throw badInput("Time on task is out of range", [{ path: "secondsOnTask", message: "0 to 86400 seconds" }]);
  }
  const sqlite = db.$client;
  const write = sqlite.transaction((): SubmitResult => {
    const repeated = sqlite
      .prepare(`SELECT r.label_id AS labelId, r.revision, l.annotator_id AS annotatorId, l.study_item_id AS itemId FROM label_revisions r JOIN labels l ON l.id = r.label_id WHERE r.client_token = ?`)
      .get(input.clientToken) as { labelId: number; revision: number; annotatorId: number; itemId: number } | undefined;
    if (repeated) {
      if (repeated.annotatorId !== input.annotatorId || repeated.itemId !== input.itemId) throw new ServiceError(409, "This client token was already used for another submission");
      return { labelId: repeated.labelId, revision: repeated.revision, duplicate: true };
    }
    const study = sqlite.prepare(`SELECT status, labels_per_item AS k FROM studies WHERE id = ?`).get(input.studyId) as { status: string; k: number } | undefined;
    if (!study) throw notFound(`Study ${input.studyId}`);
    if (study.status !== "open") throw new ServiceError(409, `Study ${input.studyId} is closed; labels can no longer be changed`);
    const payload = validatePayload(db, input.itemId, input.studyId, input.annotatorId, input.payload);

    const assignment = assignmentFor(db, input.itemId, input.annotatorId);
    if (!assignment) throw forbidden(`Item ${input.itemId} is not assigned to you`);
    if (assignment.status === "released") {
      // The lease lapsed: the work still counts if the item has a free slot.
      const taken = sqlite.prepare(`SELECT count(*) AS n FROM assignments WHERE study_item_id = ? AND status <> 'released'`).get(input.itemId) as { n: number };
      if (taken.n >= study.k) throw new ServiceError(409, "Your time on this item ran out and it went to another annotator; your answer was not stored");
    }
    const now = new Date().toISOString();
    sqlite.prepare(`UPDATE assignments SET status = 'submitted', submitted_at = coalesce(submitted_at, ?) WHERE id = ?`).run(now, assignment.id);
    return { ...writeLabelRevision(db, input.itemId, input.annotatorId, payload, input.clientToken, seconds), duplicate: false };
  });
  return write.immediate();
}

/**
 * Appends a revision to the annotator's label on the item (creating the label on first submit)
 * and clears their draft. Call inside a transaction, after validating the payload.
 */
export function writeLabelRevision(db: Db, itemId: number, annotatorId: number, payload: LabelPayload, clientToken: string | null, secondsOnTask: number | null): { labelId: number; revision: number } {
  const sqlite = db.$client;
  const labelId = (
    sqlite
      .prepare(`INSERT INTO labels (study_item_id, annotator_id) VALUES (?, ?) ON CONFLICT (study_item_id, annotator_id) DO UPDATE SET annotator_id = excluded.annotator_id RETURNING id`)
      .get(itemId, annotatorId) as { id: number }
  ).id;
  const { next } = sqlite.prepare(`SELECT coalesce(max(revision), 0) + 1 AS next FROM label_revisions WHERE label_id = ?`).get(labelId) as { next: number };
  sqlite
    .prepare(`INSERT INTO label_revisions (label_id, revision, payload, client_token, seconds_on_task) VALUES (?, ?, ?, ?, ?)`)
    .run(labelId, next, JSON.stringify(payload), clientToken, secondsOnTask);
  sqlite.prepare(`DELETE FROM label_drafts WHERE study_item_id = ? AND annotator_id = ?`).run(itemId, annotatorId);
  return { labelId, revision: next };
}

/** Autosaved work in progress: checked for size and shape only, replaced on every save. */
export function saveDraft(db: Db, studyId: number, itemId: number, annotatorId: number, payload: unknown): void {
  loadItem(db, studyId, itemId);
  const json = JSON.stringify(payload ?? null);
  if (json.length > 50_000) throw badInput("The draft is too large");
  if (!assignmentFor(db, itemId, annotatorId)) throw forbidden(`Item ${itemId} is not assigned to you`);
  db.$client
    .prepare(
      `INSERT INTO label_drafts (study_item_id, annotator_id, payload, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (study_item_id, annotator_id) DO UPDATE SET payload = excluded.payload, updated_at = excluded.updated_at`,
    )
    .run(itemId, annotatorId, json, new Date().toISOString());
}

export function loadDraft(db: Db, itemId: number, annotatorId: number): unknown {
  const row = db.$client.prepare(`SELECT payload FROM label_drafts WHERE study_item_id = ? AND annotator_id = ?`).get(itemId, annotatorId) as { payload: string } | undefined;
  return row ? JSON.parse(row.payload) : null;
}

export interface LabelRevisionView {
  labelId: number;
  itemId: number;
  studyId: number;
  annotatorId: number;
  revision: number;
  payload: LabelPayload;
  secondsOnTask: number | null;
  createdAt: string;
}

/** Latest revision of one annotator's label on an item, or null. */
export function latestOwnLabel(db: Db, itemId: number, annotatorId: number): LabelRevisionView | null {
  const row = db.$client
    .prepare(
      `SELECT l.id AS labelId, l.study_item_id AS itemId, i.study_id AS studyId, l.annotator_id AS annotatorId, r.revision, r.payload, r.seconds_on_task AS secondsOnTask, r.created_at AS createdAt
       FROM labels l JOIN label_revisions r ON r.label_id = l.id JOIN study_items i ON i.id = l.study_item_id
       WHERE l.study_item_id = ? AND l.annotator_id = ? ORDER BY r.revision DESC LIMIT 1`,
    )
    .get(itemId, annotatorId) as (Omit<LabelRevisionView, "payload"> & { payload: string }) | undefined;
  return row ? { ...row, payload: JSON.parse(row.payload) as LabelPayload } : null;
}

/** A label with all its revisions; only its author and admins may read it. */
export function labelHistory(db: Db, labelId: number, viewer: { id: number; role: string }) {
  const label = db.$client
    .prepare(`SELECT l.id, l.study_item_id AS itemId, l.annotator_id AS annotatorId, i.study_id AS studyId FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = ?`)
    .get(labelId) as { id: number; itemId: number; annotatorId: number; studyId: number } | undefined;
  if (!label) throw notFound(`Label ${labelId}`);
  if (viewer.role !== "admin" && viewer.id !== label.annotatorId) throw forbidden("This label belongs to another annotator");
  const revisions = (
    db.$client
      .prepare(`SELECT revision, payload, seconds_on_task AS secondsOnTask, created_at AS createdAt FROM label_revisions WHERE label_id = ? ORDER BY revision`)
      .all(labelId) as { revision: number; payload: string; secondsOnTask: number | null; createdAt: string }[]
  ).map((r) => ({ ...r, payload: JSON.parse(r.payload) as LabelPayload }));
  return { ...label, revisions };
}

/** The annotator's own labels in a study (for revisiting), latest revision each, in study order. */
export function ownLabels(db: Db, studyId: number, annotatorId: number) {
  return db.$client
    .prepare(
      `SELECT l.id AS labelId, i.id AS itemId, i.position, max(r.revision) AS revisions, max(r.created_at) AS updatedAt
       FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN label_revisions r ON r.label_id = l.id
       WHERE i.study_id = ? AND l.annotator_id = ? GROUP BY l.id ORDER BY i.position`,
    )
    .all(studyId, annotatorId) as { labelId: number; itemId: number; position: number; revisions: number; updatedAt: string }[];
}
