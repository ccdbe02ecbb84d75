/**
 * The HTML that goes into a Mechanical Turk HIT: the study's guidelines, the dialogue and, for a
 * snippet, the questions. MTurk pastes input-CSV values into the template unescaped, so every
 * value here is markup we build, with every piece of dynamic text passed through escapeHtml.
 * Pure; the export (app/crowd-channels/mturk/export.server.ts) supplies the blinded task views.
 *
 * What differs by task type (its questions, its input-CSV columns) is in the type's folder
 * (app/task-types/<id>/hit-values.ts), built from the pieces here.
 */
import { parseMarkdown, type MdInline } from "../markdown.ts";

/**
 * Escapes text for HTML content and attribute values. `$` is escaped too, so no value (or
 * guideline) can ever read as a `${…}` placeholder to MTurk; the browser still shows "$".
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'$]/g, (c) => ESCAPES[c]);
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  $: "&#36;",
};

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
  topics: readonly {
    id: string;
    name: string;
    description: string;
    options: readonly { label: string; description: string }[];
  }[];
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
  const items = scenario.parties.map(
    (p, i) =>
      `  <li class="party-card party-${i % 4}"><strong>${escapeHtml(p.name)}</strong>${p.role ? ` — ${escapeHtml(p.role)}` : ""}</li>`,
  );
  return `<ul class="parties">\n${items.join("\n")}\n</ul>`;
}

/** Each topic with its lettered options, so the worker can answer by letter. */
export function renderTopics(scenario: HitScenario): string {
  return scenario.topics
    .map((topic) => {
      const options = topic.options
        .map((o) => `    <li><strong>${escapeHtml(o.label)}</strong>: ${escapeHtml(o.description)}</li>`)
        .join("\n");
      const description = topic.description ? `\n  <p>${escapeHtml(topic.description)}</p>` : "";
      return `<div class="topic">\n  <h3>${escapeHtml(topic.name)}</h3>${description}\n  <ul class="options">\n${options}\n  </ul>\n</div>`;
    })
    .join("\n");
}
