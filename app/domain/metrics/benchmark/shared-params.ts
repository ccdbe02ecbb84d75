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
