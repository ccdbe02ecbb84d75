/**
 * Structured outputs: the caller's zod schema sent as `response_format: json_schema` (OpenAI,
 * vLLM, SGLang, Ollama constrain decoding to it). Where an endpoint refuses it, the call is sent
 * again without, and the endpoint + model is remembered for the rest of the process so later
 * calls do not pay for the refusal again.
 */
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import type { ZodType } from "zod";
import type { Sent } from "./endpoints.server.ts";

/** What became of structured output for one call; recorded with the call (llm_calls.request.structuredOutput). */
export type StructuredOutcome = "off" | "sent" | "refused" | `unusable schema: ${string}`;

export type JsonSchemaFormat = ReturnType<typeof zodResponseFormat>;
export type JsonSchemaTextFormat = ReturnType<typeof zodTextFormat>;
type Built<F> = { ok: true; format: F } | { ok: false; reason: string };

// The SDK's helpers take a zod 3 or 4 schema; every schema of ours is one.
type SdkZod = Parameters<typeof zodResponseFormat>[0];

/** Builds a format, or says why the schema cannot be sent (strict mode wants every field required). */
function build<F>(make: () => F): Built<F> {
  try {
    return { ok: true, format: make() };
  } catch (err) {
    return { ok: false, reason: (err as Error).message.split("\n")[0] };
  }
}

/** The chat completions `response_format` for a schema. */
export function structuredFormat(schema: ZodType<unknown>): Built<JsonSchemaFormat> {
  return build(() => zodResponseFormat(schema as SdkZod, "reply"));
}

/** The Responses API `text.format` for a schema. */
export function structuredTextFormat(schema: ZodType<unknown>): Built<JsonSchemaTextFormat> {
  return build(() => zodTextFormat(schema as SdkZod, "reply"));
}

const refused = new Set<string>();
const refusalKey = (baseUrl: string, model: string) => `${baseUrl.replace(/\/+$/, "")}\n${model}`;

/** Whether this endpoint + model refused structured output earlier in this process. */
export function structuredRefused(baseUrl: string, model: string): boolean {
  return refused.has(refusalKey(baseUrl, model));
}

export function rememberRefusal(baseUrl: string, model: string): void {
  refused.add(refusalKey(baseUrl, model));
}

/** An HTTP 400/422 whose message names response_format or json_schema: the server does not do structured output. */
export function isStructuredRefusal(status: number | undefined, message: string | undefined): boolean {
  return (status === 400 || status === 422) && /response_format|json_schema|structured output/i.test(message ?? "");
}

/** A reply format chosen for a plan, and what became of structured output. */
export interface ChosenFormat<P> {
  params: P;
  outcome: StructuredOutcome;
}

/**
 * Sends with the chosen format; when structured output was sent and the endpoint refuses it, the
 * refusal is remembered (so `choose` now picks the fallback) and the request sent again.
 */
export async function sendStructured<P, R>(
  where: { baseUrl: string; model: string },
  choose: () => ChosenFormat<P>,
  send: (params: P) => Promise<Sent<R>>,
): Promise<{ sent: Sent<R> } & ChosenFormat<P>> {
  let format = choose();
  let sent = await send(format.params);
  if (!sent.ok && format.outcome === "sent" && isStructuredRefusal(sent.status, sent.message)) {
    rememberRefusal(where.baseUrl, where.model);
    const spent = sent.attempts;
    format = choose();
    sent = await send(format.params);
    sent.attempts += spent;
  }
  return { sent, ...format };
}
