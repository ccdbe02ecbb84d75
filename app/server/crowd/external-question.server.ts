/**
 * MTurk ExternalQuestion mode: MTurk frames `/mturk/task?study=…&item=…` and appends
 * `assignmentId`, `hitId`, `workerId` and `turkSubmitTo`. The frame is cross-site, so the login
 * session's SameSite=Lax cookie never arrives: instead the page carries a token signed with the
 * app secret that binds the assignment to its study, item, worker and submit address, and the
 * submit is checked against it. Workers here are gated by MTurk's qualification requirement, so
 * there is no in-app qualification step. The answer is stored once per AssignmentId through
 * recordCrowdAssignment, like a batch import; the page then hands it back to MTurk.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { ConsensusLabel } from "../../domain/labels.ts";
import { appSecret } from "../auth/secret.server.ts";
import type { Db } from "../db.server.ts";
import { findOrCreateCrowdWorker } from "../annotation/accounts.server.ts";
import { ServiceError, badInput, forbidden } from "../http/errors.server.ts";
import { latestOwnLabel, loadDraft, saveDraft } from "../annotation/labels.server.ts";
import { getStudy, type StudyRow } from "../annotation/studies.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { abTaskView, consensusTaskView, loadItem, previousOwnLabel, type AbTaskView, type ConsensusTaskView, type ItemRow } from "../annotation/task-view.server.ts";
import { findCrowdAssignment, recordCrowdAssignment } from "./crowd-assignments.server.ts";

/** The assignment id MTurk sends while a worker only previews a HIT. */
export const PREVIEW_ASSIGNMENT_ID = "ASSIGNMENT_ID_NOT_AVAILABLE";

/** MTurk's production and sandbox worker sites: the only places a worker's answer is posted to by default. */
export const MTURK_SUBMIT_ORIGINS: readonly string[] = ["https://www.mturk.com", "https://workersandbox.mturk.com"];

/** Sites allowed to frame the task page (the CSP frame-ancestors sources). */
const MTURK_FRAME_SOURCES = ["https://*.mturk.com"];

/**
 * The submit origins this app posts answers to: MTurk's two sites plus any listed in
 * MTURK_SUBMIT_ORIGINS (comma-separated origins, e.g. a local stand-in for tests).
 */
export function allowedSubmitOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const extra = (env.MTURK_SUBMIT_ORIGINS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  for (const value of extra) {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== value.replace(/\/$/, "")) {
      throw new Error(`MTURK_SUBMIT_ORIGINS: "${value}" is not an origin like https://host[:port] (no path)`);
    }
  }
  return [...MTURK_SUBMIT_ORIGINS, ...extra.map((v) => v.replace(/\/$/, ""))];
}

/** The Content-Security-Policy for the task page: MTurk (and the configured stand-ins) may frame it, nobody else. */
export function frameAncestorsPolicy(env: Record<string, string | undefined> = process.env): string {
  const extra = allowedSubmitOrigins(env).filter((o) => !MTURK_SUBMIT_ORIGINS.includes(o));
  return `frame-ancestors ${["'self'", ...MTURK_FRAME_SOURCES, ...extra].join(" ")}`;
}

/** The origin of an allowed `turkSubmitTo` value, or null when it is not one. */
export function submitOriginOf(turkSubmitTo: string, allowed: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(turkSubmitTo);
  } catch {
    return null;
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  return allowed.includes(url.origin) ? url.origin : null;
}

const positiveId = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, "a positive whole number")
  .transform(Number);
/** MTurk ids are upper-case letters and digits; a little wider here, never anything that needs escaping. */
const mturkId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1–64 letters, digits, '_' or '-'");

const paramsSchema = z.object({
  study: positiveId,
  item: positiveId,
  assignmentId: mturkId.or(z.literal(PREVIEW_ASSIGNMENT_ID)),
  hitId: mturkId.optional(),
  workerId: mturkId.optional(),
  turkSubmitTo: z.string().max(200).optional(),
});

/** One accepted assignment: everything the signed token binds. `turkSubmitTo` is an allowed origin. */
export interface ExternalAssignment {
  studyId: number;
  itemId: number;
  assignmentId: string;
  hitId: string;
  workerId: string;
  turkSubmitTo: string;
}

export type ExternalQuestionRequest = { mode: "preview"; studyId: number; itemId: number } | ({ mode: "work" } & ExternalAssignment);

