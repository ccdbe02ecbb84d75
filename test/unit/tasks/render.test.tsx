import type { ReactElement } from "react";
import { renderToString as reactRenderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AbTask } from "../../../app/task-types/ab-reactiveness/AbTask.tsx";
import {
  CONSENSUS_SHORTCUTS,
  ConsensusTask,
  type ConsensusTaskProps,
} from "../../../app/task-types/consensus-snippet/ConsensusTask.tsx";
import { Markdown } from "../../../app/components/tasks/Markdown.tsx";
import { ShortcutCheatSheet } from "../../../app/components/tasks/ShortcutCheatSheet.tsx";
import { TaskProgress } from "../../../app/components/tasks/TaskProgress.tsx";
import type { TaskTurn } from "../../../app/task-types/task-view.ts";
import { AGREEMENT_RUBRIC } from "../../../app/domain/rubric.ts";
import { previousLabel, previousSnippet, scenario, snippet } from "./fixtures.ts";

const noop = () => {};
/** Server markup without React's text-node separators, so assertions read like the page. */
const renderToString = (element: ReactElement) => reactRenderToString(element).replace(/<!-- -->/g, "");
const consensusProps = (overrides: Partial<ConsensusTaskProps> = {}): ConsensusTaskProps => ({
  scenario,
  previousSnippet,
  snippet,
  previousLabel,
  initialLabel: null,
  progress: { done: 3, total: 10 },
  submitting: false,
  errors: [],
  onDraftChange: noop,
  onSubmit: noop,
  ...overrides,
});

/** The markup from a marker on (the caller cuts it where the element ends). */
function section(html: string, marker: string): string {
  const start = html.indexOf(marker);
  expect(start, `marker ${marker}`).toBeGreaterThanOrEqual(0);
  return html.slice(start);
}

function topicCard(html: string, topicId: string): string {
  const start = html.indexOf(`data-topic="${topicId}"`);
  expect(start, `topic ${topicId}`).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf("</fieldset>", start));
}

