/**
 * What changed from one revision of a label to the next, in words, with the payload path of each
 * change (`topics.<topic>.score`, `topics.<topic>.positions.<party>`, `choice`, the same paths as
 * a label's validation problems) so a page can mark the changed answers.
 */
import type { AnswerSummary, TopicSummary } from "./summary.ts";
import { positionText } from "./summary.ts";

export interface RevisionChange {
  path: string;
  /** "Price: score 3 → 4", "Price, Ada: A · Keep → B · Cut", "Choice: A → B". */
  text: string;
}

const carried = (yes: boolean) => (yes ? "carried forward" : "not carried forward");

function topicChanges(before: TopicSummary, after: TopicSummary): RevisionChange[] {
  const base = `topics.${after.topicId}`;
  const changes: RevisionChange[] = [];
  if (before.score !== after.score) changes.push({ path: `${base}.score`, text: `${after.name}: score ${before.score} → ${after.score}` });
  if (before.carriedForward !== after.carriedForward) {
    changes.push({ path: `${base}.carriedForward`, text: `${after.name}: ${carried(before.carriedForward)} → ${carried(after.carriedForward)}` });
  }
  for (const position of after.positions) {
    const old = before.positions.find((p) => p.partyId === position.partyId);
    const from = old ? positionText(old) : "no answer";
    const to = positionText(position);
    if (from !== to) changes.push({ path: `${base}.positions.${position.partyId}`, text: `${after.name}, ${position.party}: ${from} → ${to}` });
  }
  return changes;
}

/** The changes from `before` to `after`; [] for a first revision (before = null) or an unchanged resubmit. */
export function revisionChanges(before: AnswerSummary | null, after: AnswerSummary): RevisionChange[] {
  if (before === null) return [];
  if (before.kind !== after.kind) return [{ path: "", text: "The answer was replaced" }];
  if (after.kind === "ab-reactiveness") {
    return before.kind === "ab-reactiveness" && before.choice !== after.choice ? [{ path: "choice", text: `Choice: conversation ${before.choice} → conversation ${after.choice}` }] : [];
  }
  if (before.kind !== "consensus-snippet") return [];
  return after.topics.flatMap((topic) => {
    const old = before.topics.find((t) => t.topicId === topic.topicId);
    return old ? topicChanges(old, topic) : [{ path: `topics.${topic.topicId}`, text: `${topic.name}: answered` }];
  });
}
