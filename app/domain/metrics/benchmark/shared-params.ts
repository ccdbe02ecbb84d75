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

/** The judge's quality counts every evaluation-based row carries. */
export function evaluationQuality(errors: readonly unknown[], failedTopics: readonly string[] = []) {
  return { evaluationErrors: errors.length, ...(failedTopics.length > 0 ? { failedTopics } : {}) };
}
