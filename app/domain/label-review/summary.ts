/**
 * What an annotator answered, in words: the answer summary My labels shows per row and a label's
 * history shows per revision. Topic and party ids are kept only to match revisions up; the pages
 * show names, option letters and option text.
 */
import { POSITION_NOT_STATED, POSITION_UNCLEAR, type LabelPayload } from "../labels.ts";
import { AGREEMENT_RUBRIC } from "../rubric.ts";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET } from "../tasks/ids.ts";

/** The blinded scenario a summary is worded from (a subset of the task page's TaskScenario). */
export interface SummaryScenario {
  topics: readonly { id: string; name: string; options: readonly { label: string; description: string }[] }[];
  parties: readonly { id: string; name: string }[];
}

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

export interface AbSummary {
  kind: typeof AB_REACTIVENESS;
  choice: "A" | "B";
  /** "Conversation A: Bob is the more reactive negotiator". */
  text: string;
}

export type AnswerSummary = ConsensusSummary | AbSummary;

/** Longest option text shown before it is cut with an ellipsis. */
export const OPTION_TEXT_LIMIT = 40;

const SPECIAL_TEXT: Record<string, string> = { [POSITION_UNCLEAR]: "Unclear", [POSITION_NOT_STATED]: "Not stated" };

/** Cuts text to `limit` characters at a word boundary where one is near, adding "…". */
export function shorten(text: string, limit = OPTION_TEXT_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}

type PositionWords = Pick<PositionSummary, "letter" | "text" | "fullText">;

function positionSummary(position: string | undefined, options: SummaryScenario["topics"][number]["options"]): PositionWords {
  const plain = (letter: string | null, text: string): PositionWords => ({ letter, text, fullText: text });
  if (position === undefined) return plain(null, "No answer");
  if (SPECIAL_TEXT[position]) return plain(null, SPECIAL_TEXT[position]);
  const option = options.find((o) => o.label === position);
  return option ? { letter: position, text: shorten(option.description), fullText: option.description } : plain(position, "Unknown option");
}

/** A consensus or A/B label in words; `targetParty` names the A/B pair's party (unused for consensus). */
export function summariseAnswer(payload: LabelPayload, scenario: SummaryScenario, targetParty = "the highlighted party"): AnswerSummary {
  if (payload.kind === AB_REACTIVENESS) {
    return { kind: AB_REACTIVENESS, choice: payload.choice, text: `Conversation ${payload.choice}: ${targetParty} is the more reactive negotiator` };
  }
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
        positions: scenario.parties.map((party) => ({ partyId: party.id, party: party.name, ...positionSummary(entry.positions[party.id], topic.options) })),
      };
    });
  return { kind: CONSENSUS_SNIPPET, topics };
}

/** A position as a list shows it: "A · Keep the current price" or "Unclear". */
export function positionText(position: Pick<PositionSummary, "letter" | "text">): string {
  return position.letter ? `${position.letter} · ${position.text}` : position.text;
}
