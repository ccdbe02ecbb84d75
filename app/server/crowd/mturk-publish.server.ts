/**
 * `mturk publish`: puts a crowd study's unlabelled items on Mechanical Turk as ExternalQuestion
 * HITs. The qualification test becomes a qualification type (created once per environment and
 * test version, then reused), the HIT settings a HIT type carrying the worker filters, and each
 * item one HIT framing our task page. Every HIT is stored as soon as MTurk returns it and carries
 * a deterministic request token, so an interrupted publish resumes where it stopped and a retry
 * never creates a second HIT for the same item.
 */
import { createHash } from "node:crypto";
import {
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  ListHITsCommand,
  ListQualificationTypesCommand,
  type MTurkClient,
} from "@aws-sdk/client-mturk";
import { and, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { qualificationRequirements, type CostEstimate, type HitSettings, type QualificationRequirement } from "../../domain/crowd/hit-config.ts";
import { answerKeyXml, externalQuestionXml, questionFormXml } from "../../domain/crowd/qualification-xml.ts";
import { qualificationKey, type QualificationTest } from "../../domain/qualification.ts";
import type { Db } from "../db.server.ts";
import { ServiceError, badInput } from "../http/errors.server.ts";
import { getStudy } from "../annotation/studies.server.ts";
import { loadQualificationTest } from "../templates.server.ts";
import { checkFairPay, planHits, type HitOverrides } from "./hit-settings.server.ts";
import { assertEnvironment, checkedSend, environmentOf, hitGroupUrl, MTURK_WORKER_SITES, type MturkEnvironment } from "./mturk-client.server.ts";

/** Time a worker has for the qualification test, and how long before a failed worker may retry. */
export const QUALIFICATION_TEST_SECONDS = 20 * 60;
export const QUALIFICATION_RETRY_DELAY_SECONDS = 24 * 60 * 60;

export interface PublishOptions {
  studyId: number;
  /** Where the app is served, https only: HITs frame `<baseUrl>/mturk/task?study=…&item=…`. */
  baseUrl: string;
  production: boolean;
  overrides?: HitOverrides;
  /** Publish even when the reward pays below the federal minimum wage. */
  force?: boolean;
  /** ExternalQuestion FrameHeight in pixels; 0 lets MTurk use the whole window. */
  frameHeight?: number;
  /** Plan only: report what would be created, call nothing, write nothing. */
  dryRun?: boolean;
  /** The clock for HIT expiry (tests). */
  now?: Date;
}

export interface PublishedHit {
  itemId: number;
  /** null in a dry run. */
  hitId: string | null;
  url: string;
  uniqueRequestToken: string;
  /** True when the HIT already existed on MTurk (an earlier, interrupted publish) and was only recorded now. */
  recovered: boolean;
}

export interface PublishSummary {
  environment: MturkEnvironment;
  dryRun: boolean;
  studyId: number;
  studyName: string;
  itemsTotal: number;
  /** Items with fewer labels than the study asks for. */
  itemsNeedingLabels: number;
  /** Of those, items that already have a HIT stored for this environment (left alone). */
  itemsAlreadyPublished: number;
  qualificationTestKey: string;
  /** The test's qualification type; null in a dry run when it would be created. */
  qualificationTypeId: string | null;
  qualificationTypeSource: "option" | "stored" | "created" | "found on MTurk" | "would create" | "not needed";
  hitTypeId: string | null;
  hits: PublishedHit[];
  settings: HitSettings;
  qualificationRequirements: QualificationRequirement[];
  estimate: CostEstimate;
  /** Set when --force let a reward below the minimum wage through. */
  fairPayWarning: string | null;
  /** Where the requester can preview the HIT group on the worker site (null until a HIT exists). */
  previewUrl: string | null;
  workerSite: string;
}

/** The https base URL without a trailing slash; anything else is refused with the reason. */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badInput(`--base-url "${raw}" is not a URL; give the address the app is served at, e.g. https://studio.example.org`);
  }
  if (url.protocol !== "https:") {
    throw badInput(`--base-url must be an https address (MTurk only frames ExternalQuestion pages over https), got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw badInput(`--base-url must be a plain address without query, fragment or credentials, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, "");
}

export function taskUrl(baseUrl: string, studyId: number, itemId: number): string {
  return `${baseUrl}/mturk/task?study=${studyId}&item=${itemId}`;
}

