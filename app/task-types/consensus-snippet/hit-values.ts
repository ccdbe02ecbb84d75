/** A snippet consensus HIT's input-CSV values: the scenario, the snippet (and the one before), the questions. */
import {
  escapeHtml,
  renderDialogue,
  renderParties,
  renderTopics,
  textToHtml,
  type HitScenario,
  type HitTurn,
} from "../../domain/crowd/hit-render.ts";
import { AGREEMENT_RUBRIC } from "../../domain/rubric.ts";
import { CROWD_SPECIAL_POSITIONS, positionField, scoreField } from "./answer-fields.ts";
import { POSITION_NOT_STATED, POSITION_UNCLEAR } from "./label.ts";

const SPECIAL_POSITION_TEXT: Record<(typeof CROWD_SPECIAL_POSITIONS)[number], string> = {
  [POSITION_UNCLEAR]: "unclear",
  [POSITION_NOT_STATED]: "not stated",
};

function radioButton(name: string, value: string, text: string, title?: string): string {
  const hint = title ? ` title="${escapeHtml(title)}"` : "";
  return `<crowd-radio-button name="${escapeHtml(name)}" value="${escapeHtml(value)}"${hint}>${text}</crowd-radio-button>`;
}

/**
 * Per topic: one row of position buttons per party (the topic's option letters, unclear, not
 * stated) and one row of 1–5 agreement scores with the rubric's short labels. Each button's name
 * is its answer (answer-fields.ts); each crowd-radio-group is one question the worker must answer.
 */
export function renderConsensusQuestions(scenario: HitScenario): string {
  return scenario.topics
    .map((topic, t) => {
      const positions = scenario.parties.map((party) => {
        const buttons = [
          ...topic.options.map((o) =>
            radioButton(positionField(topic.id, party.id, o.label), o.label, escapeHtml(o.label), o.description),
          ),
          ...CROWD_SPECIAL_POSITIONS.map((s) =>
            radioButton(positionField(topic.id, party.id, s), s, SPECIAL_POSITION_TEXT[s]),
          ),
        ];
        return `    <div class="question-row">\n      <p class="question-label">${escapeHtml(party.name)}</p>\n      <crowd-radio-group>\n        ${buttons.join("\n        ")}\n      </crowd-radio-group>\n    </div>`;
      });
      const scores = AGREEMENT_RUBRIC.map((level) =>
        radioButton(
          scoreField(topic.id, level.score),
          String(level.score),
          `${level.score} — ${escapeHtml(level.label)}`,
          level.description,
        ),
      );
      return [
        `<div class="topic-questions">`,
        `  <h3>Topic ${t + 1} of ${scenario.topics.length}: ${escapeHtml(topic.name)}</h3>`,
        `  <p>Where does each party stand on this topic at the end of the snippet?</p>`,
        `  <div class="positions">`,
        ...positions,
        `  </div>`,
        `  <p>How close are the parties to agreeing on this topic at the end of the snippet?</p>`,
        `  <crowd-radio-group>\n    ${scores.join("\n    ")}\n  </crowd-radio-group>`,
        `</div>`,
      ].join("\n");
    })
    .join("\n");
}

/** The input-CSV columns of the snippet consensus template. */
export const CONSENSUS_VARIABLES = [
  "study_id",
  "item_id",
  "scenario_title",
  "background_html",
  "parties_html",
  "topics_html",
  "previous_html",
  "snippet_html",
  "questions_html",
] as const;
export type ConsensusVariable = (typeof CONSENSUS_VARIABLES)[number];

export interface ConsensusHitInput {
  studyId: number;
  itemId: number;
  scenario: HitScenario;
  previousSnippet: readonly HitTurn[] | null;
  snippet: readonly HitTurn[];
}

/** One HIT's values for the consensus template; every value is safe HTML. */
export function consensusHitValues(input: ConsensusHitInput): Record<ConsensusVariable, string> {
  const partyOrder = input.scenario.parties.map((p) => p.id);
  // The preceding snippet is context only (dimmed); on a conversation's first snippet, say so instead.
  const previous = input.previousSnippet?.length
    ? `<section class="previous">\n<h2>Just before (context only, do not rate)</h2>\n${renderDialogue(input.previousSnippet, { partyOrder, dimmed: true })}\n</section>`
    : `<p class="first-snippet">This snippet opens the conversation: nothing was said before it.</p>`;
  return {
    study_id: String(input.studyId),
    item_id: String(input.itemId),
    scenario_title: escapeHtml(input.scenario.title),
    background_html: textToHtml(input.scenario.background),
    parties_html: renderParties(input.scenario),
    topics_html: renderTopics(input.scenario),
    previous_html: previous,
    snippet_html: renderDialogue(input.snippet, { partyOrder }),
    questions_html: renderConsensusQuestions(input.scenario),
  };
}
