/**
 * One chat completion as `call` and the tool loop send it: the role's parameters, the reply
 * format (structured output, JSON mode or plain), retries, and — when the endpoint refuses
 * structured output — the same request again without it; then the model turn around it, with
 * its one repair round.
 */
import type OpenAI from "openai";
import type { ZodType } from "zod";
import type { ClientContext, Plan } from "./context.server.ts";
import { sendWithRetries, type Endpoint, type Sent } from "./endpoints.server.ts";
import { parseReply, repairMessage, type ParsedReply } from "../../domain/llm/reply-parsing.ts";
import {
  sendStructured,
  structuredFormat,
  structuredRefused,
  type ChosenFormat,
  type StructuredOutcome,
} from "./structured.server.ts";

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
export async function chatStep(
  ctx: ClientContext,
  endpoint: Endpoint,
  plan: Plan,
  schema: ZodType<unknown>,
  body: Omit<ChatBody, "model">,
): Promise<ChatStep> {
  return sendStructured(
    plan,
    () => replyFormat(plan, schema),
    (format) =>
      sendWithRetries(
        endpoint,
        (replica) =>
          replica.chat(
            { model: plan.model, ...sentParams(plan), ...body, ...format },
            plan.headers,
            // The plan's messages were written out for its key: sent as that text (a repair round's are new).
            body.messages === plan.messages ? plan.messagesJson : undefined,
          ),
        ctx.retry,
      ),
  );
}

/** Token counts of a completion. */
export function tokensOf(reply: OpenAI.ChatCompletion): { promptTokens: number; completionTokens: number } {
  return { promptTokens: reply.usage?.prompt_tokens ?? 0, completionTokens: reply.usage?.completion_tokens ?? 0 };
}

export type WireMessage = OpenAI.ChatCompletionMessageParam;

/** A tool call as the tool loop keeps it (and stores it in llm_calls.parsed of a tool step). */
export interface StoredToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What one model turn produced, after at most one repair round. */
export interface Answer<T> {
  /** The parsed reply, or what was wrong (meaningless when `toolCalls` is set). */
  outcome: ParsedReply<T>;
  /** The last reply text, recorded with the call. */
  reply: string | null;
  /** The model called tools instead of answering (only when tools were offered). */
  toolCalls?: StoredToolCall[];
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  structured: StructuredOutcome;
  /** The reply format finally sent, for the record. */
  format: object;
}

/**
 * Asks for a reply to `messages`; the first round may offer tools (`toolParams`) and end in tool
 * calls. A reply that does not parse gets one repair round showing the model its error.
 */
export async function askWithRepair<T>(
  ctx: ClientContext,
  endpoint: Endpoint,
  plan: Plan,
  schema: ZodType<T>,
  messages: WireMessage[],
  toolParams: Partial<ChatBody> = {},
): Promise<Answer<T>> {
  const answer: Answer<T> = {
    outcome: { ok: false, error: "no reply" },
    reply: null,
    attempts: 0,
    promptTokens: 0,
    completionTokens: 0,
    structured: "off",
    format: {},
  };
  let sent = messages;
  for (let round = 0; round < 2; round++) {
    const step = await chatStep(ctx, endpoint, plan, schema, { messages: sent, ...(round === 0 ? toolParams : {}) });
    answer.attempts += step.sent.attempts;
    answer.structured = step.outcome;
    answer.format = step.params;
    if (!step.sent.ok) {
      answer.outcome = {
        ok: false,
        error: round === 0 ? step.sent.error : `repair request failed: ${step.sent.error}`,
      };
      break;
    }
    const tokens = tokensOf(step.sent.value);
    answer.promptTokens += tokens.promptTokens;
    answer.completionTokens += tokens.completionTokens;
    const message = step.sent.value.choices?.[0]?.message;
    answer.reply = message?.content ?? null;
    const calls = (message?.tool_calls ?? []).filter((c) => c.type === "function");
    if (round === 0 && toolParams.tools && calls.length > 0) {
      answer.toolCalls = calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      break;
    }
    const parsed = parseReply(answer.reply ?? "", schema, step.outcome === "sent");
    answer.outcome = parsed.ok
      ? parsed
      : { ok: false, error: round === 0 ? parsed.error : `invalid reply after one repair: ${parsed.error}` };
    if (parsed.ok) break;
    sent = [
      ...messages,
      { role: "assistant", content: answer.reply ?? "" },
      { role: "user", content: repairMessage(parsed.error) },
    ];
  }
  return answer;
}
