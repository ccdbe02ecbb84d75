/**
 * The benchmark plan (`benchmark.json`): which scenarios, conditions and mediators make the grid,
 * which simulator and evaluator backbones play and judge it, how many runs per cell, and the
 * ablations the paper's robustness tables need (another evaluator, another simulator, repeated
 * runs). Validated here with zod; reading the file and hashing it is app/server/benchmark.
 * Format: docs/benchmark.md.
 */
import { z } from "zod";
import { CONDITION_AXES, DOMAINS } from "../bundle.ts";
import { formatJsonPath } from "../judge-problems.ts";
import { PROBE_CONDITIONS } from "../probing/conditions.ts";
import {
  DEFAULT_SOCIAL,
  MEDIATOR_FREQUENCIES,
  mediatorModeKey,
  type SocialSettings,
} from "../simulation/mediator-settings.ts";

/** The condition keys a plan may name: `general`, or `<axis>:<variant>` of the 15 (e.g. `emotion:CR`). */
export const CONDITION_KEYS: readonly string[] = PROBE_CONDITIONS.map((c) => conditionKeyOf(c.axis, c.variant));

/** A condition's key inside its scenario: `general`, else `<axis>:<variant>`. */
export function conditionKeyOf(axis: string, variant: string): string {
  return axis === "general" ? "general" : `${axis}:${variant}`;
}

/**
 * The mediators a plan can ask for: our generic mediator, a socially intelligent one and a naive one (both after
 * ProMediate; docs/benchmark.md "Mediator modes").
 */
export const MEDIATOR_MODES = ["generic", "social", "naive"] as const;
export type MediatorMode = (typeof MEDIATOR_MODES)[number];

const name = z.string().trim().min(1).max(80);

/** A model on an endpoint; without `endpoint`, the role's endpoint in socrates.config.json. */
const backboneSchema = z
  .object({
    model: name,
    /** The name of an endpoint in socrates.config.json's `endpoints`. */
    endpoint: name.optional(),
  })
  .strict();

const mediatorSchema = backboneSchema
  .extend({
    /** How the mediator is shown in reports and on the Benchmark page (unique in the plan). */
    name: name,
    mode: z.enum(MEDIATOR_MODES).default("generic"),
    /** The social mediator only: how readily it steps in (default normal). */
    frequency: z.enum(MEDIATOR_FREQUENCIES).optional(),
    /** The social mediator only: how many recent events its memory keeps (default 8). */
    memory: z.number().int().min(1).max(50).optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    for (const key of ["frequency", "memory"] as const)
      if (m[key] !== undefined && m.mode !== "social")
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `only a mediator of mode "social" takes ${key} (this one is "${m.mode}")`,
        });
  });

const scenarioSelection = z.union([
  z.literal("all"),
  z.object({ ids: z.array(name).min(1) }).strict(),
  z.object({ domains: z.array(z.enum(DOMAINS)).min(1) }).strict(),
]);

const conditionSelection = z.union([
  z.literal("all"),
  z
    .object({
      keys: z
        .array(
          z
            .string()
            .refine((k) => CONDITION_KEYS.includes(k), { message: `expected one of ${CONDITION_KEYS.join(", ")}` }),
        )
        .min(1),
    })
    .strict(),
  z.object({ axes: z.array(z.enum(CONDITION_AXES as [string, ...string[]])).min(1) }).strict(),
]);

