/** Deterministic record ids for evaluations and MI judgments, shared by the evaluators and the metrics. */
import type { EvaluationMethod } from "./series.ts";

/** Record ids allow letters, digits and `. _ : -` only, up to 120 characters (bundle.ts). */
const ID_MAX = 120;

/** Makes a model name usable inside a record id ("org/model v2" → "org_model_v2"). */
export function backboneSlug(backbone: string): string {
  return backbone.replace(/[^A-Za-z0-9._:-]/g, "_");
}

function shortHash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * `${runId}:${method}:${backbone}`, deterministic so a repeated `evaluate` finds its earlier
 * work; with the judge's prompt version, `…:v<first 8 hex digits>` (evaluations recorded before
 * versions keep the bare form). An id that would be too long keeps its start and gets a hash of
 * the full id instead. Readers find an evaluation through the resolver
 * (app/server/pipeline/evaluation-identity.server.ts), never by this formula alone.
 */
export function evaluationId(
  runId: string,
  method: EvaluationMethod | "emotion",
  backbone: string,
  promptVersion?: string | null,
): string {
  const version = promptVersion ? `:v${promptVersion.slice(0, 8)}` : "";
  const full = `${runId}:${method}:${backboneSlug(backbone)}${version}`;
  if (full.length <= ID_MAX) return full;
  return `${full.slice(0, ID_MAX - 9)}-${shortHash(full)}`;
}

/** The evaluation id MI values of one judge backbone are stored under. */
export function miEvaluationId(runId: string, backbone: string): string {
  return `${runId}:mi:${backboneSlug(backbone)}`;
}
