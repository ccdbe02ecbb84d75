/**
 * The social mediator's templates: the generic ones' placeholders and replies, its own words, and the stand-in answers
 * them.
 */
import { describe, expect, it } from "vitest";
import { loadTemplate } from "../../../app/server/pipeline/prompt-templates.server.ts";
import {
  simulationPromptsFor,
  simulationTemplatesFor,
} from "../../../app/server/pipeline/simulation-prompts.server.ts";
import { syntheticCatalog } from "../../../bench/synthetic-bundle.ts";
import { mediatorView } from "../../../app/domain/visibility.ts";
import { mediator } from "../../../app/llm-roles/mediator/stand-in.ts";
import type { MockChatRequest } from "../../../app/llm-roles/stand-in-request.ts";

const placeholders = (name: string) => [...new Set(loadTemplate(name).match(/\{\{\w+\}\}/g))].sort();

describe("social mediator prompts", () => {
  it("use the generic templates' placeholders and reply shapes in their own words", () => {
    expect(simulationTemplatesFor("social")).toEqual(["party", "mediator-when-social", "mediator-how-social"]);
    for (const kind of ["when", "how"]) {
      expect(placeholders(`mediator-${kind}-social`)).toEqual(placeholders(`mediator-${kind}`));
      expect(loadTemplate(`mediator-${kind}-social`)).not.toBe(loadTemplate(`mediator-${kind}`));
    }
    expect(loadTemplate("mediator-when-social")).toContain('{"should_engage": true | false');
    expect(loadTemplate("mediator-how-social")).toContain('{"utterance":');
  });

  it("are named in their requests, and the stand-in mediator answers them whatever the model is called", () => {
    const scenario = syntheticCatalog(1, "s").scenarios[0];
    const view = mediatorView({ background: scenario.background, topics: scenario.topics, parties: scenario.parties }, [
      {
        turn_id: 1,
        speaker: "P1",
        role: "party",
        utterance: "We want option A on everything.",
        thought: "private",
        signal: "continue",
      },
    ]);
    const prompts = simulationPromptsFor("social");
    const when = prompts.mediatorWhen(view);
    const how = prompts.mediatorHow(view, "tempers are rising");
    expect(when[0].content).toContain("four kinds of trouble");
    expect(prompts.templates).toMatchObject({
      mediatorWhen: "mediator-when-social",
      mediatorHow: "mediator-how-social",
    });
    const ask = (messages: typeof when, template: string): Record<string, unknown> => {
      const request = { model: "any-model", messages, llmRole: "mediator", template } as MockChatRequest;
      return mediator.standIn(request) as Record<string, unknown>;
    };
    expect(typeof ask(when, prompts.templates.mediatorWhen).should_engage).toBe("boolean");
    expect(ask(how, prompts.templates.mediatorHow).utterance).toMatch(/^Let me suggest a package/);
  });
});
