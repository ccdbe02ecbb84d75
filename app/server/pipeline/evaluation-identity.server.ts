/**
 * An evaluation's identity: its run, method, judge model and the judge's prompt version (the
 * template version of the prompts that judge renders). Every reader that wants "the evaluation of
 * run R by judge J" asks `resolveEvaluationIds`, which accepts a row of the current version or a
 * row recorded before versions existed (prompt_version null, kept so older databases keep their
 * evaluations). A judge whose prompt changed finds nothing and makes a new evaluation under
 * `newEvaluationId` (the version suffixed, like run ids).
 */
import { evaluationId } from "../../domain/evaluation-ids.ts";
import type { EvaluationMethod } from "../../domain/series.ts";
import type { Db } from "../db.server.ts";
import { evaluationIdentities } from "../models/evaluation.server.ts";
import { templateVersion } from "./prompt-templates.server.ts";

export type JudgedMethod = EvaluationMethod | "emotion";

/** The templates each judge renders (the evaluators' *_TEMPLATE constants; a test keeps them equal). */
export const JUDGE_TEMPLATES: Record<JudgedMethod, readonly string[]> = {
  "topic-localized": ["topic-judge"],
  "per-turn": ["baseline-attitude", "baseline-agreement"],
  emotion: ["emotion-judge"],
};

/** The current prompt version of a judge method (12 hex digits of its templates' hash). */
export function judgePromptVersion(method: JudgedMethod): string {
  return templateVersion(JUDGE_TEMPLATES[method]);
}

/** The id a new evaluation of the current prompt version is stored under. */
export function newEvaluationId(
  runId: string,
  method: JudgedMethod,
  backbone: string,
  promptVersion = judgePromptVersion(method),
): string {
  return evaluationId(runId, method, backbone, promptVersion);
}

/**
 * The stored evaluation of each run by `backbone` that the current prompt version may use
 * (run id → evaluation id); a run without one is absent. A row of exactly this version wins over
 * one recorded before versions; a row of another version is never returned.
 */
export async function resolveEvaluationIds(
  db: Db,
  runIds: readonly string[],
  method: JudgedMethod,
  backbone: string,
  promptVersion = judgePromptVersion(method),
): Promise<Map<string, string>> {
  const found = new Map<string, { id: string; exact: boolean }>();
  for (const row of await evaluationIdentities(db, runIds, method, backbone)) {
    if (row.promptVersion !== null && row.promptVersion !== promptVersion) continue;
    const exact = row.promptVersion === promptVersion;
    const seen = found.get(row.runId);
    if (!seen || (exact && !seen.exact)) found.set(row.runId, { id: row.id, exact });
  }
  return new Map([...found].map(([runId, v]) => [runId, v.id]));
}

/** A stored evaluation as the filters below read it. */
export interface EvaluationIdentity {
  id: string;
  runId: string;
  method: string;
  backbone: string;
  promptVersion: string | null;
}

/**
 * The ids among `rows` that the current judge prompts may use, by the same rule as
 * `resolveEvaluationIds`: per run, method and backbone, the current version's row, else the one
 * recorded before versions; rows of another version are left out. A method with no judge
 * prompt here (none today) keeps its rows.
 */
export function usableEvaluationIds(rows: readonly EvaluationIdentity[]): Set<string> {
  const versions = new Map<string, string>();
  const best = new Map<string, { id: string; exact: boolean }>();
  for (const row of rows) {
    const known = row.method in JUDGE_TEMPLATES;
    if (known && !versions.has(row.method)) versions.set(row.method, judgePromptVersion(row.method as JudgedMethod));
    const current = versions.get(row.method);
    if (known && row.promptVersion !== null && row.promptVersion !== current) continue;
    const exact = !known || row.promptVersion === current;
    const key = `${row.runId}\u0000${row.method}\u0000${row.backbone}`;
    const seen = best.get(key);
    if (!seen || (exact && !seen.exact)) best.set(key, { id: row.id, exact });
  }
  return new Set([...best.values()].map((v) => v.id));
}

/** `resolveEvaluationIds` for one run. */
export async function resolveEvaluationId(
  db: Db,
  runId: string,
  method: JudgedMethod,
  backbone: string,
): Promise<string | undefined> {
  return (await resolveEvaluationIds(db, [runId], method, backbone)).get(runId);
}

/**
 * The evaluation id a reader should look metric rows up under: the resolved one, else the id a
 * new evaluation would get (so a not-yet-judged run finds no rows, never a stale version's).
 */
export async function currentEvaluationIds(
  db: Db,
  runIds: readonly string[],
  method: JudgedMethod,
  backbone: string,
): Promise<Map<string, string>> {
  const version = judgePromptVersion(method);
  const resolved = await resolveEvaluationIds(db, runIds, method, backbone, version);
  return new Map(
    runIds.map((runId) => [runId, resolved.get(runId) ?? newEvaluationId(runId, method, backbone, version)]),
  );
}
