/**
 * The HTML that goes into a Mechanical Turk HIT: the study's guidelines, the dialogue and, for a
 * snippet, the questions. MTurk pastes input-CSV values into the template unescaped, so every
 * value here is markup we build, with every piece of dynamic text passed through escapeHtml.
 * Pure; the export (app/crowd-channels/mturk/export.server.ts) supplies the blinded task views.
 *
 * The radio buttons are named by answer-fields.ts, which the results import reads back.
 */
import { parseMarkdown, type MdInline } from "../markdown.ts";
import { POSITION_NOT_STATED, POSITION_UNCLEAR } from "../labels.ts";
import { AGREEMENT_RUBRIC } from "../rubric.ts";
import { CROWD_SPECIAL_POSITIONS, positionField, scoreField } from "./answer-fields.ts";

/**
 * Escapes text for HTML content and attribute values. `$` is escaped too, so no value (or
 * guideline) can ever read as a `${…}` placeholder to MTurk; the browser still shows "$".
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'$]/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", $: "&#36;" };

/** Plain text as paragraphs: a blank line starts a new one, a single line break stays a break. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.split("\n").map(escapeHtml).join("<br>")}</p>`)
    .join("\n");
}

function inlineToHtml(nodes: readonly MdInline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
          return escapeHtml(node.text);
        case "code":
          return `<code>${escapeHtml(node.text)}</code>`;
        case "strong":
          return `<strong>${inlineToHtml(node.children)}</strong>`;
        case "em":
          return `<em>${inlineToHtml(node.children)}</em>`;
        case "link":
          // A new tab, so following a link never loses the worker's answers.
          return `<a href="${escapeHtml(node.href)}" target="_blank" rel="noopener noreferrer">${inlineToHtml(node.children)}</a>`;
      }
    })
    .join("");
}

/**
 * Guideline Markdown (the subset of app/domain/markdown.ts, as the web task shows it) as HTML.
 * `headingOffset` moves a guideline's "#" below the HIT's own headings.
 */
export function markdownToHtml(source: string, headingOffset = 1): string {
  return parseMarkdown(source)
    .map((block) => {
      switch (block.type) {
        case "heading": {
          const level = Math.min(6, block.level + headingOffset);
          return `<h${level}>${inlineToHtml(block.children)}</h${level}>`;
        }
        case "paragraph":
          return `<p>${inlineToHtml(block.children)}</p>`;
        case "list": {
          const items = block.items.map((item) => `  <li>${inlineToHtml(item)}</li>`).join("\n");
          if (!block.ordered) return `<ul>\n${items}\n</ul>`;
          return `<ol${block.start === 1 ? "" : ` start="${block.start}"`}>\n${items}\n</ol>`;
        }
      }
    })
    .join("\n");
}

/** A turn as the blinded task view gives it (same shape as the web task's TaskTurn). */
export interface HitTurn {
  turnId: number;
  speakerId: string;
  speakerName: string;
  isMediator: boolean;
  utterance: string;
}

/** The blinded scenario: names and roles of the parties, never their private preferences. */
export interface HitScenario {
  title: string;
  background: string;
  topics: readonly { id: string; name: string; description: string; options: readonly { label: string; description: string }[] }[];
  parties: readonly { id: string; name: string; role: string }[];
}

export interface DialogueOptions {
  /** Party ids in scenario order; a party's index picks its colour. */
  partyOrder: readonly string[];
  dimmed?: boolean;
  /** The A/B task's party to judge: its turns are highlighted and badged. */
  targetPartyId?: string | null;
}

