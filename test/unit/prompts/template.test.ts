import { describe, expect, it } from "vitest";
import {
  fillTemplate,
  placeholders,
  PromptTemplateError,
  splitMessages,
} from "../../../app/domain/prompts/template.ts";

describe("prompt templates", () => {
  it("fills every placeholder in one pass and fails loudly on a missing one", () => {
    expect(placeholders("{{a}} and {{ b }} and {{a}}")).toEqual(["a", "b"]);
    expect(fillTemplate("say {{a}}", { a: "{{b}}" })).toBe("say {{b}}");
    expect(() => fillTemplate("{{a}} {{b}} {{c}}", { a: "x" }, "t.md")).toThrow(PromptTemplateError);
    expect(() => fillTemplate("{{a}} {{b}} {{c}}", { a: "x" }, "t.md")).toThrow("t.md: no value for {{b}}, {{c}}");
  });
  it("splits at message markers and drops the note before the first", () => {
    const messages = splitMessages("note\n<!-- system -->\nrules\n<!-- user -->\nquestion\n");
    expect(messages).toEqual([
      { role: "system", content: "rules" },
      { role: "user", content: "question" },
    ]);
    expect(splitMessages("just a prompt\n")).toEqual([{ role: "user", content: "just a prompt" }]);
  });
});