export const benchmarkPlanSchema = z
  .object({
    $comment: z.string().optional(),
    /** A short name for the plan (reports and the Benchmark page show it). */
    name: name,
    scenarios: scenarioSelection,
    conditions: conditionSelection,
    mediators: z.array(mediatorSchema).min(1),
    simulator: backboneSchema,
    /** The topic-localized judge whose scores make the main tables. */
    evaluator: backboneSchema,
    /** Runs per scenario-condition-mediator (run indices 0..runs−1). */
    runs: z.number().int().min(1).max(100).default(1),
    /** Party-turn budget of every run. */
    budget: z.number().int().min(1).max(1000).default(30),
    /** Base seed; each run's seed derives from it and the run index. */
    seed: z.number().int().min(0).default(1),
    /**
     * Emotion trajectories (docs/metrics-emotion.md). `selfReport`: the parties report their
     * emotion every turn as they play (the party prompt asks for it, so these runs differ from
     * runs without it). `judge`: the post-hoc emotion judge scores every run of the grid that has
     * no self-report. Absent: neither (and the plan's hash is what it was before emotions existed).
     */
    emotion: z
      .object({ selfReport: z.boolean().default(true), judge: backboneSchema.optional() })
      .strict()
      .optional(),
    /**
     * The validation studies (ids in this database) Tables 1, 2 and 6 of the report read: A/B
     * reactiveness studies and expert snippet-consensus studies. Absent: those tables are left
     * out (with a warning); `report --study` overrides it. Absent, the plan's hash is what it
     * was before this field existed; the grid's run ids never depend on it.
     */
    studies: z.array(z.number().int().min(1)).min(1).optional(),
    /**
     * Metric parameters (δ, W, h, s0, τ, …) overriding the defaults; checked against the metric registry by the runner.
     */
    params: z.record(z.string(), z.unknown()).default({}),
    ablations: z
      .object({
        /** Table 8: every run of the main grid judged again by each of these backbones. */
        evaluators: z.array(backboneSchema).default([]),
        /** Figure 6: the main scenarios and conditions played again by another simulator, for some mediators. */
        simulators: z.array(backboneSchema.extend({ mediators: z.array(name).min(1) }).strict()).default([]),
        /** Table 9: run indices up to `runs − 1` on these conditions (default: general only), for every mediator. */
        repeats: z
          .object({
            runs: z.number().int().min(2).max(100),
            conditions: conditionSelection.default({ keys: ["general"] }),
          })
          .strict()
          .optional(),
      })
      .strict()
      .default({}),
  })
  .strict()
  .superRefine((plan, ctx) => {
    const seen = new Map<string, number>();
    const runKeys = new Map<string, number>();
    plan.mediators.forEach((m, i) => {
      const earlier = seen.get(m.name);
      if (earlier !== undefined)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["mediators", i, "name"],
          message: `"${m.name}" is already the name of mediators[${earlier}]`,
        });
      seen.set(m.name, i);
      const key = mediatorRunKey(m);
      const same = runKeys.get(key);
      if (same !== undefined)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["mediators", i],
          message: `same model, mode and settings as mediators[${same}]: their runs would share ids`,
        });
      runKeys.set(key, i);
    });
    plan.ablations.simulators.forEach((s, i) =>
      s.mediators.forEach((m, j) => {
        if (!seen.has(m))
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: ["ablations", "simulators", i, "mediators", j],
            message: `no mediator is named "${m}"`,
          });
      }),
    );
    if (plan.ablations.repeats && plan.ablations.repeats.runs <= plan.runs) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["ablations", "repeats", "runs"],
        message: `must be above the plan's runs (${plan.runs}) to add repeated runs`,
      });
    }
  });

export type BenchmarkPlan = z.output<typeof benchmarkPlanSchema>;
export type PlanBackbone = z.output<typeof backboneSchema>;
export type PlanMediator = z.output<typeof mediatorSchema>;
export type ConditionSelection = z.output<typeof conditionSelection>;

/** A plan that does not validate; the message names the file and each JSON path. */
export class BenchmarkPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BenchmarkPlanError";
  }
}

export function parseBenchmarkPlan(value: unknown, source: string): BenchmarkPlan {
  const result = benchmarkPlanSchema.safeParse(value);
  if (!result.success)
    throw new BenchmarkPlanError(
      result.error.issues.map((i) => `${source}: ${formatJsonPath(i.path)}: ${i.message}`).join("\n"),
    );
  return result.data;
}

/** Parses a plan file's text (JSON) with errors naming the file. */
export function parseBenchmarkPlanText(text: string, source: string): BenchmarkPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BenchmarkPlanError(`${source}: $: invalid JSON: ${(err as Error).message}`);
  }
  return parseBenchmarkPlan(value, source);
}

/**
 * What a mediated run's id carries for its mediator: the model, and the mode unless generic (with
 * the social mediator's settings unless default), so the same model under two prompts gets two
 * runs. (The endpoint is not part of it: the same model on two endpoints is the same mediator.)
 */
export function mediatorRunKey(m: Pick<PlanMediator, "model" | "mode" | "frequency" | "memory">): string {
  if (m.mode === "generic") return m.model;
  return `${m.model}:${mediatorModeKey(m.mode, m.mode === "social" ? socialSettingsOf(m) : null)}`;
}

/** The social mediator's settings of a plan mediator, defaults filled. */
export function socialSettingsOf(m: Pick<PlanMediator, "frequency" | "memory">): SocialSettings {
  return { frequency: m.frequency ?? DEFAULT_SOCIAL.frequency, memory: m.memory ?? DEFAULT_SOCIAL.memory };
}

/** The plan in a canonical JSON form (keys sorted, defaults filled), hashed to identify it. */
export function canonicalPlanJson(plan: BenchmarkPlan): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .filter((k) => k !== "$comment")
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(plan));
}