/**
 * MTurk's idempotency token (at most 64 characters) for one HIT. The study's creation time is
 * part of it so two installations with a study of the same id cannot collide on one account.
 */
export function hitRequestToken(environment: MturkEnvironment, study: { id: number; createdAt: string }, itemId: number, batch: number): string {
  const digest = createHash("sha256").update([environment, study.id, study.createdAt, itemId, batch].join("|")).digest("hex");
  return `socrates-${digest.slice(0, 40)}`;
}

export function qualificationTypeName(test: QualificationTest): string {
  return `SoCRATES reading test (${qualificationKey(test)})`;
}

interface ItemState {
  itemId: number;
  labels: number;
  /** Every HIT stored for the item here (numbers the next batch's request token). */
  storedHits: number;
  /** Stored HITs not yet expired (or of unknown expiry): the item is on offer. */
  liveHits: number;
}

/**
 * Every item of the study with its label count (labels from assignments rejected on MTurk do
 * not count) and the HITs stored for it in this environment.
 */
function itemStates(db: Db, studyId: number, environment: MturkEnvironment, now: Date): ItemState[] {
  return db.$client
    .prepare(
      `SELECT i.id AS itemId,
              (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id
                 AND NOT EXISTS (SELECT 1 FROM crowd_assignments c WHERE c.label_id = l.id AND c.status = 'rejected')) AS labels,
              (SELECT count(*) FROM mturk_hits h WHERE h.study_item_id = i.id AND h.environment = @environment) AS storedHits,
              (SELECT count(*) FROM mturk_hits h WHERE h.study_item_id = i.id AND h.environment = @environment
                 AND (h.expires_at IS NULL OR h.expires_at > @now)) AS liveHits
       FROM study_items i WHERE i.study_id = @studyId ORDER BY i.position`,
    )
    .all({ environment, studyId, now: now.toISOString() }) as ItemState[];
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The stored qualification type of this test in this environment, if any. */
function storedQualificationType(db: Db, environment: MturkEnvironment, testKey: string): string | null {
  const row = db
    .select({ id: schema.mturkQualificationTypes.qualificationTypeId })
    .from(schema.mturkQualificationTypes)
    .where(and(eq(schema.mturkQualificationTypes.environment, environment), eq(schema.mturkQualificationTypes.testKey, testKey)))
    .get();
  return row?.id ?? null;
}

/** Our qualification type by its exact name among the requester's own (a lost create, or another database on the same account). */
async function findQualificationTypeByName(client: MTurkClient, production: boolean, name: string): Promise<string | null> {
  let nextToken: string | undefined;
  do {
    const page = await checkedSend(client, production, (c) =>
      c.send(new ListQualificationTypesCommand({ Query: name, MustBeRequestable: false, MustBeOwnedByCaller: true, MaxResults: 100, NextToken: nextToken })),
    );
    const match = page.QualificationTypes?.find((q) => q.Name === name && q.QualificationTypeId);
    if (match?.QualificationTypeId) return match.QualificationTypeId;
    nextToken = page.NextToken;
  } while (nextToken);
  return null;
}

async function ensureQualificationType(
  db: Db,
  client: MTurkClient,
  production: boolean,
  test: QualificationTest,
): Promise<{ id: string; source: "stored" | "created" | "found on MTurk" }> {
  const environment = environmentOf(production);
  const testKey = qualificationKey(test);
  const stored = storedQualificationType(db, environment, testKey);
  if (stored) return { id: stored, source: "stored" };
  const name = qualificationTypeName(test);
  let id: string | undefined;
  let source: "created" | "found on MTurk" = "created";
  try {
    const created = await checkedSend(client, production, (c) =>
      c.send(
        new CreateQualificationTypeCommand({
          Name: name,
          Description: `A short English reading test (${test.questions.length} questions) for the SoCRATES Studio research tasks: read a few short passages and answer one question about each.`,
          Keywords: "reading, english, comprehension, qualification, research",
          QualificationTypeStatus: "Active",
          Test: questionFormXml(test),
          AnswerKey: answerKeyXml(test),
          TestDurationInSeconds: QUALIFICATION_TEST_SECONDS,
          RetryDelayInSeconds: QUALIFICATION_RETRY_DELAY_SECONDS,
        }),
      ),
    );
    id = created.QualificationType?.QualificationTypeId;
    if (!id) throw new Error("CreateQualificationType returned no QualificationTypeId");
  } catch (err) {
    // A name is unique per requester: it exists when an earlier create was not recorded here.
    if (!(err instanceof Error) || err.name !== "RequestError") throw err;
    const found = await findQualificationTypeByName(client, production, name);
    if (!found) throw err;
    id = found;
    source = "found on MTurk";
  }
  db.insert(schema.mturkQualificationTypes).values({ qualificationTypeId: id, environment, testKey, name }).onConflictDoNothing().run();
  return { id, source };
}

/** The HIT an earlier call created with this token, found by the annotation that names the token. */
async function findHitByToken(client: MTurkClient, production: boolean, token: string): Promise<{ hitId: string; hitTypeId: string; hitGroupId?: string; expiresAt?: Date } | null> {
  let nextToken: string | undefined;
  do {
    const page = await checkedSend(client, production, (c) => c.send(new ListHITsCommand({ MaxResults: 100, NextToken: nextToken })));
    const hit = page.HITs?.find((h) => h.RequesterAnnotation?.includes(token));
    if (hit?.HITId && hit.HITTypeId) return { hitId: hit.HITId, hitTypeId: hit.HITTypeId, hitGroupId: hit.HITGroupId, expiresAt: hit.Expiration };
    nextToken = page.NextToken;
  } while (nextToken);
  return null;
}

/** Creates the HITs still missing for the study (or, in a dry run, says which it would create). */
export async function publishStudy(db: Db, client: MTurkClient | null, options: PublishOptions): Promise<PublishSummary> {
  const { studyId, production } = options;
  const environment = environmentOf(production);
  const dryRun = options.dryRun === true;
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const frameHeight = options.frameHeight ?? 0;
  if (!Number.isInteger(frameHeight) || frameHeight < 0 || frameHeight > 10_000) throw badInput(`The frame height must be a whole number of pixels from 0 to 10000, got ${frameHeight}`);

  const labelsPerItem = getStudy(db, studyId).labelsPerItem;
  const states = itemStates(db, studyId, environment, options.now ?? new Date());
  const needing = states.filter((s) => s.labels < labelsPerItem);
  // An item whose HIT is still on offer waits for it; one whose HIT expired short of labels gets a new batch.
  const toPublish = needing.filter((s) => s.liveHits === 0);
  // planHits refuses a non-crowd study and validates every setting.
  const plan = planHits(db, studyId, toPublish.length, options.overrides ?? {});
  const { study, estimate } = plan;
  if (study.status !== "open") throw new ServiceError(409, `Study ${studyId} is closed; reopen it before publishing HITs`);
  const fairPayWarning = checkFairPay(estimate, options.force === true);
  const test = loadQualificationTest();

  const summary: PublishSummary = {
    environment,
    dryRun,
    studyId,
    studyName: study.name,
    itemsTotal: states.length,
    itemsNeedingLabels: needing.length,
    itemsAlreadyPublished: needing.length - toPublish.length,
    qualificationTestKey: qualificationKey(test),
    qualificationTypeId: plan.settings.qualificationTypeId,
    qualificationTypeSource: plan.settings.qualificationTypeId ? "option" : toPublish.length === 0 ? "not needed" : "would create",
    hitTypeId: null,
    hits: [],
    settings: plan.settings,
    qualificationRequirements: qualificationRequirements(plan.settings),
    estimate,
    fairPayWarning,
    previewUrl: null,
    workerSite: MTURK_WORKER_SITES[environment],
  };
  const hitFor = (s: ItemState): PublishedHit => ({
    itemId: s.itemId,
    hitId: null,
    url: taskUrl(baseUrl, studyId, s.itemId),
    uniqueRequestToken: hitRequestToken(environment, study, s.itemId, s.storedHits),
    recovered: false,
  });

  if (toPublish.length === 0) return summary;
  if (dryRun) {
    if (!summary.qualificationTypeId) {
      const stored = storedQualificationType(db, environment, summary.qualificationTestKey);
      if (stored) Object.assign(summary, { qualificationTypeId: stored, qualificationTypeSource: "stored" });
    }
    summary.settings = { ...plan.settings, qualificationTypeId: summary.qualificationTypeId };
    summary.qualificationRequirements = qualificationRequirements(summary.settings);
    summary.hits = toPublish.map(hitFor);
    return summary;
  }

  if (!client) throw new Error("publishStudy needs an MTurk client unless it is a dry run");
  await assertEnvironment(client, production);
  if (!summary.qualificationTypeId) {
    const qualification = await ensureQualificationType(db, client, production, test);
    summary.qualificationTypeId = qualification.id;
    summary.qualificationTypeSource = qualification.source;
  }
  const settings: HitSettings = { ...plan.settings, qualificationTypeId: summary.qualificationTypeId };
  summary.settings = settings;
  summary.qualificationRequirements = qualificationRequirements(settings);

  // MTurk returns the same HIT type for the same properties, so a rerun gets the same id.
  const hitType = await checkedSend(client, production, (c) =>
    c.send(
      new CreateHITTypeCommand({
        Title: settings.title,
        Description: settings.description,
        Keywords: settings.keywords.join(", "),
        Reward: settings.rewardUsd.toFixed(2),
        AssignmentDurationInSeconds: settings.assignmentDurationSeconds,
        AutoApprovalDelayInSeconds: settings.autoApprovalDelaySeconds,
        QualificationRequirements: summary.qualificationRequirements,
      }),
    ),
  );
  const hitTypeId = hitType.HITTypeId;
  if (!hitTypeId) throw new Error("CreateHITType returned no HITTypeId");
  summary.hitTypeId = hitTypeId;

  const store = db.$client.prepare(
    `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (hit_id) DO NOTHING`,
  );
  for (const state of toPublish) {
    const hit = hitFor(state);
    const annotation = `SoCRATES study ${studyId} item ${state.itemId} batch ${state.storedHits} [${hit.uniqueRequestToken}]`;
    let hitId: string | undefined;
    let groupId: string | undefined;
    let expiresAt: Date | undefined;
    let storedTypeId = hitTypeId;
    try {
      const created = await checkedSend(client, production, (c) =>
        c.send(
          new CreateHITWithHITTypeCommand({
            HITTypeId: hitTypeId,
            MaxAssignments: settings.assignmentsPerHit,
            LifetimeInSeconds: settings.lifetimeSeconds,
            Question: externalQuestionXml(hit.url, frameHeight),
            RequesterAnnotation: annotation,
            UniqueRequestToken: hit.uniqueRequestToken,
          }),
        ),
      );
      hitId = created.HIT?.HITId;
      groupId = created.HIT?.HITGroupId;
      expiresAt = created.HIT?.Expiration;
      if (!hitId) throw new Error(`CreateHITWithHITType returned no HITId for item ${state.itemId}`);
    } catch (err) {
      // The token was used before: the HIT exists but was not recorded (an interrupted publish).
      if (!(err instanceof Error) || !/already ?exists/i.test(`${err.name} ${err.message}`)) {
        throw new PublishInterruptedError(`Creating the HIT for item ${state.itemId} failed (${errorText(err)}); ${summary.hits.length} HIT(s) created before it are stored, and running publish again continues from here`, summary, err);
      }
      const found = await findHitByToken(client, production, hit.uniqueRequestToken);
      if (!found) throw new PublishInterruptedError(`MTurk says the HIT for item ${state.itemId} exists, but no HIT of this account carries its token ${hit.uniqueRequestToken}`, summary, err);
      hitId = found.hitId;
      groupId = found.hitGroupId;
      expiresAt = found.expiresAt;
      storedTypeId = found.hitTypeId;
      hit.recovered = true;
    }
    store.run(hitId, environment, storedTypeId, studyId, state.itemId, settings.assignmentsPerHit, settings.rewardUsd, expiresAt?.toISOString() ?? null);
    if (groupId && !summary.previewUrl) summary.previewUrl = hitGroupUrl(environment, groupId);
    summary.hits.push({ ...hit, hitId });
  }
  return summary;
}

/** A publish that stopped part-way; what was created is stored and listed in `summary`. */
export class PublishInterruptedError extends Error {
  constructor(
    message: string,
    readonly summary: PublishSummary,
    cause: unknown,
  ) {
    super(message, { cause });
    this.name = "PublishInterruptedError";
  }
}