function invalidLink(problems: { path: string; message: string }[]): ServiceError {
  // The message names each parameter too: a loader's error page shows only the message.
  return badInput(`The task link is not valid: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`, problems);
}

/** Reads MTurk's query parameters. A preview needs only study and item; an accepted assignment needs all of them. */
export function parseExternalQuestionParams(params: URLSearchParams, allowed: readonly string[] = allowedSubmitOrigins()): ExternalQuestionRequest {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(paramsSchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value.trim();
  }
  const parsed = paramsSchema.safeParse(raw);
  if (!parsed.success) throw invalidLink(parsed.error.issues.map((i) => ({ path: i.path.join(".") || "query", message: i.message })));
  const p = parsed.data;
  // A present submit address is checked even in preview, so a bad HIT shows up before anyone works on it.
  const origin = p.turkSubmitTo === undefined ? null : submitOriginOf(p.turkSubmitTo, allowed);
  if (p.turkSubmitTo !== undefined && origin === null) {
    throw invalidLink([{ path: "turkSubmitTo", message: `"${p.turkSubmitTo}" is not an MTurk submit address (allowed: ${allowed.join(", ")})` }]);
  }
  if (p.assignmentId === PREVIEW_ASSIGNMENT_ID) return { mode: "preview", studyId: p.study, itemId: p.item };
  const missing = (["hitId", "workerId", "turkSubmitTo"] as const).filter((k) => p[k] === undefined);
  if (missing.length) throw invalidLink(missing.map((k) => ({ path: k, message: "required once the HIT is accepted" })));
  return { mode: "work", studyId: p.study, itemId: p.item, assignmentId: p.assignmentId, hitId: p.hitId!, workerId: p.workerId!, turkSubmitTo: origin! };
}

// ---------- the signed token ----------

const tokenBodySchema = z.object({
  studyId: z.number().int().positive(),
  itemId: z.number().int().positive(),
  assignmentId: mturkId,
  hitId: mturkId,
  workerId: mturkId,
  turkSubmitTo: z.string(),
});

function mac(encoded: string, secret: string): string {
  return createHmac("sha256", secret).update(`mturk-external-question:v1:${encoded}`).digest("base64url");
}

/** A token the page sends back with the answer: the assignment's fields, signed. */
export function signAssignment(a: ExternalAssignment, secret = appSecret()): string {
  const body: ExternalAssignment = { studyId: a.studyId, itemId: a.itemId, assignmentId: a.assignmentId, hitId: a.hitId, workerId: a.workerId, turkSubmitTo: a.turkSubmitTo };
  const encoded = Buffer.from(JSON.stringify(body)).toString("base64url");
  return `${encoded}.${mac(encoded, secret)}`;
}

