/**
 * Mechanical Turk HIT settings shared by the batch export (`hit-config.json` for the requester
 * site) and the API publish: the worker filters, the reward check against the U.S. federal
 * minimum wage, and the cost estimate. Pure; the CLI supplies the numbers.
 */
import { z } from "zod";

/** MTurk's system qualification type ids (the same in the sandbox and in production). */
export const SYSTEM_QUALIFICATIONS = {
  percentAssignmentsApproved: "000000000000000000L0",
  numberHitsApproved: "00000000000000000040",
  locale: "00000000000000000071",
} as const;

/** U.S. federal minimum wage, USD per hour. */
export const FEDERAL_MINIMUM_WAGE_USD = 7.25;

/** MTurk's commission: 20% of the reward, 20% more for HITs with 10 or more assignments, at least $0.01. */
export const MTURK_FEE_RATE = 0.2;
export const MTURK_LARGE_HIT_EXTRA_RATE = 0.2;
export const MTURK_LARGE_HIT_ASSIGNMENTS = 10;
export const MTURK_MIN_FEE_USD = 0.01;

export const hitSettingsSchema = z
  .object({
    title: z.string().trim().min(1).max(128),
    description: z.string().trim().min(1).max(2000),
    keywords: z.array(z.string().trim().min(1)).max(20),
    /** Reward per assignment, USD. */
    rewardUsd: z.number().min(0.01, "MTurk's smallest reward is $0.01").max(1000),
    assignmentsPerHit: z.number().int().min(1).max(1000),
    assignmentDurationSeconds: z
      .number()
      .int()
      .min(30)
      .max(365 * 86_400),
    lifetimeSeconds: z
      .number()
      .int()
      .min(30)
      .max(365 * 86_400),
    autoApprovalDelaySeconds: z
      .number()
      .int()
      .min(0)
      .max(30 * 86_400),
    minPercentApproved: z.number().int().min(0).max(100),
    minApprovedHits: z.number().int().min(0),
    /** ISO 3166 country code, e.g. US. */
    locale: z.string().regex(/^[A-Z]{2}$/, "a two-letter country code such as US"),
    /** Least score (percent) on our qualification test. */
    minQualificationScore: z.number().int().min(0).max(100),
    /** The qualification type of the test once created on MTurk; null until then. */
    qualificationTypeId: z.string().min(1).nullable(),
  })
  .strict();

export type HitSettings = z.infer<typeof hitSettingsSchema>;

export const HIT_DEFAULTS = {
  assignmentDurationSeconds: 3600,
  lifetimeSeconds: 7 * 86_400,
  autoApprovalDelaySeconds: 3 * 86_400,
  minPercentApproved: 98,
  minApprovedHits: 1000,
  locale: "US",
  minQualificationScore: 80,
} as const;

/** A QualificationRequirement in the MTurk API's shape (also written to hit-config.json). */
export interface QualificationRequirement {
  QualificationTypeId: string;
  Comparator: "GreaterThanOrEqualTo" | "EqualTo";
  IntegerValues?: number[];
  LocaleValues?: { Country: string }[];
  /** Workers who do not meet it cannot see the HIT's content or accept it. */
  ActionsGuarded: "Accept" | "PreviewAndAccept" | "DiscoverPreviewAndAccept";
}

/** The requirements a HIT carries. Without a qualification type id the test requirement is left out (and reported). */
export function qualificationRequirements(settings: HitSettings): QualificationRequirement[] {
  const requirements: QualificationRequirement[] = [
    {
      QualificationTypeId: SYSTEM_QUALIFICATIONS.percentAssignmentsApproved,
      Comparator: "GreaterThanOrEqualTo",
      IntegerValues: [settings.minPercentApproved],
      ActionsGuarded: "Accept",
    },
    {
      QualificationTypeId: SYSTEM_QUALIFICATIONS.numberHitsApproved,
      Comparator: "GreaterThanOrEqualTo",
      IntegerValues: [settings.minApprovedHits],
      ActionsGuarded: "Accept",
    },
    {
      QualificationTypeId: SYSTEM_QUALIFICATIONS.locale,
      Comparator: "EqualTo",
      LocaleValues: [{ Country: settings.locale }],
      ActionsGuarded: "Accept",
    },
  ];
  if (settings.qualificationTypeId) {
    requirements.push({
      QualificationTypeId: settings.qualificationTypeId,
      Comparator: "GreaterThanOrEqualTo",
      IntegerValues: [settings.minQualificationScore],
      ActionsGuarded: "Accept",
    });
  }
  return requirements;
}

