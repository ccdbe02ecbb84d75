/**
 * Human-scale quantities per run (issue 33; docs/metrics.md "Human-scale quantities"): what a
 * run's snippet scores determine, read the same way from the experts' mean scores and from the
 * judge's s[k][t_end], so the two are comparable on one 0–1 scale.
 *
 * - outcome: C at the run's final snippet, mean over its topics of (score − 1) / 4;
 * - trajectory: the mean of C over the run's snippets.
 * A run whose scores are incomplete (a topic of a needed snippet without a value, or its final
 * snippet not among the items) has null for that quantity: counted, never imputed.
 */
import type { AlignmentItem } from "../validation/alignment-table.ts";

export const RUN_QUANTITIES = ["outcome", "trajectory"] as const;
export type RunQuantity = (typeof RUN_QUANTITIES)[number];

export type RunValues = Record<RunQuantity, number | null>;

/** A score on 1–5 for (run, snippet position, topic), null when there is none. */
export type SnippetScore = (item: AlignmentItem, topicId: string) => number | null;

/** C at one snippet: the mean of (score − 1) / 4 over its topics; null if any topic has no score. */
function snippetConsensus(item: AlignmentItem, score: SnippetScore): number | null {
  if (item.topicIds.length === 0) return null;
  let sum = 0;
  for (const topic of item.topicIds) {
    const s = score(item, topic);
    if (s === null) return null;
    sum += (s - 1) / 4;
  }
  return sum / item.topicIds.length;
}

/** Every run's quantities from its (non-gold) snippet items, keyed by run id. */
export function runQuantities(items: readonly AlignmentItem[], score: SnippetScore): Map<string, RunValues> {
  const byRun = new Map<string, AlignmentItem[]>();
  for (const item of items) {
    if (item.isGold) continue;
    const list = byRun.get(item.runId) ?? [];
    list.push(item);
    byRun.set(item.runId, list);
  }
  const out = new Map<string, RunValues>();
  for (const [runId, list] of byRun) {
    list.sort((a, b) => a.snippetPosition - b.snippetPosition);
    const values = list.map((item) => snippetConsensus(item, score));
    const last = list[list.length - 1];
    // Positions 1..S with no gap: every snippet of the run is present.
    const whole = last.isLastSnippet && list.every((item, i) => item.snippetPosition === i + 1);
    const outcome = last.isLastSnippet ? values[values.length - 1] : null;
    const trajectory =
      whole && values.every((v) => v !== null) ? values.reduce((s, v) => s + (v as number), 0) / values.length : null;
    out.set(runId, { outcome, trajectory });
  }
  return out;
}