/** The assignment a token was signed for; a forged, altered or truncated token is refused (403). */
export function verifyAssignmentToken(token: string, secret = appSecret()): ExternalAssignment {
  const refused = forbidden("This task page's token is not valid. Please open the task again from MTurk.");
  const [encoded, signature, ...rest] = token.split(".");
  if (!encoded || !signature || rest.length > 0) throw refused;
  const expected = Buffer.from(mac(encoded, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    throw refused;
  }
  const parsed = tokenBodySchema.safeParse(body);
  if (!parsed.success) throw refused;
  return parsed.data;
}

// ---------- checks shared by the page and the submit ----------

function openCrowdStudy(db: Db, studyId: number): StudyRow {
  const study = getStudy(db, studyId);
  if (study.pool !== "crowd") throw forbidden(`Study ${studyId} is not a crowd study`);
  if (study.status !== "open") throw new ServiceError(409, `Study ${studyId} is closed and takes no more answers. Please return this HIT.`);
  return study;
}

interface HitRow {
  studyId: number;
  itemId: number;
  rewardUsd: number;
}

/** The HIT as `mturk publish` stored it, if it did; it must be for this very item. */
function checkedHit(db: Db, hitId: string, studyId: number, itemId: number): HitRow | undefined {
  const hit = db.$client.prepare(`SELECT study_id AS studyId, study_item_id AS itemId, reward_usd AS rewardUsd FROM mturk_hits WHERE hit_id = ?`).get(hitId) as HitRow | undefined;
  if (hit && (hit.studyId !== studyId || hit.itemId !== itemId)) {
    throw new ServiceError(409, `HIT ${hitId} is for item ${hit.itemId} of study ${hit.studyId}, not item ${itemId} of study ${studyId}`);
  }
  return hit;
}

interface StoredAssignment {
  studyId: number;
  itemId: number | null;
  annotatorId: number;
  labelId: number | null;
}

function storedAssignment(db: Db, assignmentId: string): StoredAssignment | undefined {
  const row = findCrowdAssignment(db, "mturk", assignmentId);
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

function handoffFor(db: Db, a: ExternalAssignment, stored: StoredAssignment, annotatorId: number): ExternalSubmitForm {
  if (stored.studyId !== a.studyId || stored.itemId !== a.itemId || stored.annotatorId !== annotatorId) {
    throw new ServiceError(409, `Assignment ${a.assignmentId} was stored for another item or worker`);
  }
  if (stored.labelId === null) throw new ServiceError(409, `Assignment ${a.assignmentId} was rejected on MTurk; its answer is not used`);
  const row = db.$client.prepare(`SELECT payload FROM label_revisions WHERE label_id = ? ORDER BY revision DESC LIMIT 1`).get(stored.labelId) as { payload: string };
  return { action: `${a.turkSubmitTo}/mturk/externalSubmit`, assignmentId: a.assignmentId, labelId: stored.labelId, label: row.payload };
}

/** A worker answers an item once: a label of theirs from another assignment (another HIT) is not added to. */
function refuseSecondAssignmentOnItem(db: Db, itemId: number, annotatorId: number): void {
  if (latestOwnLabel(db, itemId, annotatorId)) {
    throw new ServiceError(409, "You have already answered this item in another assignment. Please return this HIT.");
  }
}

/** Leases the fixed item to the worker when they hold no assignment on it (a lapsed one is renewed). */
function leaseItem(db: Db, study: StudyRow, itemId: number, annotatorId: number, now: Date): void {
  const { leaseMinutes } = parseStudyConfig(study.config);
  db.$client
    .prepare(
      `INSERT INTO assignments (study_item_id, annotator_id, status, leased_at, lease_expires_at) VALUES (?, ?, 'leased', ?, ?)
       ON CONFLICT (study_item_id, annotator_id) DO UPDATE SET status = 'leased', leased_at = excluded.leased_at, lease_expires_at = excluded.lease_expires_at
       WHERE assignments.status = 'released'`,
    )
    .run(itemId, annotatorId, now.toISOString(), new Date(now.getTime() + leaseMinutes * 60_000).toISOString());
}

// ---------- the page ----------

interface PageCommon {
  study: { id: number; name: string; guidelines: string };
  itemId: number;
}

type TaskPart =
  | { task: ConsensusTaskView; previousLabel: ConsensusLabel | null; initialLabel: ConsensusLabel | null; initialChoice: null }
  | { task: AbTaskView; previousLabel: null; initialLabel: null; initialChoice: "A" | "B" | null };

export type ExternalTaskPage = PageCommon &
  TaskPart &
  (
    | { mode: "preview" }
    /** Accepted: the worker answers; `token` goes back with the answer. */
    | { mode: "work"; token: string; assignmentId: string }
    /** This assignment's answer is stored: only the hand-off to MTurk is left. */
    | { mode: "submitted"; token: string; assignmentId: string; handoff: ExternalSubmitForm }
  );

function taskPart(db: Db, item: ItemRow, annotatorId: number | null): TaskPart {
  const draft = annotatorId === null ? null : loadDraft(db, item.id, annotatorId);
  if (item.kind === "consensus-snippet") {
    return {
      task: consensusTaskView(db, item),
      previousLabel: annotatorId === null ? null : previousOwnLabel(db, item, annotatorId),
      initialLabel: draft && typeof draft === "object" && (draft as { kind?: unknown }).kind === "consensus-snippet" ? (draft as ConsensusLabel) : null,
      initialChoice: null,
    };
  }
  const choice = draft && typeof draft === "object" && "choice" in draft ? (draft as { choice: unknown }).choice : null;
  return { task: abTaskView(db, item), previousLabel: null, initialLabel: null, initialChoice: choice === "A" || choice === "B" ? choice : null };
}

/**
 * The task page for MTurk's parameters: a read-only preview, the task for an accepted assignment
 * (leasing the item to the worker), or — when this assignment's answer is already stored — the
 * hand-off form again, never a second label.
 */
export function externalTaskPage(db: Db, request: ExternalQuestionRequest, now = new Date(), secret = appSecret()): ExternalTaskPage {
  const study = openCrowdStudy(db, request.studyId);
  const item = loadItem(db, request.studyId, request.itemId);
  const common: PageCommon = { study: { id: study.id, name: study.name, guidelines: study.guidelines }, itemId: item.id };
  if (request.mode === "preview") return { ...common, ...taskPart(db, item, null), mode: "preview" };

  checkedHit(db, request.hitId, study.id, item.id);
  const annotatorId = findOrCreateCrowdWorker(db, "mturk", request.workerId);
  const token = signAssignment(request, secret);
  const stored = storedAssignment(db, request.assignmentId);
  if (stored) return { ...common, ...taskPart(db, item, annotatorId), mode: "submitted", token, assignmentId: request.assignmentId, handoff: handoffFor(db, request, stored, annotatorId) };
  refuseSecondAssignmentOnItem(db, item.id, annotatorId);
  leaseItem(db, study, item.id, annotatorId, now);
  return { ...common, ...taskPart(db, item, annotatorId), mode: "work", token, assignmentId: request.assignmentId };
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
}

/** The assignment behind a token, with its submit address still allowed. */
function assignmentOfToken(token: string, options: ExternalOptions): ExternalAssignment {
  const a = verifyAssignmentToken(token, options.secret ?? appSecret());
  if (submitOriginOf(a.turkSubmitTo, options.allowed ?? allowedSubmitOrigins()) === null) {
    throw badInput(`turkSubmitTo "${a.turkSubmitTo}" is no longer an allowed MTurk submit address`, [{ path: "turkSubmitTo", message: "not allowed" }]);
  }
  return a;
}

/**
 * Stores the answer of an accepted assignment, once: a repeated submit (a double click, a reload,
 * a resent form) returns the stored answer's hand-off and writes nothing. Bad answers are refused
 * with a 400 listing each problem by its path.
 */
export function submitExternalQuestion(db: Db, input: ExternalSubmitInput, now = new Date(), options: ExternalOptions = {}): ExternalSubmitResult {
  const a = assignmentOfToken(input.token, options);
  const study = openCrowdStudy(db, a.studyId);
  loadItem(db, study.id, a.itemId);
  const hit = checkedHit(db, a.hitId, study.id, a.itemId);
  const annotatorId = findOrCreateCrowdWorker(db, "mturk", a.workerId);
  const before = storedAssignment(db, a.assignmentId);
  if (before) return { handoff: handoffFor(db, a, before, annotatorId), duplicate: true };

  const seconds = input.secondsOnTask;
  if (seconds !== null && (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400)) {
    throw badInput("Time on task is out of range", [{ path: "secondsOnTask", message: "0 to 86400 seconds" }]);
  }
  refuseSecondAssignmentOnItem(db, a.itemId, annotatorId);
  const lease = db.$client.prepare(`SELECT leased_at AS leasedAt FROM assignments WHERE study_item_id = ? AND annotator_id = ?`).get(a.itemId, annotatorId) as
    | { leasedAt: string | null }
    | undefined;
  const outcome = recordCrowdAssignment(db, {
    channel: "mturk",
    externalId: a.assignmentId,
    externalGroupId: a.hitId,
    studyId: study.id,
    itemId: a.itemId,
    workerId: a.workerId,
    status: "submitted",
    payload: input.payload,
    secondsOnTask: seconds,
    rewardUsd: hit?.rewardUsd ?? null,
    acceptedAt: lease?.leasedAt ?? null,
    submittedAt: now.toISOString(),
    source: "external-question",
  });
  const after = storedAssignment(db, a.assignmentId);
  if (!after) throw new Error(`Assignment ${a.assignmentId} was not stored`);
  // "unchanged": a concurrent submit of the same answer got there first.
  return { handoff: handoffFor(db, a, after, annotatorId), duplicate: outcome.kind !== "stored" };
}

/** Autosaves the worker's unfinished answer under the assignment's lease. */
export function saveExternalDraft(db: Db, token: string, payload: unknown, options: ExternalOptions = {}): void {
  const a = assignmentOfToken(token, options);
  openCrowdStudy(db, a.studyId);
  const annotatorId = findOrCreateCrowdWorker(db, "mturk", a.workerId);
  if (storedAssignment(db, a.assignmentId)) return; // answered: the draft is no longer needed
  saveDraft(db, a.studyId, a.itemId, annotatorId, payload);
}
