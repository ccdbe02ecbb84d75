/**
 * The request's messages are written out once, for the cache key, and that text is reused for the
 * body sent and the row stored (cache-key.server.ts `keyAndMessagesJson`, `jsonWithMessages`): the
 * texts made that way parse to exactly the objects JSON.stringify would have written, the key is the
 * one `cacheKey` gives, and a message with anything besides role and content gets no reusable text.
 */
import { describe, expect, it } from "vitest";
import { cacheKey, jsonWithMessages, keyAndMessagesJson } from "../../../app/server/llm/cache-key.server.ts";

const parts = {
  baseUrl: "http://x/v1",
  model: "m",
  messages: [
    { role: "system" as const, content: 'Rules: "quote", back\\slash, ünïcode, \n newline' },
    { role: "user" as const, content: "" },
  ],
  temperature: 0.7,
  maxTokens: 100,
  seed: 3,
  jsonMode: true,
};

describe("the messages' JSON text, written once", () => {
  it("parses to the messages, under the key cacheKey gives", () => {
    const { key, messagesJson } = keyAndMessagesJson(parts);
    expect(key).toBe(cacheKey(parts));
    expect(JSON.parse(messagesJson as string)).toEqual(parts.messages);
  });

  it("makes a body or a row equal to JSON.stringify's, with or without other keys", () => {
    const { messagesJson } = keyAndMessagesJson(parts);
    const rest = { model: "m", temperature: 0.7, seed: undefined, response_format: { type: "json_object" } };
    expect(JSON.parse(jsonWithMessages(messagesJson as string, rest))).toEqual(
      JSON.parse(JSON.stringify({ messages: parts.messages, ...rest })),
    );
    expect(JSON.parse(jsonWithMessages(messagesJson as string, {}))).toEqual({ messages: parts.messages });
  });

  it("gives no text for a message carrying more than role and content (the key is unchanged)", () => {
    const named = { ...parts, messages: [{ role: "user" as const, content: "hi", name: "x" }] };
    const { key, messagesJson } = keyAndMessagesJson(named);
    expect(messagesJson).toBeUndefined();
    expect(key).toBe(cacheKey({ ...parts, messages: [{ role: "user", content: "hi" }] }));
  });
});