describe("ConsensusTask markup", () => {
  it("shows the scenario, every topic with its options, the dimmed preceding snippet and the snippet, mediator apart", () => {
    const html = renderToString(<ConsensusTask {...consensusProps()} />);
    expect(html).toContain("Orchard lease renewal");
    expect(html).toContain("Annual rent");
    expect(html).toContain("Lease length");
    expect(html).toContain("Rent tied to the harvest");
    expect(html).toContain("Ten years");
    const previous = section(html, 'aria-label="Preceding snippet (context only)"');
    expect(previous.slice(0, previous.indexOf("</ol>"))).toContain("Costs have risen");
    expect(html).toMatch(/class="dialogue task-dialogue dimmed" aria-label="Preceding snippet \(context only\)"/);
    expect(html).toMatch(/class="dialogue task-dialogue" aria-label="Snippet to label"/);
    expect(html).toMatch(/<li class="turn mediator" data-turn="4">/);
    // Parties keep the colour of their place in the scenario in both snippets.
    expect(html).toContain('class="turn party party-0" data-turn="1" data-speaker="OWNER"');
    expect(html).toContain('class="turn party party-1" data-turn="5" data-speaker="COOP"');
    // Not the first item: the background starts collapsed, behind a labelled toggle.
    expect(html).toMatch(/aria-expanded="false"[^>]*>Scenario background/);
  });

  it("offers each party every option plus Unclear and Not stated, and the 1–5 rubric as a radio group", () => {
    const html = renderToString(<ConsensusTask {...consensusProps()} />);
    const rent = topicCard(html, "RENT");
    expect(rent).toContain('aria-label="Wren Halloway&#x27;s position on Annual rent"');
    expect(rent).toContain('aria-label="Cider cooperative&#x27;s position on Annual rent"');
    expect(rent.match(/role="radiogroup"/g)).toHaveLength(3); // two parties + the score
    for (const label of [
      "Option A: Keep the current rent",
      "Option B: Raise it by a tenth",
      "Option C: Rent tied to the harvest",
    ]) {
      expect(rent.split(`aria-label="${label}"`)).toHaveLength(3); // once per party
    }
    expect(rent.split(">Unclear<")).toHaveLength(3);
    expect(rent.split(">Not stated<")).toHaveLength(3);
    for (const level of AGREEMENT_RUBRIC) {
      expect(rent).toContain(`aria-label="${level.score}: ${level.label}"`);
      expect(rent).toContain(level.description.replace(/'/g, "&#x27;"));
    }
    expect(topicCard(html, "TERM")).not.toContain("Option C");
  });

  it("disables carry-forward with a reason when there is no previous label, and enables it when there is", () => {
    const without = topicCard(renderToString(<ConsensusTask {...consensusProps({ previousLabel: null })} />), "RENT");
    expect(without).toMatch(
      /<button type="button"[^>]*aria-pressed="false"[^>]*disabled=""[^>]*>Not mentioned — carry forward/,
    );
    expect(without).toContain("Nothing to carry forward: you have no label on the preceding snippet");
    const withPrevious = topicCard(renderToString(<ConsensusTask {...consensusProps()} />), "RENT");
    expect(withPrevious).not.toMatch(/disabled=""[^>]*>Not mentioned/);
    expect(withPrevious).toContain("Copies your score (2) and positions from the preceding snippet.");
  });

  it("shows server errors next to the field their path names, and unplaced ones in the alert", () => {
    const html = renderToString(
      <ConsensusTask
        {...consensusProps({
          errors: [
            { path: "topics.TERM.positions.COOP", message: '"Z" is not an option of topic "TERM"' },
            { path: "topics.RENT.score", message: "a score is 1 to 5" },
            { path: "kind", message: "expected consensus" },
          ],
        })}
      />,
    );
    const term = topicCard(html, "TERM");
    const coopRow = term.slice(term.indexOf('data-party="COOP"'));
    expect(coopRow).toMatch(/aria-invalid="true"/);
    expect(coopRow).toContain('data-path="topics.TERM.positions.COOP"');
    expect(coopRow).toContain("&quot;Z&quot; is not an option of topic &quot;TERM&quot;");
    expect(term.slice(0, term.indexOf('data-party="COOP"'))).not.toContain("is not an option");
    const rent = topicCard(html, "RENT");
    expect(rent).toContain('data-path="topics.RENT.score"');
    expect(rent).toContain("a score is 1 to 5");
    const alert = section(html, 'role="alert"');
    expect(alert.slice(0, alert.indexOf("</div>"))).toContain("<li>The kind of answer: expected consensus");
  });

  it("restores a saved label into the controls", () => {
    const html = renderToString(
      <ConsensusTask
        {...consensusProps({
          initialLabel: {
            kind: "consensus-snippet",
            topics: { RENT: { score: 3, carriedForward: false, positions: { OWNER: "C" } } },
          },
        })}
      />,
    );
    const rent = topicCard(html, "RENT");
    expect(rent).toMatch(/aria-checked="true"[^>]*data-state="checked"[^>]*aria-label="3: /);
    expect(rent).toMatch(/aria-checked="true"[^>]*data-state="checked"[^>]*aria-label="Option C: /);
    expect(html).toContain("0 of 2 topics complete");
  });

  it("opens the background on the first item and shows progress without a timer", () => {
    const html = renderToString(<ConsensusTask {...consensusProps({ progress: { done: 0, total: 12 } })} />);
    expect(html).toMatch(/aria-expanded="true"[^>]*>Scenario background/);
    expect(html).toContain('aria-valuenow="0"');
    expect(html).toContain("0 of 12 done");
    expect(html).not.toMatch(/seconds|timer|\d+:\d\d/i);
  });

  it("renders guidelines through the safe Markdown renderer only when given", () => {
    expect(renderToString(<ConsensusTask {...consensusProps()} />)).not.toContain("Guidelines");
    const html = renderToString(
      <ConsensusTask {...consensusProps({ guidelinesMarkdown: "# Rules\n\nRate **each** topic." })} />,
    );
    expect(html).toContain("<h3>Rules</h3>");
    expect(html).toContain("Rate <strong>each</strong> topic.");
  });
});

describe("AbTask markup", () => {
  const side = (speaker: "OWNER" | "COOP", text: string, turnId: number): TaskTurn => ({
    turnId,
    speakerId: speaker,
    speakerName: speaker === "OWNER" ? "Wren Halloway" : "Cider cooperative",
    isMediator: false,
    utterance: text,
  });
  const conversationA = [
    side("OWNER", "This is outrageous, I won't be lectured!", 1),
    side("COOP", "Let us calm down.", 2),
  ];
  const conversationB = [side("OWNER", "I hear you; let us look at the numbers.", 1), side("COOP", "Thank you.", 2)];
  const render = (overrides: Partial<Parameters<typeof AbTask>[0]> = {}) =>
    renderToString(
      <AbTask
        conversationA={conversationA}
        conversationB={conversationB}
        targetParty={{ id: "OWNER", name: "Wren Halloway" }}
        guidelinesMarkdown={"## Composed or reactive\n\n- *Reactive*: escalates quickly\n- [more](javascript:alert(1))"}
        progress={{ done: 1, total: 20 }}
        initialChoice={null}
        submitting={false}
        errors={[]}
        onSubmit={noop}
        {...overrides}
      />,
    );

  it("shows both conversations with the target party's turns highlighted in each", () => {
    const html = render();
    const a = section(html, 'data-side="A"');
    const b = section(html, 'data-side="B"');
    expect(a.slice(0, a.indexOf("</section>"))).toContain("This is outrageous");
    expect(b.slice(0, b.indexOf("</section>"))).toContain("let us look at the numbers");
    expect(html.match(/class="turn party party-0 target" data-turn="1" data-speaker="OWNER"/g)).toHaveLength(2);
    expect(html).toContain('class="turn party party-1" data-turn="2" data-speaker="COOP"');
    expect(html.match(/target party<\/span>/g)).toHaveLength(2);
  });

  it("renders the A/B choice as a radio group, guidelines collapsed after the first item, unsafe links as text", () => {
    const html = render({ initialChoice: "B" });
    expect(html).toMatch(/role="radiogroup"/);
    expect(html).toMatch(/aria-checked="true"[^>]*data-state="checked"[^>]*>B is more reactive/);
    expect(html).toMatch(/aria-expanded="false"[^>]*>Guidelines: composed or reactive\?/);
    expect(html).toContain("<em>Reactive</em>: escalates quickly");
    expect(html).not.toContain("javascript:");
    expect(html).toContain("<li>more</li>");
  });

  it("shows a server error on the choice and the rest in the alert", () => {
    const html = render({
      errors: [
        { path: "choice", message: "choose A or B" },
        { path: "payload", message: "not JSON" },
      ],
    });
    expect(html).toMatch(/class="field-error" id="[^"]+" data-path="choice"><p>choose A or B<\/p>/);
    // In words, not as a field path.
    expect(html).toContain("<li>Your answer: not JSON.</li>");
    expect(html).not.toContain("<code>payload</code>");
  });
});

describe("small components", () => {
  it("Markdown never emits raw HTML from its source", () => {
    const html = renderToString(
      <Markdown source={'<script>alert("x")</script>\n\n[ok](https://example.org) [bad](javascript:alert(1))'} />,
    );
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).not.toContain("<script");
    expect(html).toContain('<a href="https://example.org/" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(html).toContain(" bad</p>");
  });

  it("the cheat sheet lists every consensus shortcut from the shared table", () => {
    const html = renderToString(<ShortcutCheatSheet open onClose={noop} shortcuts={CONSENSUS_SHORTCUTS} />);
    expect(html).toContain('role="dialog"');
    for (const shortcut of CONSENSUS_SHORTCUTS) expect(html).toContain(shortcut.description.replace(/'/g, "&#x27;"));
    expect(html).toContain("<kbd>1–5</kbd>");
    expect(html).toContain("<kbd>a–h</kbd>");
    expect(html).toContain("<kbd>Ctrl/⌘ + Enter</kbd>");
    expect(renderToString(<ShortcutCheatSheet open={false} onClose={noop} shortcuts={CONSENSUS_SHORTCUTS} />)).toBe("");
  });

  it("TaskProgress clamps and reports done of total", () => {
    const html = renderToString(<TaskProgress progress={{ done: 15, total: 10 }} />);
    expect(html).toContain('aria-valuenow="10"');
    expect(html).toContain("width:100%");
  });
});
