/** A study's settings (stored as JSON on the study): every default from the spec, all configurable. */
import { z } from "zod";
import { TASK_TYPE_IDS } from "../task-types/registry.ts";

/** A study's type is its task type (app/task-types). */
export const STUDY_TYPES = TASK_TYPE_IDS;
export const POOLS = ["expert", "crowd"] as const;
export type Pool = (typeof POOLS)[number];

export const DEFAULT_LABELS_PER_ITEM: Record<Pool, number> = { expert: 2, crowd: 3 };

export const prolificSettingsSchema = z
  .object({
    /** Shown to the participant and sent back to Prolific in the completion URL. */
    completionCode: z.string().regex(/^[A-Z0-9]{4,20}$/, "4–20 upper-case letters or digits"),
    /** Items one participant labels before the session is complete. */
    itemsPerSession: z.number().int().min(1).max(500),
    /** What Prolific pays per completed session, for the dashboard's hourly pay. */
    rewardUsd: z.number().min(0).max(1000).optional(),
  })
  .strict();
export type ProlificSettings = z.infer<typeof prolificSettingsSchema>;

export const studyConfigSchema = z
  .object({
    /** A started task returns to the pool after this many minutes without a submit. */
    leaseMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    /** Gold / attention items per regular item. */
    goldRate: z.number().min(0).max(1).default(0),
    /** Annotators below this gold accuracy are flagged (with at least goldMinAttempted gold items). */
    goldThreshold: z.number().min(0).max(1).default(0.7),
    goldMinAttempted: z.number().int().min(1).default(2),
    /**
     * After an annotator submits a gold item, the next page says whether the answer matched and what was expected
     * (training rather than a hidden check); off by default, when gold items stay indistinguishable.
     */
    goldFeedback: z.boolean().default(false),
    /**
     * Labels given in fewer seconds on task than this are listed on the dashboard, which can leave them out of the
     * statistics (0: none).
     */
    minSecondsOnTask: z.number().min(0).max(3600).default(2),
    /** Sampling and bootstrap seed. */
    seed: z.number().int().default(1),
    bootstrapDraws: z.number().int().min(100).max(100_000).default(1000),
    /** Consensus studies: how many trajectories were sampled. */
    trajectories: z.number().int().min(1).optional(),
    /** Labels stored beyond k on an item (surplus) enter the statistics too; off by default (k is a hard cap). */
    countSurplus: z.boolean().default(false),
    /** Crowd studies recruited on Prolific: what a participant does in one session, and what ends it. */
    prolific: prolificSettingsSchema.optional(),
  })
  .strict();

export type StudyConfig = z.infer<typeof studyConfigSchema>;

export function parseStudyConfig(value: unknown): StudyConfig {
  return studyConfigSchema.parse(value ?? {});
}