/** Turns as a list: parties colour-coded, the mediator set apart, the target party (if any) marked. */
export function renderDialogue(turns: readonly HitTurn[], options: DialogueOptions): string {
  const items = turns.map((turn) => {
    const text = textToHtml(turn.utterance) || "<p></p>";
    const number = `<span class="turn-no">${turn.turnId}</span>`;
    if (turn.isMediator) {
      return `  <li class="turn mediator">\n    <div class="turn-meta">${number} <span class="speaker">${escapeHtml(turn.speakerName)}</span></div>\n    ${text}\n  </li>`;
    }
    const index = Math.max(0, options.partyOrder.indexOf(turn.speakerId));
    const target = options.targetPartyId != null && turn.speakerId === options.targetPartyId;
    const badge = target ? ' <span class="target-badge">the person to judge</span>' : "";
    return `  <li class="turn party party-${index % 4}${target ? " target" : ""}">\n    <div class="turn-meta">${number} <span class="speaker">${escapeHtml(turn.speakerName)}</span>${badge}</div>\n    ${text}\n  </li>`;
  });
  return `<ol class="dialogue${options.dimmed ? " dimmed" : ""}">\n${items.join("\n")}\n</ol>`;
}

/** The parties, by name and public role. */
export function renderParties(scenario: HitScenario): string {
  const items = scenario.parties.map((p, i) => `  <li class="party-card party-${i % 4}"><strong>${escapeHtml(p.name)}</strong>${p.role ? ` — ${escapeHtml(p.role)}` : ""}</li>`);
  return `<ul class="parties">\n${items.join("\n")}\n</ul>`;
}

/** Each topic with its lettered options, so the worker can answer by letter. */
export function renderTopics(scenario: HitScenario): string {
  return scenario.topics
    .map((topic) => {
      const options = topic.options.map((o) => `    <li><strong>${escapeHtml(o.label)}</strong>: ${escapeHtml(o.description)}</li>`).join("\n");
      const description = topic.description ? `\n  <p>${escapeHtml(topic.description)}</p>` : "";
      return `<div class="topic">\n  <h3>${escapeHtml(topic.name)}</h3>${description}\n  <ul class="options">\n${options}\n  </ul>\n</div>`;
    })
    .join("\n");
}

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
          ...topic.options.map((o) => radioButton(positionField(topic.id, party.id, o.label), o.label, escapeHtml(o.label), o.description)),
          ...CROWD_SPECIAL_POSITIONS.map((s) => radioButton(positionField(topic.id, party.id, s), s, SPECIAL_POSITION_TEXT[s])),
        ];
        return `    <div class="question-row">\n      <p class="question-label">${escapeHtml(party.name)}</p>\n      <crowd-radio-group>\n        ${buttons.join("\n        ")}\n      </crowd-radio-group>\n    </div>`;
      });
      const scores = AGREEMENT_RUBRIC.map((level) => radioButton(scoreField(topic.id, level.score), String(level.score), `${level.score} — ${escapeHtml(level.label)}`, level.description));
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
export const CONSENSUS_VARIABLES = ["study_id", "item_id", "scenario_title", "background_html", "parties_html", "topics_html", "previous_html", "snippet_html", "questions_html"] as const;
/** The input-CSV columns of the A/B reactiveness template. */
export const AB_VARIABLES = ["study_id", "item_id", "target_party", "conversation_a_html", "conversation_b_html"] as const;

export type ConsensusVariable = (typeof CONSENSUS_VARIABLES)[number];
export type AbVariable = (typeof AB_VARIABLES)[number];

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

export interface AbHitInput {
  studyId: number;
  itemId: number;
  scenario: HitScenario;
  targetParty: { id: string; name: string };
  conversationA: readonly HitTurn[];
  conversationB: readonly HitTurn[];
}

/** One HIT's values for the A/B template; every value is safe HTML. */
export function abHitValues(input: AbHitInput): Record<AbVariable, string> {
  const partyOrder = input.scenario.parties.map((p) => p.id);
  const dialogue = (turns: readonly HitTurn[]) => renderDialogue(turns, { partyOrder, targetPartyId: input.targetParty.id });
  return {
    study_id: String(input.studyId),
    item_id: String(input.itemId),
    target_party: escapeHtml(input.targetParty.name),
    conversation_a_html: dialogue(input.conversationA),
    conversation_b_html: dialogue(input.conversationB),
  };
}
