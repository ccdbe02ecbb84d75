/**
 * The task components in an MTurk preview (readOnly): the worker can read everything but every
 * control is disabled; without readOnly the web task is unchanged.
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AbTask } from "../../../app/task-types/ab-reactiveness/AbTask.tsx";
import { ConsensusTask } from "../../../app/task-types/consensus-snippet/ConsensusTask.tsx";
import { previousLabel, previousSnippet, scenario, snippet } from "../tasks/fixtures.ts";

const noop = () => {};

const consensus = (readOnly?: boolean) =>
  renderToString(
    createElement(ConsensusTask, {
      scenario,
      previousSnippet,
      snippet,
      previousLabel,
      initialLabel: null,
      progress: { done: 0, total: 1 },
      submitting: false,
      errors: [],
      onDraftChange: noop,
      onSubmit: noop,
      readOnly,
      submitText: readOnly === undefined ? undefined : "Submit to Mechanical Turk",
    }),
  ).replace(/<!-- -->/g, "");

const ab = (readOnly?: boolean) =>
  renderToString(
    createElement(AbTask, {
      conversationA: snippet,
      conversationB: previousSnippet,
      targetParty: { id: scenario.parties[0].id, name: scenario.parties[0].name },
      guidelinesMarkdown: "",
      progress: { done: 0, total: 1 },
      initialChoice: null,
      submitting: false,
      errors: [],
      onSubmit: noop,
      readOnly,
    }),
  ).replace(/<!-- -->/g, "");

/** Buttons (radios, carry-forward, submit) and whether each is disabled. */
function buttons(html: string): { text: string; disabled: boolean }[] {
  return [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({
    text: m[2].replace(/<[^>]+>/g, ""),
    disabled: /\sdisabled=""/.test(m[1]),
  }));
}

describe("task components in preview", () => {
  it("a read-only consensus task disables every answer control and the submit, but not the reading toggles", () => {
    const html = consensus(true);
    const all = buttons(html);
    const answers = all.filter((b) => /^[A-D]$|^Unclear$|^Not stated$|^[1-5]|carry forward|^Submit/.test(b.text));
    expect(answers.length).toBeGreaterThan(scenario.topics.length * 5);
    expect(answers.filter((b) => !b.disabled)).toEqual([]);
    expect(all.find((b) => b.text.startsWith("Scenario background"))?.disabled).toBe(false);
    expect(all.find((b) => b.text.startsWith("Keyboard shortcuts"))?.disabled).toBe(false);
    expect(html).toContain("Submit to Mechanical Turk");
  });

  it("without readOnly the consensus task is answerable as before", () => {
    const all = buttons(consensus());
    expect(all.filter((b) => /^[A-D]$|^[1-5]/.test(b.text)).every((b) => !b.disabled)).toBe(true);
    expect(all.find((b) => b.text.startsWith("Submit and next"))?.disabled).toBe(false);
  });

  it("a read-only A/B task disables both choices and the submit", () => {
    const choices = buttons(ab(true)).filter((b) => /^[AB] is more reactive|^Submit/.test(b.text));
    expect(choices.map((b) => [b.text.slice(0, 14), b.disabled])).toEqual([
      ["A is more reac", true],
      ["B is more reac", true],
      ["Submit and nex", true],
    ]);
    expect(
      buttons(ab())
        .filter((b) => /^[AB] is more reactive|^Submit/.test(b.text))
        .every((b) => !b.disabled),
    ).toBe(true);
  });
});
