/**
 * What an annotator submits for a snippet consensus item, as validated on the server: per topic a
 * 1–5 score and each party's position. The id is the study type, the item kind and the payload's
 * `kind` alike (and the name of this folder).
 */
import { z } from "zod";
import type { Party, Topic } from "../../domain/bundle.ts";
import type { LabelProblem } from "../task-type.ts";

export const CONSENSUS_SNIPPET = "consensus-snippet" as const;

/** Positions besides a topic's option labels. */
export const POSITION_UNCLEAR = "unclear";
export const POSITION_NOT_STATED = "not-stated";
export const SPECIAL_POSITIONS = [POSITION_UNCLEAR, POSITION_NOT_STATED] as const;

export const AGREEMENT_SCORES = [1, 2, 3, 4, 5] as const;

export const consensusTopicLabelSchema = z
  .object({
    /** 1 = far apart … 5 = full agreement on this topic. */
    score: z.number().int("a score is a whole number").min(1, "a score is 1 to 5").max(5, "a score is 1 to 5"),
    /** True when the topic is not mentioned in the snippet and the score carries forward. */
    carriedForward: z.boolean(),
    /** Party id → an option label of the topic, "unclear" or "not-stated". */
    positions: z.record(z.string(), z.string()),
  })
  .strict();

export const consensusLabelSchema = z
  .object({
    kind: z.literal(CONSENSUS_SNIPPET),
    topics: z.record(z.string(), consensusTopicLabelSchema),
  })
  .strict();

export type ConsensusLabel = z.infer<typeof consensusLabelSchema>;

/**
 * Checks a consensus label against the scenario it labels: every topic present, no unknown
 * topic or party, every party's position a valid option label or special value. Carried-forward
 * scores are checked against the annotator's previous snippet label when there is one.
 */
export function checkConsensusLabel(
  label: ConsensusLabel,
  scenario: { topics: readonly Topic[]; parties: readonly Pick<Party, "id">[] },
  previous: ConsensusLabel | null,
): LabelProblem[] {
  const problems: LabelProblem[] = [];
  const topicIds = scenario.topics.map((t) => t.id);
  const partyIds = scenario.parties.map((p) => p.id);
  for (const key of Object.keys(label.topics)) {
    if (!topicIds.includes(key)) problems.push({ path: `topics.${key}`, message: `unknown topic "${key}"` });
  }
  for (const topic of scenario.topics) {
    const entry = label.topics[topic.id];
    if (!entry) {
      problems.push({ path: `topics.${topic.id}`, message: `topic "${topic.id}" (${topic.name}) has no label` });
      continue;
    }
    const options = topic.options.map((o) => o.label);
    for (const key of Object.keys(entry.positions)) {
      if (!partyIds.includes(key))
        problems.push({ path: `topics.${topic.id}.positions.${key}`, message: `unknown party "${key}"` });
    }
    for (const partyId of partyIds) {
      const position = entry.positions[partyId];
      const path = `topics.${topic.id}.positions.${partyId}`;
      if (position === undefined) problems.push({ path, message: `no position for party "${partyId}"` });
      else if (!options.includes(position) && !(SPECIAL_POSITIONS as readonly string[]).includes(position)) {
        problems.push({
          path,
          message: `"${position}" is not an option of topic "${topic.id}" (${[...options, ...SPECIAL_POSITIONS].join(", ")})`,
        });
      }
    }
    if (entry.carriedForward) {
      const before = previous?.topics[topic.id];
      if (!before) {
        problems.push({
          path: `topics.${topic.id}.carriedForward`,
          message: "nothing to carry forward: there is no label of yours on the preceding snippet",
        });
      } else if (before.score !== entry.score) {
        problems.push({
          path: `topics.${topic.id}.score`,
          message: `a carried-forward score must equal your preceding score ${before.score}, got ${entry.score}`,
        });
      }
    }
  }
  return problems;
}
