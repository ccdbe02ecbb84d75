/**
 * When a metric's input is incomplete (spec: "Decisions on readings", "Incomplete input gives no
 * value"): a topic-localized evaluation with a failed topic (missing from the output, or named by
 * a recorded error) or any recorded error, a per-turn evaluation with any recorded error. Every
 * metric computed on such a series stores value null with `detail.incomplete = true`, never a
 * value with the failed topic held at s0. The input builder decides this once per input; the
 * row builder applies it to every metric of that input.
 */
export interface StoredEvaluationErrors {
  id: string;
  output: unknown;
  errors: readonly { topic_id?: string; message: string }[];
}

/**
 * What every incomplete row's detail has: the flag and a reason (evaluation, pair and emotion details add their own
 * fields).
 */
export type IncompleteRowDetail = Record<string, unknown> & { incomplete: true; reason: string };

/** What the stored detail of an incomplete row says. */
export interface IncompleteDetail extends Record<string, unknown> {
  incomplete: true;
  reason: string;
  failedTopics: string[];
  evaluationErrors: number;
  /** The runs whose evaluation is incomplete (one for a run's row, one or two for a pair's). */
  incompleteRuns: string[];
}

/** Topics of a topic-localized evaluation the judge did not deliver: missing from the output or named by an error. */
export function failedTopicsOf(topicIds: readonly string[], evaluation: StoredEvaluationErrors): string[] {
  const output = (evaluation.output ?? {}) as Record<string, unknown>;
  const named = new Set(evaluation.errors.flatMap((e) => (e.topic_id === undefined ? [] : [e.topic_id])));
  const failed = topicIds.filter((id) => !(id in output) || named.has(id));
  return [...failed, ...[...named].filter((id) => !topicIds.includes(id))];
}

function reasonFor(failedTopics: string[], errors: number, runs?: string[]): string {
  const topics = failedTopics.length > 0 ? `; failed topics: ${failedTopics.join(", ")}` : "";
  const where = runs ? ` of ${runs.join(" and ")}` : "";
  return `incomplete judge output${where} (${errors} recorded error${errors === 1 ? "" : "s"}${topics})`;
}

/**
 * The incomplete detail of one run's evaluation, or null when it is complete. `topicIds` only for topic-localized
 * evaluations.
 */
export function incompleteEvaluation(
  runId: string,
  evaluation: StoredEvaluationErrors,
  topicIds?: readonly string[],
): IncompleteDetail | null {
  const failedTopics = topicIds ? failedTopicsOf(topicIds, evaluation) : [];
  const errors = evaluation.errors.length;
  if (failedTopics.length === 0 && errors === 0) return null;
  return {
    incomplete: true,
    reason: reasonFor(failedTopics, errors),
    failedTopics,
    evaluationErrors: errors,
    incompleteRuns: [runId],
  };
}

/** A pair is incomplete when either run's evaluation is; the detail adds up both. */
export function incompletePair(...parts: (IncompleteDetail | null)[]): IncompleteDetail | null {
  const present = parts.filter((p): p is IncompleteDetail => p !== null);
  if (present.length === 0) return null;
  // Both runs play the same scenario-condition, so a topic id names the same topic in either.
  const failedTopics = [...new Set(present.flatMap((p) => p.failedTopics))];
  const errors = present.reduce((n, p) => n + p.evaluationErrors, 0);
  const runs = present.flatMap((p) => p.incompleteRuns);
  return {
    incomplete: true,
    reason: reasonFor(failedTopics, errors, runs),
    failedTopics,
    evaluationErrors: errors,
    incompleteRuns: runs,
  };
}

/**
 * The emotion counterpart: a judged emotion trajectory with failed parties (a recorded error
 * naming the party, a run-wide error, or a party missing from the output) gives every emotion
 * metric of that trajectory null with this detail, never a value over the remaining parties.
 */
export interface IncompleteEmotionDetail extends Record<string, unknown> {
  incomplete: true;
  reason: string;
  failedParties: string[];
}

export function incompleteTrajectory(failedParties: readonly string[]): IncompleteEmotionDetail | null {
  if (failedParties.length === 0) return null;
  return {
    incomplete: true,
    reason: `incomplete emotion-judge output (failed parties: ${failedParties.join(", ")})`,
    failedParties: [...failedParties],
  };
}

/**
 * EC reads both an emotion trajectory and a topic-localized C[t]: incomplete when either is; the detail adds up both.
 */
export function incompleteEmotionConsensus(
  emotion: IncompleteEmotionDetail | null,
  topic: IncompleteDetail | null,
): IncompleteRowDetail | null {
  if (!emotion) return topic;
  if (!topic) return emotion;
  return { ...topic, ...emotion, reason: `${emotion.reason}; ${topic.reason}` };
}