export interface CostEstimate {
  hits: number;
  assignments: number;
  rewardUsd: number;
  /** Seconds one assignment is expected to take, and where that figure came from. */
  secondsPerAssignment: number;
  secondsSource: string;
  /** What a worker earns per hour at that pace. */
  hourlyWageUsd: number;
  rewardsTotalUsd: number;
  feesTotalUsd: number;
  totalUsd: number;
}

const cents = (usd: number) => Math.round(usd * 100);

/** MTurk's fee on one assignment, in cents. */
export function feeCents(rewardUsd: number, assignmentsPerHit: number): number {
  const rate = MTURK_FEE_RATE + (assignmentsPerHit >= MTURK_LARGE_HIT_ASSIGNMENTS ? MTURK_LARGE_HIT_EXTRA_RATE : 0);
  return Math.max(cents(MTURK_MIN_FEE_USD), Math.round(cents(rewardUsd) * rate));
}

export function hourlyWage(rewardUsd: number, secondsPerAssignment: number): number {
  if (!(secondsPerAssignment > 0))
    throw new RangeError(`seconds per assignment must be above 0, got ${secondsPerAssignment}`);
  return (rewardUsd * 3600) / secondsPerAssignment;
}

/** Cost of a batch, computed in whole cents so totals add up exactly. */
export function estimateCost(
  hits: number,
  settings: Pick<HitSettings, "rewardUsd" | "assignmentsPerHit">,
  secondsPerAssignment: number,
  secondsSource: string,
): CostEstimate {
  return estimateBatchesCost(
    [{ hits, assignmentsPerHit: settings.assignmentsPerHit }],
    settings.rewardUsd,
    secondsPerAssignment,
    secondsSource,
  );
}

/**
 * Cost of several batches at one reward whose HITs take different numbers of assignments (the fee rate depends on it).
 */
export function estimateBatchesCost(
  batches: readonly { hits: number; assignmentsPerHit: number }[],
  rewardUsd: number,
  secondsPerAssignment: number,
  secondsSource: string,
): CostEstimate {
  let hits = 0;
  let assignments = 0;
  let feeTotal = 0;
  for (const batch of batches) {
    hits += batch.hits;
    assignments += batch.hits * batch.assignmentsPerHit;
    feeTotal += feeCents(rewardUsd, batch.assignmentsPerHit) * batch.hits * batch.assignmentsPerHit;
  }
  const rewardCents = cents(rewardUsd) * assignments;
  return {
    hits,
    assignments,
    rewardUsd,
    secondsPerAssignment,
    secondsSource,
    hourlyWageUsd: hourlyWage(rewardUsd, secondsPerAssignment),
    rewardsTotalUsd: rewardCents / 100,
    feesTotalUsd: feeTotal / 100,
    totalUsd: (rewardCents + feeTotal) / 100,
  };
}

/** The smallest reward (whole cents) that pays at least the federal minimum wage at this pace. */
export function minimumFairReward(secondsPerAssignment: number): number {
  return Math.ceil((FEDERAL_MINIMUM_WAGE_USD * secondsPerAssignment) / 36) / 100;
}

/** The file written beside the template and input CSV: every setting in the API's names. */
export function hitConfigJson(settings: HitSettings, estimate: CostEstimate) {
  return {
    Title: settings.title,
    Description: settings.description,
    Keywords: settings.keywords.join(", "),
    Reward: settings.rewardUsd.toFixed(2),
    MaxAssignments: settings.assignmentsPerHit,
    AssignmentDurationInSeconds: settings.assignmentDurationSeconds,
    LifetimeInSeconds: settings.lifetimeSeconds,
    AutoApprovalDelayInSeconds: settings.autoApprovalDelaySeconds,
    QualificationRequirements: qualificationRequirements(settings),
    /** Present when the test's qualification type is not known yet: publish creates it. */
    PendingQualification: settings.qualificationTypeId
      ? null
      : {
          minScore: settings.minQualificationScore,
          note: "create the test's qualification type with `socrates mturk publish` (or pass --qualification-type-id) and add its requirement",
        },
    Estimate: estimate,
  };
}
