/**
 * Labels given faster than a study's minimum seconds on task (issue 28): a label submitted a
 * moment after its item appeared was hardly read, and alpha and alignment would count it like any
 * other. The dashboard lists them per annotator beside gold accuracy and can leave them out.
 * A label's time is the sum over its revisions (as stored with each submit); a label without a
 * measured time (an imported one) is never called fast.
 */

export interface TimedLabel {
  labelId: number;
  itemId: number;
  annotatorId: string;
  secondsOnTask: number | null;
}

export interface FastAnnotator {
  annotatorId: string;
  /** Their labels under the minimum. */
  fast: number;
  /** Their labels with a measured time (the share's denominator). */
  timed: number;
  /** Their quickest label's seconds. */
  fastestSeconds: number;
}

export interface FastLabels {
  minSeconds: number;
  /** The fast labels, quickest first (then by label id), for the dashboard's list. */
  labels: TimedLabel[];
  /** Annotators with at least one fast label, most fast labels first (then by id). */
  annotators: FastAnnotator[];
}

/** True when the label has a measured time below `minSeconds`. */
export function isFastLabel(label: Pick<TimedLabel, "secondsOnTask">, minSeconds: number): boolean {
  return label.secondsOnTask !== null && label.secondsOnTask < minSeconds;
}

/** The labels under `minSeconds` (≥ 0; 0 calls none fast) and who gave them. */
export function fastLabels(labels: readonly TimedLabel[], minSeconds: number): FastLabels {
  if (!(minSeconds >= 0)) throw new RangeError(`minSeconds must be a number ≥ 0, got ${minSeconds}`);
  const fast = labels
    .filter((l) => isFastLabel(l, minSeconds))
    .map((l) => ({ labelId: l.labelId, itemId: l.itemId, annotatorId: l.annotatorId, secondsOnTask: l.secondsOnTask }));
  fast.sort((a, b) => (a.secondsOnTask as number) - (b.secondsOnTask as number) || a.labelId - b.labelId);
  const byAnnotator = new Map<string, FastAnnotator>();
  for (const label of fast) {
    const entry = byAnnotator.get(label.annotatorId) ?? {
      annotatorId: label.annotatorId,
      fast: 0,
      timed: 0,
      fastestSeconds: label.secondsOnTask as number,
    };
    entry.fast++;
    byAnnotator.set(label.annotatorId, entry);
  }
  for (const label of labels) {
    const entry = byAnnotator.get(label.annotatorId);
    if (entry && label.secondsOnTask !== null) entry.timed++;
  }
  const annotators = [...byAnnotator.values()].sort(
    (a, b) => b.fast - a.fast || (a.annotatorId < b.annotatorId ? -1 : a.annotatorId > b.annotatorId ? 1 : 0),
  );
  return { minSeconds, labels: fast, annotators };
}

/** `labels` without the fast ones (by label id), for statistics that leave them out. */
export function withoutFast<L extends { labelId: number }>(labels: readonly L[], fast: FastLabels): L[] {
  const ids = new Set(fast.labels.map((l) => l.labelId));
  return labels.filter((l) => !ids.has(l.labelId));
}
