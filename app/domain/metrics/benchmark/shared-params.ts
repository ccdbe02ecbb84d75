/** Parameters several metrics declare; each is one object so the combined schema holds it once. */
import { z } from "zod";
import { DEFAULT_S0 } from "../../consensus.ts";
import type { ParamSpec } from "../descriptor.ts";

/** Read by every metric on a topic-localized series C[t], which the runner builds with it. */
export const s0Param = {
  schema: z.number().min(1).max(5).default(DEFAULT_S0),
  symbol: "s0",
  doc: "starting 1–5 score of every topic before its first located turn",
} satisfies ParamSpec;

/**
 * The judge's error count every evaluation-based row carries (0 on a computed row: an evaluation
 * with recorded errors gives incomplete rows instead, see ../incomplete-input.ts).
 */
export function evaluationQuality(errors: readonly unknown[]) {
  return { evaluationErrors: errors.length };
}

/** How CC, TLE, RL, ME and MI are computed: as the spec defines them, or as ProMediate's released code does. */
export const METRIC_DEFINITIONS = ["spec", "promediate-reference"] as const;
export type MetricDefinitions = (typeof METRIC_DEFINITIONS)[number];

/**
 * Taken by CC, TLE, RL, ME and MI, so every row of theirs records which definition computed it (a row of one is
 * never served for the other). docs/metrics.md, "ProMediate reference definitions".
 */
export const definitionsParam = {
  schema: z.enum(METRIC_DEFINITIONS).default("spec"),
  symbol: "definitions",
  doc: "spec (../shared/spec/metrics.md) or promediate-reference (as ProMediate's released evaluation code computes)",
} satisfies ParamSpec;

/** Marks a reference row's detail, so explain() reads its own fields (explain sees the detail, not the params). */
export const REFERENCE_DETAIL = { definitions: "promediate-reference" } as const;
