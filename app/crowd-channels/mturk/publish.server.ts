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
import {
  qualificationRequirements,
  type CostEstimate,
  type HitSettings,
  type QualificationRequirement,
} from "../../domain/crowd/hit-config.ts";
import { answerKeyXml, externalQuestionXml, questionFormXml } from "../../domain/crowd/qualification-xml.ts";
import { qualificationKey, type QualificationTest } from "../../domain/qualification.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError, badInput } from "../../server/http/errors.server.ts";
import type { StudyRow } from "../../server/models/study.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { itemPublishStates, storeHit, type ItemPublishState } from "../../server/models/mturk-hit.server.ts";
import {
  storedQualificationType,
  storeQualificationType,
} from "../../server/models/mturk-qualification-type.server.ts";
import { loadQualificationTest } from "../../server/templates.server.ts";
import { checkFairPay, planHits, type HitOverrides } from "./hit-settings.server.ts";
import {
  assertEnvironment,
  checkedSend,
  environmentOf,
  hitGroupUrl,
  MTURK_WORKER_SITES,
  type MturkEnvironment,
} from "./client.server.ts";

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
    throw badInput(
      `--base-url "${raw}" is not a URL; give the address the app is served at, e.g. https://studio.example.org`,
    );
  }
  if (url.protocol !== "https:") {
    throw badInput(
      `--base-url must be an https address (MTurk only frames ExternalQuestion pages over https), got "${raw}"`,
    );
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
export function hitRequestToken(
  environment: MturkEnvironment,
  study: { id: number; createdAt: string },
  itemId: number,
  batch: number,
): string {
  const digest = createHash("sha256")
    .update([environment, study.id, study.createdAt, itemId, batch].join("|"))
    .digest("hex");
  return `socrates-${digest.slice(0, 40)}`;
}

export function qualificationTypeName(test: QualificationTest): string {
  return `SoCRATES reading test (${qualificationKey(test)})`;
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * Our qualification type by its exact name among the requester's own (a lost create, or another database on the same
 * account).
 */
async function findQualificationTypeByName(
  client: MTurkClient,
  production: boolean,
  name: string,
): Promise<string | null> {
  let nextToken: string | undefined;
  do {
    const page = await checkedSend(client, production, (c) =>
      c.send(
        new ListQualificationTypesCommand({
          Query: name,
          MustBeRequestable: false,
          MustBeOwnedByCaller: true,
          MaxResults: 100,
          NextToken: nextToken,
        }),
      ),
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
  const stored = await storedQualificationType(db, environment, testKey);
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
  await storeQualificationType(db, { qualificationTypeId: id, environment, testKey, name });
  return { id, source };
}

/** The HIT an earlier call created with this token, found by the annotation that names the token. */
async function findHitByToken(
  client: MTurkClient,
  production: boolean,
  token: string,
): Promise<{ hitId: string; hitTypeId: string; hitGroupId?: string; expiresAt?: Date } | null> {
  let nextToken: string | undefined;
  do {
    const page = await checkedSend(client, production, (c) =>
      c.send(new ListHITsCommand({ MaxResults: 100, NextToken: nextToken })),
    );
    const hit = page.HITs?.find((h) => h.RequesterAnnotation?.includes(token));
    if (hit?.HITId && hit.HITTypeId)
      return { hitId: hit.HITId, hitTypeId: hit.HITTypeId, hitGroupId: hit.HITGroupId, expiresAt: hit.Expiration };
    nextToken = page.NextToken;
  } while (nextToken);
  return null;
}

/** What a publish works from: the study's plan, its items on offer, and the summary so far. */
interface PublishPlan {
  environment: MturkEnvironment;
  baseUrl: string;
  frameHeight: number;
  test: QualificationTest;
  settings: HitSettings;
  study: StudyRow;
  toPublish: ItemPublishState[];
  summary: PublishSummary;
}

/** Checks the options and the study, and works out which items need a HIT and what it costs. */
async function planPublish(db: Db, options: PublishOptions): Promise<PublishPlan> {
  const { studyId, production } = options;
  const environment = environmentOf(production);
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const frameHeight = options.frameHeight ?? 0;
  if (!Number.isInteger(frameHeight) || frameHeight < 0 || frameHeight > 10_000)
    throw badInput(`The frame height must be a whole number of pixels from 0 to 10000, got ${frameHeight}`);

  const labelsPerItem = (await studyOrNotFound(db, studyId)).labelsPerItem;
  const states = await itemPublishStates(db, studyId, environment, options.now ?? new Date());
  const needing = states.filter((s) => s.labels < labelsPerItem);
  // An item whose HIT is still on offer waits for it; one whose HIT expired short of labels gets a new batch.
  const toPublish = needing.filter((s) => s.liveHits === 0);
  // planHits refuses a non-crowd study and validates every setting.
  const plan = await planHits(db, studyId, toPublish.length, options.overrides ?? {});
  const { study, estimate } = plan;
  if (study.status !== "open")
    throw new ServiceError(409, `Study ${studyId} is closed; reopen it before publishing HITs`);
  const fairPayWarning = checkFairPay(estimate, options.force === true);
  const test = loadQualificationTest();
  const summary: PublishSummary = {
    environment,
    dryRun: options.dryRun === true,
    studyId,
    studyName: study.name,
    itemsTotal: states.length,
    itemsNeedingLabels: needing.length,
    itemsAlreadyPublished: needing.length - toPublish.length,
    qualificationTestKey: qualificationKey(test),
    qualificationTypeId: plan.settings.qualificationTypeId,
    qualificationTypeSource: plan.settings.qualificationTypeId
      ? "option"
      : toPublish.length === 0
        ? "not needed"
        : "would create",
    hitTypeId: null,
    hits: [],
    settings: plan.settings,
    qualificationRequirements: qualificationRequirements(plan.settings),
    estimate,
    fairPayWarning,
    previewUrl: null,
    workerSite: MTURK_WORKER_SITES[environment],
  };
  return { environment, baseUrl, frameHeight, test, settings: plan.settings, study, toPublish, summary };
}

/** The HIT an item would get (no HIT id yet). */
function plannedHit(plan: PublishPlan, state: ItemPublishState): PublishedHit {
  return {
    itemId: state.itemId,
    hitId: null,
    url: taskUrl(plan.baseUrl, plan.study.id, state.itemId),
    uniqueRequestToken: hitRequestToken(plan.environment, plan.study, state.itemId, state.storedHits),
    recovered: false,
  };
}

/** Settles the summary's qualification type and the requirements that follow from it. */
function withQualificationType(
  plan: PublishPlan,
  id: string | null,
  source: PublishSummary["qualificationTypeSource"],
): HitSettings {
  const settings: HitSettings = { ...plan.settings, qualificationTypeId: id };
  Object.assign(plan.summary, {
    qualificationTypeId: id,
    qualificationTypeSource: source,
    settings,
    qualificationRequirements: qualificationRequirements(settings),
  });
  return settings;
}

/** A dry run: which HITs would be created, with the stored qualification type if there is one. */
async function dryRunSummary(db: Db, plan: PublishPlan): Promise<PublishSummary> {
  const { summary } = plan;
  const stored = summary.qualificationTypeId
    ? null
    : await storedQualificationType(db, plan.environment, summary.qualificationTestKey);
  if (stored) withQualificationType(plan, stored, "stored");
  else withQualificationType(plan, summary.qualificationTypeId, summary.qualificationTypeSource);
  summary.hits = plan.toPublish.map((s) => plannedHit(plan, s));
  return summary;
}

/** MTurk returns the same HIT type for the same properties, so a rerun gets the same id. */
async function createHitType(
  client: MTurkClient,
  production: boolean,
  settings: HitSettings,
  requirements: QualificationRequirement[],
): Promise<string> {
  const hitType = await checkedSend(client, production, (c) =>
    c.send(
      new CreateHITTypeCommand({
        Title: settings.title,
        Description: settings.description,
        Keywords: settings.keywords.join(", "),
        Reward: settings.rewardUsd.toFixed(2),
        AssignmentDurationInSeconds: settings.assignmentDurationSeconds,
        AutoApprovalDelayInSeconds: settings.autoApprovalDelaySeconds,
        QualificationRequirements: requirements,
      }),
    ),
  );
  if (!hitType.HITTypeId) throw new Error("CreateHITType returned no HITTypeId");
  return hitType.HITTypeId;
}

interface CreatedHit {
  hitId: string;
  hitTypeId: string;
  groupId?: string;
  expiresAt?: Date;
  recovered: boolean;
}

/** Creates one item's HIT, or finds the one an interrupted publish created with the same token. */
async function createHit(
  client: MTurkClient,
  production: boolean,
  plan: PublishPlan,
  settings: HitSettings,
  hitTypeId: string,
  state: ItemPublishState,
  hit: PublishedHit,
): Promise<CreatedHit> {
  const annotation = `SoCRATES study ${plan.study.id} item ${state.itemId} batch ${state.storedHits} [${hit.uniqueRequestToken}]`;
  try {
    const created = await checkedSend(client, production, (c) =>
      c.send(
        new CreateHITWithHITTypeCommand({
          HITTypeId: hitTypeId,
          MaxAssignments: settings.assignmentsPerHit,
          LifetimeInSeconds: settings.lifetimeSeconds,
          Question: externalQuestionXml(hit.url, plan.frameHeight),
          RequesterAnnotation: annotation,
          UniqueRequestToken: hit.uniqueRequestToken,
        }),
      ),
    );
    const hitId = created.HIT?.HITId;
    if (!hitId) throw new Error(`CreateHITWithHITType returned no HITId for item ${state.itemId}`);
    return { hitId, hitTypeId, groupId: created.HIT?.HITGroupId, expiresAt: created.HIT?.Expiration, recovered: false };
  } catch (err) {
    // The token was used before: the HIT exists but was not recorded (an interrupted publish).
    if (!(err instanceof Error) || !/already ?exists/i.test(`${err.name} ${err.message}`)) {
      throw new PublishInterruptedError(
        `Creating the HIT for item ${state.itemId} failed (${errorText(err)}); ${plan.summary.hits.length} HIT(s) created before it are stored, and running publish again continues from here`,
        plan.summary,
        err,
      );
    }
    const found = await findHitByToken(client, production, hit.uniqueRequestToken);
    if (!found)
      throw new PublishInterruptedError(
        `MTurk says the HIT for item ${state.itemId} exists, but no HIT of this account carries its token ${hit.uniqueRequestToken}`,
        plan.summary,
        err,
      );
    return {
      hitId: found.hitId,
      hitTypeId: found.hitTypeId,
      groupId: found.hitGroupId,
      expiresAt: found.expiresAt,
      recovered: true,
    };
  }
}

/** Creates the HITs still missing for the study (or, in a dry run, says which it would create). */
export async function publishStudy(
  db: Db,
  client: MTurkClient | null,
  options: PublishOptions,
): Promise<PublishSummary> {
  const { production } = options;
  const plan = await planPublish(db, options);
  const { summary, environment } = plan;
  if (plan.toPublish.length === 0) return summary;
  if (summary.dryRun) return await dryRunSummary(db, plan);

  if (!client) throw new Error("publishStudy needs an MTurk client unless it is a dry run");
  await assertEnvironment(client, production);
  let settings = withQualificationType(plan, summary.qualificationTypeId, summary.qualificationTypeSource);
  if (!summary.qualificationTypeId) {
    const qualification = await ensureQualificationType(db, client, production, plan.test);
    settings = withQualificationType(plan, qualification.id, qualification.source);
  }
  const hitTypeId = await createHitType(client, production, settings, summary.qualificationRequirements);
  summary.hitTypeId = hitTypeId;

  for (const state of plan.toPublish) {
    const hit = plannedHit(plan, state);
    const created = await createHit(client, production, plan, settings, hitTypeId, state, hit);
    await storeHit(db, {
      hitId: created.hitId,
      environment,
      hitTypeId: created.hitTypeId,
      studyId: plan.study.id,
      studyItemId: state.itemId,
      maxAssignments: settings.assignmentsPerHit,
      rewardUsd: settings.rewardUsd,
      expiresAt: created.expiresAt?.toISOString() ?? null,
    });
    if (created.groupId && !summary.previewUrl) summary.previewUrl = hitGroupUrl(environment, created.groupId);
    summary.hits.push({ ...hit, hitId: created.hitId, recovered: created.recovered });
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
