/**
 * The mediator modes' templates: the social mediator's six steps and the naive mediator's two, each in its own words
 * with its own placeholders, named in its requests, and answered by the stand-in with a reply its schema accepts.
 */
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { loadTemplate } from "../../../app/server/pipeline/prompt-templates.server.ts";
import {
  simulationPromptsFor,
  simulationTemplatesFor,
} from "../../../app/server/pipeline/simulation-prompts.server.ts";
import { syntheticCatalog } from "../../../bench/synthetic-bundle.ts";
import { mediatorView } from "../../../app/domain/visibility.ts";
import { mediator } from "../../../app/llm-roles/mediator/stand-in.ts";
import {
  mediatorCandidatesReplySchema,
  mediatorHowReplySchema,
  mediatorMotivationReplySchema,
  mediatorRatingReplySchema,
  mediatorTrackerReplySchema,
  mediatorWhenReplySchema,
} from "../../../app/llm-roles/mediator/reply.ts";
import {
  candidateValues,
  closeValues,
  draftValues,
  initialTracker,
  trackerValues,
  whenSocialValues,
  type SocialContext,
} from "../../../app/domain/prompts/social-mediator-values.ts";
import { SOCIAL_TEMPLATES, type SocialStep } from "../../../app/domain/simulation/social-mediator.ts";
import type { ChatMessage } from "../../../app/domain/llm/types.ts";
import type { MockChatRequest } from "../../../app/llm-roles/stand-in-request.ts";

const placeholders = (name: string) => [...new Set(loadTemplate(name).match(/\{\{\w+\}\}/g))].sort();
const SHARED = ["{{background}}", "{{participants}}", "{{topics}}"];

function scenarioView() {
  const scenario = syntheticCatalog(1, "s").scenarios[0];
  const played = { background: scenario.background, topics: scenario.topics, parties: scenario.parties };
  const turns = [
    {
      turn_id: 1,
      speaker: scenario.parties[0].id,
      role: "party" as const,
      utterance: "We want option A on everything.",
      thought: "private",
      signal: "continue" as const,
    },
  ];
  return { view: mediatorView(played, turns), turns };
}

const ask = (messages: ChatMessage[], template: string): unknown =>
  mediator.standIn({ model: "any-model", messages, llmRole: "mediator", template } as MockChatRequest);

describe("social mediator prompts", () => {
  it("are six steps, each with its own placeholders and in words other than the generic mediator's", () => {
    expect(simulationTemplatesFor("social")).toEqual(["party", ...Object.values(SOCIAL_TEMPLATES)]);
    const own: Record<SocialStep, string[]> = {
      tracker: ["{{latest}}", "{{party_turns}}", "{{tracker}}"],
      when: ["{{cadence}}", "{{last_speaker}}", "{{memory}}", "{{since_last}}", "{{tracker}}"],
      draft: ["{{memory}}", "{{reason}}", "{{tracker}}"],
      rate: ["{{candidate}}", "{{memory}}", "{{strategy}}", "{{tracker}}"],
      voice: ["{{candidate}}", "{{memory}}", "{{strategy}}"],
      close: ["{{memory}}", "{{tracker}}"],
    };
    for (const [step, template] of Object.entries(SOCIAL_TEMPLATES)) {
      expect(placeholders(template), template).toEqual([...SHARED, ...own[step as SocialStep]].sort());
      expect(loadTemplate(template)).not.toContain("four kinds of trouble");
    }
    for (const strategy of ["facilitative", "evaluative", "transformative", "problem-solving"])
      expect(loadTemplate("mediator-how-social")).toContain(`**${strategy}:**`);
    for (const dimension of ["perception", "emotion", "cognition", "communication"])
      expect(loadTemplate("mediator-rate")).toContain(`**${dimension}:**`);
  });

  it("render from the run so far, and the stand-in answers each step with a reply its schema accepts", () => {
    const { view, turns } = scenarioView();
    const render = simulationPromptsFor("social").social!;
    const c: SocialContext = { view, turns, decisions: [], tracker: initialTracker(view.topics), memory: 8 };
    const candidate = { strategy: "facilitative", text: "Ask what matters most." };
    const steps: [SocialStep, Record<string, string>, ZodType][] = [
      ["tracker", trackerValues(view, c.tracker, 1), mediatorTrackerReplySchema],
      ["when", whenSocialValues(c, "more"), mediatorMotivationReplySchema],
      ["draft", draftValues(c, "tempers are rising"), mediatorCandidatesReplySchema],
      ["rate", candidateValues(c, candidate), mediatorRatingReplySchema],
      ["voice", candidateValues(c, candidate), mediatorHowReplySchema],
      ["close", closeValues(c), mediatorHowReplySchema],
    ];
    for (const [step, values, schema] of steps) {
      const messages = render(step, values);
      expect(schema.safeParse(ask(messages, SOCIAL_TEMPLATES[step])).success, step).toBe(true);
    }
    const when = render("when", whenSocialValues(c, "more"));
    expect(when[0].content).toContain("as often as every two or three party turns");
    expect(when[1].content).toContain("You have not spoken yet (1 party turns so far).");
    expect(when[1].content).toContain("We want option A on everything.");
  });
});

describe("naive mediator prompts", () => {
  it("keep the generic placeholders and replies, in fewer and plainer words", () => {
    expect(simulationTemplatesFor("naive")).toEqual(["party", "mediator-when-naive", "mediator-how-naive"]);
    expect(placeholders("mediator-when-naive")).toEqual(placeholders("mediator-when"));
    expect(placeholders("mediator-how-naive")).toEqual(placeholders("mediator-how").filter((p) => p !== "{{reason}}"));
    const { view } = scenarioView();
    const prompts = simulationPromptsFor("naive");
    expect(prompts.templates).toMatchObject({ mediatorWhen: "mediator-when-naive", mediatorHow: "mediator-how-naive" });
    const when = prompts.mediatorWhen(view);
    expect(when[0].content.length).toBeLessThan(simulationPromptsFor("generic").mediatorWhen(view)[0].content.length);
    expect(mediatorWhenReplySchema.safeParse(ask(when, "mediator-when-naive")).success).toBe(true);
    const how = ask(prompts.mediatorHow(view, "unused"), "mediator-how-naive");
    expect(mediatorHowReplySchema.safeParse(how).success).toBe(true);
  });
});
