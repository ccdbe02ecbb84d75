/**
 * `Llm.webResearch`: one OpenAI Responses API request with the built-in web search tool (a model
 * that searches the web itself, e.g. a deep-research model). The reply's JSON is parsed with the
 * schema (one repair round, as in `call`) and the url citations its text carries are returned.
 * Cached and recorded like `call`; the row's `parsed` holds `{ value, citations }`.
 */
import type OpenAI from "openai";
import type { ZodType } from "zod";
import { findOkCall } from "../models/llm-call.server.ts";
import { type ClientContext, type Plan, planFor, recordStep, reportCached, storedCost } from "./context.server.ts";
import { sendWithRetries, type Endpoint } from "./endpoints.server.ts";
import {
  sendStructured,
  structuredRefused,
  structuredTextFormat,
  type ChosenFormat,
  type StructuredOutcome,
} from "./structured.server.ts";
import { parseReply, repairMessage, type ParsedReply } from "../../domain/llm/reply-parsing.ts";
import type { ChatMessage, Citation, WebResearchRequest, WebResearchResult } from "../../domain/llm/types.ts";

type Response = OpenAI.Responses.Response;
type Params = OpenAI.Responses.ResponseCreateParamsNonStreaming;

/**
 * The text of the reply's messages (the SDK's `output_text`, computed here so a stand-in's reply is read the same way).
 */
export function outputText(response: Response): string {
  const parts: string[] = [];
  for (const item of response.output ?? []) {
    if (item.type !== "message") continue;
    for (const part of item.content) if (part.type === "output_text") parts.push(part.text);
  }
  return parts.join("");
}

/** The url citations in the reply's messages, once each, in order of appearance. */
export function citationsOf(response: Response): Citation[] {
  const seen = new Map<string, Citation>();
  for (const item of response.output ?? []) {
    if (item.type !== "message") continue;
    for (const part of item.content) {
      if (part.type !== "output_text") continue;
      for (const a of part.annotations ?? []) {
        if (a.type === "url_citation" && !seen.has(a.url))
          seen.set(a.url, a.title ? { url: a.url, title: a.title } : { url: a.url });
      }
    }
  }
  return [...seen.values()];
}

/** The text format to ask for: the schema when structured output is on and not refused here. */
function textFormat(plan: Plan, schema: ZodType<unknown>): ChosenFormat<Pick<Params, "text">> {
  if (!plan.structured) return { params: {}, outcome: "off" };
  if (structuredRefused(plan.baseUrl, plan.model)) return { params: {}, outcome: "refused" };
  const format = structuredTextFormat(schema);
  return format.ok
    ? { params: { text: { format: format.format } }, outcome: "sent" }
    : { params: {}, outcome: `unusable schema: ${format.reason}` };
}

/** One Responses request; a refusal of structured output is remembered and the request sent again without it. */
function respond(ctx: ClientContext, endpoint: Endpoint, plan: Plan, schema: ZodType<unknown>, body: Params) {
  return sendStructured(
    plan,
    () => textFormat(plan, schema),
    (format) =>
      sendWithRetries(
        endpoint,
        (replica) => replica.client.responses.create({ ...body, ...format }, { headers: plan.headers }),
        ctx.retry,
      ),
  );
}

interface Research<T> {
  outcome: ParsedReply<T>;
  reply: string | null;
  citations: Citation[];
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  structured: StructuredOutcome;
}

async function research<T>(
  ctx: ClientContext,
  request: WebResearchRequest<T>,
  plan: Plan,
  tool: string,
): Promise<Research<T>> {
  const endpoint = ctx.endpointOf(request.role, request.endpoint);
  const done: Research<T> = {
    outcome: { ok: false, error: "no reply" },
    reply: null,
    citations: [],
    attempts: 0,
    promptTokens: 0,
    completionTokens: 0,
    structured: "off",
  };
  let input: ChatMessage[] = request.messages;
  for (let round = 0; round < 2; round++) {
    const body: Params = {
      model: plan.model,
      input,
      tools: [{ type: tool as "web_search_preview" }],
      temperature: plan.temperature,
      max_output_tokens: plan.maxTokens,
    };
    const { sent, outcome } = await respond(ctx, endpoint, plan, request.schema, body);
    done.attempts += sent.attempts;
    done.structured = outcome;
    if (!sent.ok) {
      done.outcome = { ok: false, error: round === 0 ? sent.error : `repair request failed: ${sent.error}` };
      break;
    }
    done.promptTokens += sent.value.usage?.input_tokens ?? 0;
    done.completionTokens += sent.value.usage?.output_tokens ?? 0;
    done.reply = outputText(sent.value);
    done.citations = [
      ...done.citations,
      ...citationsOf(sent.value).filter((c) => !done.citations.some((d) => d.url === c.url)),
    ];
    const parsed = parseReply(done.reply, request.schema, outcome === "sent");
    done.outcome = parsed.ok
      ? parsed
      : { ok: false, error: round === 0 ? parsed.error : `invalid reply after one repair: ${parsed.error}` };
    if (parsed.ok) break;
    input = [
      ...request.messages,
      { role: "assistant", content: done.reply },
      { role: "user", content: repairMessage(parsed.error) },
    ];
  }
  return done;
}

/** `Llm.webResearch` for a client context. */
export function webResearcher(
  ctx: ClientContext,
): <T>(request: WebResearchRequest<T>) => Promise<WebResearchResult<T>> {
  return async function webResearch<T>(request: WebResearchRequest<T>): Promise<WebResearchResult<T>> {
    const tool = request.tool ?? "web_search_preview";
    const plan = planFor(ctx.config, request, { api: "responses", tools: [tool] });
    const model = plan.model;

    const row = await findOkCall(ctx.db, plan.key);
    if (row?.response != null) {
      const parsed = parseReply(row.response, request.schema, row.replyForm === "structured");
      if (parsed.ok) {
        const { usage, latencyMs } = storedCost(row);
        reportCached(ctx, request, plan, usage);
        const citations = (row.parsed as { citations?: Citation[] } | null)?.citations ?? [];
        return { ok: true, value: parsed.value, cached: true, usage, model, citations, latencyMs, requests: 0 };
      }
    }

    const started = Date.now();
    const done = await research(ctx, request, plan, tool);
    const { outcome, citations } = done;
    const { usage, latencyMs } = await recordStep(
      ctx,
      request,
      plan,
      {
        request: {
          input: request.messages,
          tools: [{ type: tool }],
          temperature: plan.temperature,
          max_output_tokens: plan.maxTokens,
          structuredOutput: done.structured,
        },
        response: done.reply,
        parsed: outcome.ok ? { value: outcome.value as unknown, citations } : null,
        replyForm: outcome.ok ? outcome.form : null,
        status: outcome.ok ? "ok" : "failed",
        error: outcome.ok ? null : outcome.error,
        promptTokens: done.promptTokens,
        completionTokens: done.completionTokens,
        attempts: done.attempts,
      },
      started,
    );
    const requests = done.attempts;
    return outcome.ok
      ? { ok: true, value: outcome.value, cached: false, usage, model, citations, latencyMs, requests }
      : { ok: false, error: outcome.error, cached: false, usage, model, citations, latencyMs, requests };
  };
}
