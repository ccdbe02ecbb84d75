/**
 * The HIT settings for a study, shared by `mturk export` and `mturk publish`: the study's labels
 * per item become the assignments per HIT, the pace comes from the study's own median seconds
 * per label when it has any, and the reward defaults to a fair hourly rate at that pace.
 */
import { median } from "../../domain/validation/rows.ts";
import {
  FEDERAL_MINIMUM_WAGE_USD,
  HIT_DEFAULTS,
  estimateCost,
  hitSettingsSchema,
  type CostEstimate,
  type HitSettings,
} from "../../domain/crowd/hit-config.ts";
import { taskType } from "../../task-types/registry.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError, badInput, zodProblems } from "../../server/http/errors.server.ts";
import type { StudyRow } from "../../server/models/study.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { timedLabelSeconds } from "../../server/models/label.server.ts";

/** The hourly rate the default reward aims at (well above the federal minimum). */
export const DEFAULT_TARGET_HOURLY_USD = 12;

export interface HitOverrides {
  rewardUsd?: number;
  secondsPerItem?: number;
  title?: string;
  description?: string;
  keywords?: string[];
  assignmentDurationSeconds?: number;
  lifetimeSeconds?: number;
  autoApprovalDelaySeconds?: number;
  minPercentApproved?: number;
  minApprovedHits?: number;
  locale?: string;
  minQualificationScore?: number;
  qualificationTypeId?: string | null;
}

/** The study's median seconds per label, and where the figure came from. */
export async function secondsPerItem(
  db: Db,
  study: StudyRow,
  override?: number,
): Promise<{ seconds: number; source: string }> {
  if (override !== undefined) return { seconds: override, source: "--seconds-per-item" };
  const timed = await timedLabelSeconds(db, study.id);
  const m = median(timed);
  if (m !== null && m > 0) return { seconds: m, source: `median of ${timed.length} timed labels in study ${study.id}` };
  const fallback = taskType(study.type).defaultSecondsPerItem;
  return { seconds: fallback, source: `no timed labels yet; assumed ${fallback} s per item` };
}

export interface StudyHitPlan {
  study: StudyRow;
  settings: HitSettings;
  estimate: CostEstimate;
}

/** Settings and cost for `hits` HITs of the study; refuses non-crowd studies and invalid values. */
export async function planHits(
  db: Db,
  studyId: number,
  hits: number,
  overrides: HitOverrides = {},
): Promise<StudyHitPlan> {
  const study = await studyOrNotFound(db, studyId);
  if (study.pool !== "crowd")
    throw new ServiceError(409, `Study ${studyId} is an ${study.pool} study; only crowd studies go to Mechanical Turk`);
  const pace = await secondsPerItem(db, study, overrides.secondsPerItem);
  const texts = taskType(study.type).mturk.texts;
  const defaultReward = Math.max(0.01, Math.ceil((DEFAULT_TARGET_HOURLY_USD * pace.seconds) / 36) / 100);
  const parsed = hitSettingsSchema.safeParse({
    title: overrides.title ?? texts.title,
    description: overrides.description ?? texts.description,
    keywords: overrides.keywords ?? texts.keywords,
    rewardUsd: overrides.rewardUsd ?? defaultReward,
    assignmentsPerHit: study.labelsPerItem,
    assignmentDurationSeconds: overrides.assignmentDurationSeconds ?? HIT_DEFAULTS.assignmentDurationSeconds,
    lifetimeSeconds: overrides.lifetimeSeconds ?? HIT_DEFAULTS.lifetimeSeconds,
    autoApprovalDelaySeconds: overrides.autoApprovalDelaySeconds ?? HIT_DEFAULTS.autoApprovalDelaySeconds,
    minPercentApproved: overrides.minPercentApproved ?? HIT_DEFAULTS.minPercentApproved,
    minApprovedHits: overrides.minApprovedHits ?? HIT_DEFAULTS.minApprovedHits,
    locale: overrides.locale ?? HIT_DEFAULTS.locale,
    minQualificationScore: overrides.minQualificationScore ?? HIT_DEFAULTS.minQualificationScore,
    qualificationTypeId: overrides.qualificationTypeId ?? null,
  });
  if (!parsed.success) throw badInput("The HIT settings are not valid", zodProblems(parsed.error));
  return { study, settings: parsed.data, estimate: estimateCost(hits, parsed.data, pace.seconds, pace.source) };
}

/** Refuses a reward that pays less than the federal minimum wage at the estimated pace, unless forced. */
export function checkFairPay(estimate: CostEstimate, force: boolean): string | null {
  if (estimate.hourlyWageUsd >= FEDERAL_MINIMUM_WAGE_USD) return null;
  const message = `A reward of $${estimate.rewardUsd.toFixed(2)} at ${Math.round(estimate.secondsPerAssignment)} s per assignment pays $${estimate.hourlyWageUsd.toFixed(2)}/h, below the U.S. federal minimum wage of $${FEDERAL_MINIMUM_WAGE_USD.toFixed(2)}/h`;
  if (!force) throw badInput(`${message}. Raise --reward, or pass --force to go ahead anyway.`);
  return message;
}
