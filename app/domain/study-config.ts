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

/**
 * How a consensus study picks its trajectories: `stratified` samples them all at creation (seeded, domain × mediator);
 * `active` draws one at a time as annotators ask for work, favouring runs the judge is least sure of
 * (docs/active-labelling.md).
 */
export const ALLOCATIONS = ["stratified", "active"] as const;

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
    /** Consensus studies: how many trajectories were sampled (active: the most that will be drawn, the budget). */
    trajectories: z.number().int().min(1).optional(),
    /** Labels stored beyond k on an item (surplus) enter the statistics too; off by default (k is a hard cap). */
    countSurplus: z.boolean().default(false),
    allocation: z.enum(ALLOCATIONS).default("stratified"),
    /**
     * Active studies: the topic-localized judge backbone(s) whose evaluations define the population and its
     * uncertainty; the first is the judge the estimate calibrates, a second one only measures disagreement.
     */
    judgeBackbones: z.array(z.string().min(1)).min(1).max(2).optional(),
    /** Active studies with gold: the consensus study the gold snippets come from (mixed in as runs are drawn). */
    goldFromStudyId: z.number().int().optional(),
    /** The stopping rule's target: the 95% CI half-width (0–1 scale) the researcher wants per mediator. */
    targetHalfWidth: z.number().gt(0).max(1).default(0.05),
    /** Crowd studies recruited on Prolific: what a participant does in one session, and what ends it. */
    prolific: prolificSettingsSchema.optional(),
  })
  .strict();

export type StudyConfig = z.infer<typeof studyConfigSchema>;

export function parseStudyConfig(value: unknown): StudyConfig {
  return studyConfigSchema.parse(value ?? {});
}
