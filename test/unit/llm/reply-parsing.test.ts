/** Finding the one JSON object in replies as real providers send them (pure; over HTTP in reply-forms.test.ts). */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { extractJson, parseReply, scanJsonObjects, stripThinking } from "../../../app/domain/llm/reply-parsing.ts";

const schema = z.object({ answer: z.string(), score: z.number() });
const answer = '{"answer": "B", "score": 3}';
const value = { answer: "B", score: 3 };

describe("reply extraction", () => {
  it("finds the object in prose, with braces and quotes in the prose around it", () => {
    const reply = `Sure — here is my answer. ${answer} Let me know if you'd like {more} detail.`;
    expect(parseReply(reply, schema)).toEqual({ ok: true, value, form: "prose" });
  });

  it("finds the object in a fence with or without a language, and in a fence amid prose", () => {
    expect(parseReply("```json\n" + answer + "\n```", schema)).toMatchObject({ ok: true, form: "fenced" });
    expect(parseReply("```\n" + answer + "\n```", schema)).toMatchObject({ ok: true, form: "fenced" });
    expect(parseReply("```JSON " + answer + "```", schema)).toMatchObject({ ok: true, form: "fenced" });
    const amid = `I thought about it.\n\n\`\`\`jsonc\n${answer}\n\`\`\`\nHope this helps {really}.`;
    expect(parseReply(amid, schema)).toEqual({ ok: true, value, form: "fenced" });
  });

  it("drops a leading <think> block whose braces would otherwise confuse it", () => {
    const reply = `<think>The format is {"answer": ..., "score": ...}; maybe {"answer": "A", "score": 1}? No — B. Unbalanced { here.</think>\n\n${answer}`;
    expect(parseReply(reply, schema)).toEqual({ ok: true, value, form: "think" });
    // A reasoning server that put <think> in the prompt: the reply only closes it.
    expect(parseReply(`weighing {options} ...</think>Here: ${answer}`, schema)).toEqual({
      ok: true,
      value,
      form: "think",
    });
    expect(stripThinking("<think>a</think> b")).toEqual({ text: "b", thinking: true, unclosed: false });
  });

  it("says so when the reply is an unfinished <think> block", () => {
    const result = parseReply(`<think>still weighing ${answer}`, schema);
    expect(result).toEqual({
      ok: false,
      error: "$: the reply is not valid JSON (it is an unfinished <think> block with no answer after it)",
    });
  });

  it("respects braces and escaped quotes inside JSON strings", () => {
    const tricky = '{"answer": "a } brace and a \\" quote {", "score": 1}';
    expect(scanJsonObjects(`Result: ${tricky} done`)).toEqual([{ answer: 'a } brace and a " quote {', score: 1 }]);
  });

  it("with two objects takes the first that satisfies the schema, in reading order", () => {
    const two = `Example: {"answer": "A", "score": 1}. Final: {"answer": "C", "score": 5}`;
    expect(parseReply(two, schema)).toEqual({ ok: true, value: { answer: "A", score: 1 }, form: "prose" });
    const exampleFirst = `The format is {"answer": "<letter>"}. Mine: {"answer": "C", "score": 5}`;
    expect(parseReply(exampleFirst, schema)).toEqual({ ok: true, value: { answer: "C", score: 5 }, form: "prose" });
    // Fenced blocks are preferred to bare objects in the prose around them.
    const fencedLater = `Like {"answer": "A", "score": 1}:\n\`\`\`\n{"answer": "D", "score": 2}\n\`\`\``;
    expect(parseReply(fencedLater, schema)).toMatchObject({ ok: true, value: { answer: "D" }, form: "fenced" });
  });

  it("reports the first object's problems when none fits the schema", () => {
    expect(parseReply('Here {"answer": 1, "score": 2} and {"x": 1}', schema)).toEqual({
      ok: false,
      error: "$.answer: Expected string, received number",
    });
  });

  it("gives a clear error when there is no JSON at all", () => {
    expect(parseReply("I cannot help with that.", schema)).toEqual({
      ok: false,
      error: "$: the reply is not valid JSON (no complete JSON object found in it)",
    });
    expect(parseReply("   ", schema)).toEqual({
      ok: false,
      error: "$: the reply is not valid JSON (the reply is empty)",
    });
    const truncated = parseReply('{"answer": "B", "sco', schema);
    expect(truncated.ok).toBe(false);
    if (!truncated.ok) expect(truncated.error).toMatch(/^\$: the reply is not valid JSON \(.+\)$/);
  });

  it("marks a reply to a structured-output request as structured", () => {
    expect(extractJson(answer, true)).toEqual({ ok: true, candidates: [{ value, form: "structured" }] });
  });
});

describe("reply extraction on long replies", () => {
  it("stays fast on a long reply of stray braces and still finds a later object", () => {
    const noise = "{ ".repeat(20_000);
    expect(scanJsonObjects(`${noise}`)).toEqual([]);
    expect(parseReply(`${"{x} ".repeat(500)}${answer}`, schema)).toMatchObject({ ok: true, value });
  });
});
