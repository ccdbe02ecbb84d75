/**
 * A consensus label in words (per topic its score and each party's position), what changed
 * between two revisions of one, and where a snippet sits ("Trajectory 2 · snippet 3 of 6").
 */
import { shorten, type PlaceItem, type RevisionChange, type SummaryScenario } from "../../domain/label-review/words.ts";
import { AGREEMENT_RUBRIC } from "../../domain/rubric.ts";
import { CONSENSUS_SNIPPET, POSITION_NOT_STATED, POSITION_UNCLEAR, type ConsensusLabel } from "./label.ts";

export interface PositionSummary {
  partyId: string;
  party: string;
  /** The option letter; null for "unclear" and "not stated". */
  letter: string | null;
  /** The option's text, shortened for a list. */
  text: string;
  /** The option's whole text, for a page with room for it. */
  fullText: string;
}

export interface TopicSummary {
  topicId: string;
  name: string;
  score: number;
  /** The rubric's name of the score: "Converging". */
  scoreLabel: string;
  carriedForward: boolean;
  positions: PositionSummary[];
}

export interface ConsensusSummary {
  kind: typeof CONSENSUS_SNIPPET;
  topics: TopicSummary[];
}

const SPECIAL_TEXT: Record<string, string> = { [POSITION_UNCLEAR]: "Unclear", [POSITION_NOT_STATED]: "Not stated" };

type PositionWords = Pick<PositionSummary, "letter" | "text" | "fullText">;

function positionSummary(
  position: string | undefined,
  options: SummaryScenario["topics"][number]["options"],
): PositionWords {
  const plain = (letter: string | null, text: string): PositionWords => ({ letter, text, fullText: text });
  if (position === undefined) return plain(null, "No answer");
  if (SPECIAL_TEXT[position]) return plain(null, SPECIAL_TEXT[position]);
  const option = options.find((o) => o.label === position);
  return option
    ? { letter: position, text: shorten(option.description), fullText: option.description }
    : plain(position, "Unknown option");
}

/** A consensus label in words: per topic answered, its score and each party's position. */
export function summariseConsensus(payload: ConsensusLabel, scenario: SummaryScenario): ConsensusSummary {
  const topics = scenario.topics
    .filter((topic) => payload.topics[topic.id] !== undefined)
    .map((topic) => {
      const entry = payload.topics[topic.id];
      return {
        topicId: topic.id,
        name: topic.name,
        score: entry.score,
        scoreLabel: AGREEMENT_RUBRIC.find((r) => r.score === entry.score)?.label ?? "",
        carriedForward: entry.carriedForward,
        positions: scenario.parties.map((party) => ({
          partyId: party.id,
          party: party.name,
          ...positionSummary(entry.positions[party.id], topic.options),
        })),
      };
    });
  return { kind: CONSENSUS_SNIPPET, topics };
}

/** A position as a list shows it: "A · Keep the current price" or "Unclear". */
export function positionText(position: Pick<PositionSummary, "letter" | "text">): string {
  return position.letter ? `${position.letter} · ${position.text}` : position.text;
}

const carried = (yes: boolean) => (yes ? "carried forward" : "not carried forward");

function topicChanges(before: TopicSummary, after: TopicSummary): RevisionChange[] {
  const base = `topics.${after.topicId}`;
  const changes: RevisionChange[] = [];
  if (before.score !== after.score)
    changes.push({ path: `${base}.score`, text: `${after.name}: score ${before.score} → ${after.score}` });
  if (before.carriedForward !== after.carriedForward) {
    changes.push({
      path: `${base}.carriedForward`,
      text: `${after.name}: ${carried(before.carriedForward)} → ${carried(after.carriedForward)}`,
    });
  }
  for (const position of after.positions) {
    const old = before.positions.find((p) => p.partyId === position.partyId);
    const from = old ? positionText(old) : "no answer";
    const to = positionText(position);
    if (from !== to)
      changes.push({
        path: `${base}.positions.${position.partyId}`,
        text: `${after.name}, ${position.party}: ${from} → ${to}`,
      });
  }
  return changes;
}

/** The changes from one consensus revision to the next, topic by topic. */
export function consensusChanges(before: ConsensusSummary, after: ConsensusSummary): RevisionChange[] {
  return after.topics.flatMap((topic) => {
    const old = before.topics.find((t) => t.topicId === topic.topicId);
    return old ? topicChanges(old, topic) : [{ path: `topics.${topic.topicId}`, text: `${topic.name}: answered` }];
  });
}

/**
 * The place of each snippet of a study (its consensus items, in study order). Trajectories are
 * numbered in the order the study first shows them; `snippetCounts` gives each one's snippets.
 */
export function consensusPlaces(
  items: readonly PlaceItem[],
  snippetCounts: ReadonlyMap<string, number>,
): Map<number, string> {
  const trajectories = new Map<string, number>();
  const places = new Map<number, string>();
  for (const item of items) {
    if (item.runId === null) continue;
    if (!trajectories.has(item.runId)) trajectories.set(item.runId, trajectories.size + 1);
    const of = snippetCounts.get(item.runId);
    places.set(
      item.itemId,
      `Trajectory ${trajectories.get(item.runId)} · snippet ${item.snippetPosition ?? "?"}${of ? ` of ${of}` : ""}`,
    );
  }
  return places;
}
