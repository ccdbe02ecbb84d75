/**
 * Chat completions as the benchmark sends thousands of them: POST {baseUrl}/chat/completions in
 * the OpenAI wire format over http-exchange.server.ts, the answer parsed once. Failures are the
 * OpenAI SDK's own error classes, built as the SDK builds them, so retries, Retry-After, the
 * refusal of structured output and every message treat them as before: a status other than 2xx
 * is `APIError.generate(status, body, …)`, a socket failure `APIConnectionError` (its cause the
 * socket's error), the replica's time limit `APIConnectionTimeoutError`.
 */
import type OpenAI from "openai";
import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { jsonWithMessages } from "./cache-key.server.ts";
import { exchange, ExchangeTimeout, headersOf, type Exchanged } from "./http-exchange.server.ts";

type ChatBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

/**
 * One chat completion on one server; `headers` are added to (and may replace) the defaults.
 * `messagesJson`, when given, is `body.messages` already written as JSON (the cache key's text).
 */
export type ChatPost = (
  body: ChatBody,
  headers?: Record<string, string>,
  messagesJson?: string,
) => Promise<OpenAI.ChatCompletion>;

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function statusError(got: Exchanged): APIError {
  const text = got.body.toString("utf8");
  const json = parsedOrUndefined(text);
  return APIError.generate(got.status, json as object | undefined, json ? undefined : text, headersOf(got.rawHeaders));
}

export function chatPoster(baseUrl: string, apiKey: string, timeoutMs: number): ChatPost {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/chat/completions`);
  return async (body, headers, messagesJson) => {
    const json = messagesJson ? jsonWithMessages(messagesJson, { ...body, messages: undefined }) : JSON.stringify(body);
    let got: Exchanged;
    try {
      got = await exchange(url, {
        method: "POST",
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(json)),
          authorization: `Bearer ${apiKey}`,
          ...headers,
        },
        body: json,
        timeoutMs,
      });
    } catch (err) {
      if (err instanceof ExchangeTimeout) throw new APIConnectionTimeoutError();
      throw new APIConnectionError({ cause: err instanceof Error ? err : new Error(String(err)) });
    }
    if (got.status < 200 || got.status > 299) throw statusError(got);
    const text = got.body.toString("utf8");
    const reply = parsedOrUndefined(text);
    if (reply === undefined || typeof reply !== "object" || reply === null)
      throw new Error(`the server answered ${got.status} with a body that is not JSON: ${text.slice(0, 200)}`);
    return reply as OpenAI.ChatCompletion;
  };
}
