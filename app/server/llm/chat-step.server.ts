/**
 * One chat completion as `call` and the tool loop send it: the role's parameters, the reply
 * format (structured output, JSON mode or plain), retries, and — when the endpoint refuses
 * structured output — the same request again without it.
 */
import type OpenAI from "openai";
import type { ZodType } from "zod";
import type { ClientContext, Plan } from "./context.server.ts";
import { sendWithRetries, type Endpoint, type Sent } from "./endpoints.server.ts";
import { sendStructured, structuredFormat, structuredRefused, type ChosenFormat, type StructuredOutcome } from "./structured.server.ts";

type ChatBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

/** The reply format to ask for, and what became of structured output. */
export function replyFormat(plan: Plan, schema: ZodType<unknown>): ChosenFormat<Pick<ChatBody, "response_format">> {
  const fallback = plan.jsonMode ? { response_format: { type: "json_object" as const } } : {};
  if (!plan.structured) return { params: fallback, outcome: "off" };
  if (structuredRefused(plan.baseUrl, plan.model)) return { params: fallback, outcome: "refused" };
  const format = structuredFormat(schema);
  if (!format.ok) return { params: fallback, outcome: `unusable schema: ${format.reason}` };
  return { params: { response_format: format.format }, outcome: "sent" };
}

/** The request parameters sent besides model, messages and reply format. */
export function sentParams(plan: Plan) {
  return { temperature: plan.temperature, max_tokens: plan.maxTokens, seed: plan.seed };
}

/** The completion, what became of structured output, and the reply format finally sent (for the record). */
export interface ChatStep extends ChosenFormat<Pick<ChatBody, "response_format">> {
  sent: Sent<OpenAI.ChatCompletion>;
}

/** Sends one chat completion; a refusal of structured output is remembered and the request sent again without it. */
export async function chatStep(ctx: ClientContext, endpoint: Endpoint, plan: Plan, schema: ZodType<unknown>, body: Omit<ChatBody, "model">): Promise<ChatStep> {
  return sendStructured(
    plan,
    () => replyFormat(plan, schema),
    (format) => sendWithRetries(endpoint, (client) => client.chat.completions.create({ model: plan.model, ...sentParams(plan), ...body, ...format }), ctx.retry)
  );
}

/** Token counts of a completion. */
export function tokensOf(reply: OpenAI.ChatCompletion): { promptTokens: number; completionTokens: number } {
  return { promptTokens: reply.usage?.prompt_tokens ?? 0, completionTokens: reply.usage?.completion_tokens ?? 0 };
}
