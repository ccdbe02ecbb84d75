/**
 * A run's emotion trajectories: per party, the 0–100 score at each of its turns, from one
 * source — the parties' own reports during the simulation (`self`), or the post-hoc emotion
 * judge (one stored evaluation of method "emotion" per backbone). Built from stored records by
 * the metrics runner, the report and the run page; the metrics read them through ./series.ts.
 */
import type { EmotionJudgeOutput } from "../bundle.ts";
import { evaluationId } from "../evaluation-ids.ts";

export const EMOTION_METHOD = "emotion";

export interface EmotionPoint {
  turnId: number;
  /** 0–100, higher = calmer and more open. */
  score: number;
  reason: string | null;
}

export type EmotionSource = { kind: "self" } | { kind: "judge"; backbone: string; evaluationId: string };

export interface EmotionTrajectory {
  source: EmotionSource;
  /** Per party id (in the run's party order), its scores in turn order. */
  parties: Record<string, EmotionPoint[]>;
  /**
   * Parties the judge failed on (a recorded error, or no output): a metric on this trajectory
   * is null and counted as incomplete, never computed without them. Always empty for `self`.
   */
  failedParties: string[];
}

/** A stored turn as the trajectory builders read it. */
export interface EmotionTurn {
  turnId: number;
  speaker: string;
  role: string;
  emotion: number | null;
  emotionReason: string | null;
}

/** A stored evaluation as the trajectory builders read it (any method; only "emotion" ones are used). */
export interface EmotionEvaluation {
  id: string;
  method: string;
  backbone: string;
  output: unknown;
  errors: readonly { party_id?: string; topic_id?: string; message: string }[];
}

/** The parties' own reports, or null when the run was simulated without emotion. */
export function selfReportedTrajectory(
  turns: readonly EmotionTurn[],
  partyIds: readonly string[],
): EmotionTrajectory | null {
  const reported = turns.filter((t) => t.role === "party" && t.emotion !== null);
  if (reported.length === 0) return null;
  const parties: Record<string, EmotionPoint[]> = Object.fromEntries(partyIds.map((p) => [p, []]));
  for (const t of reported)
    (parties[t.speaker] ??= []).push({ turnId: t.turnId, score: t.emotion!, reason: t.emotionReason });
  return { source: { kind: "self" }, parties, failedParties: [] };
}

/** One emotion-judge evaluation as a trajectory; an error without a party id fails every party. */
export function judgedTrajectory(evaluation: EmotionEvaluation, partyIds: readonly string[]): EmotionTrajectory {
  const output = (evaluation.output ?? {}) as Record<string, EmotionJudgeOutput>;
  const runWide = evaluation.errors.some((e) => !e.party_id);
  const erred = new Set(evaluation.errors.flatMap((e) => (e.party_id ? [e.party_id] : [])));
  const failedParties = partyIds.filter((p) => runWide || erred.has(p) || !(p in output));
  const parties: Record<string, EmotionPoint[]> = Object.fromEntries(
    partyIds.map((p) => [
      p,
      failedParties.includes(p)
        ? []
        : [...(output[p]?.scores ?? [])]
            .sort((a, b) => a.turn_id - b.turn_id)
            .map((s) => ({ turnId: s.turn_id, score: s.score, reason: s.reason || null })),
    ]),
  );
  return {
    source: { kind: "judge", backbone: evaluation.backbone, evaluationId: evaluation.id },
    parties,
    failedParties,
  };
}

/** Every trajectory a run has: the self-report first (if any), then each emotion judge by backbone. */
export function runEmotionTrajectories(
  turns: readonly EmotionTurn[],
  evaluations: readonly EmotionEvaluation[],
  partyIds: readonly string[],
): EmotionTrajectory[] {
  const self = selfReportedTrajectory(turns, partyIds);
  const judged = evaluations
    .filter((e) => e.method === EMOTION_METHOD)
    .sort((a, b) => (a.backbone < b.backbone ? -1 : a.backbone > b.backbone ? 1 : 0))
    .map((e) => judgedTrajectory(e, partyIds));
  return self ? [self, ...judged] : judged;
}

/**
 * The trajectory a summary reads for a run: the self-report when the run has one (it is the
 * simulation's own measure), else the named judge backbone's, else the first judge's by name.
 */
export function preferredTrajectory(
  trajectories: readonly EmotionTrajectory[],
  judgeBackbone?: string,
): EmotionTrajectory | null {
  const self = trajectories.find((t) => t.source.kind === "self");
  if (self) return self;
  const judged = trajectories.filter((t) => t.source.kind === "judge");
  return judged.find((t) => t.source.kind === "judge" && t.source.backbone === judgeBackbone) ?? judged[0] ?? null;
}

/** How a source is named in tables and on the run page. */
export function emotionSourceLabel(source: EmotionSource): string {
  return source.kind === "self" ? "self-report" : `judge ${source.backbone}`;
}

/**
 * The id metric rows of a trajectory are stored under: the judge's evaluation id, or
 * `${runId}:emotion-self` for the self-report (no evaluation id can take that form).
 */
export function emotionSubjectId(runId: string, source: EmotionSource): string {
  return source.kind === "self" ? `${runId}:emotion-self` : source.evaluationId;
}

/** The id emotion–consensus rows (EC) are stored under: the trajectory's id and the topic-localized evaluation's. */
export function emotionConsensusSubjectId(runId: string, source: EmotionSource, topicEvaluationId: string): string {
  return `${emotionSubjectId(runId, source)}|${topicEvaluationId}`;
}

/**
 * The id of a run's emotion-judge evaluation by one backbone as recorded before prompt versions (writers use
 * newEvaluationId).
 */
export function emotionEvaluationId(runId: string, backbone: string): string {
  return evaluationId(runId, EMOTION_METHOD, backbone);
}
