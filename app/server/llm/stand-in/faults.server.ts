/**
 * The stand-in's fault injection: rules that pick which requests fail and how (429 with
 * Retry-After, 5xx bursts, slow replies, malformed or truncated JSON, prose or <think> wrapping,
 * a refusal of structured output, connection resets, any other status).
 */
import type { MockChatRequest } from "../../../llm-roles/stand-in-request.ts";

export type Fault =
  | { kind: "429"; retryAfterSeconds?: number; retryAfterMs?: number }
  | { kind: "5xx"; status?: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "malformed" }
  | { kind: "truncated" }
  | { kind: "reset" }
  | { kind: "status"; status: number; message?: string }
  /** The reply wrapped in prose ("Sure — here is my answer. {…} Let me know…"). */
  | { kind: "prose" }
  /** The reply after a <think> block whose reasoning contains braces. */
  | { kind: "think" }
  /**
   * HTTP 400 naming response_format, as servers without structured output answer; only requests that send a JSON schema
   * match.
   */
  | { kind: "refuse-structured" };

export interface FaultRule {
  fault: Fault;
  /** How many matching requests get the fault (a burst of N); default 1. */
  times?: number;
  /** Only requests from this 1-based request number on. */
  fromRequest?: number;
  /** Only requests with a message whose content matches. */
  match?: RegExp;
  model?: string | RegExp;
}

export function matches(pattern: string | RegExp | undefined, value: string): boolean {
  if (pattern === undefined) return true;
  return typeof pattern === "string" ? pattern === value : pattern.test(value);
}

/** The fault rules in force; each is used up after `times` matching requests. */
export class FaultRules {
  private rules: { rule: FaultRule; left: number }[] = [];

  set(next: FaultRule[]): void {
    this.rules = next.map((rule) => ({ rule, left: rule.times ?? 1 }));
  }

  /** The fault for this request (the `index`-th), if a rule matches; the rule is used once. */
  take(index: number, chat: MockChatRequest): Fault | undefined {
    const found = this.rules.find(
      ({ rule, left }) =>
        left > 0 &&
        index >= (rule.fromRequest ?? 1) &&
        matches(rule.model, chat.model) &&
        // A refusal of structured output only answers requests that send a JSON schema.
        (rule.fault.kind !== "refuse-structured" || chat.structured) &&
        (rule.match === undefined || chat.messages.some((m) => rule.match!.test(m.content))),
    );
    if (!found) return undefined;
    found.left--;
    return found.rule.fault;
  }
}

export const errorBody = (message: string, type: string) => ({ error: { message, type, code: null, param: null } });

/** A fault answered instead of the reply: status, body and headers; undefined for faults that shape the reply. */
export function faultResponse(
  fault: Fault | undefined,
): { status: number; body: unknown; headers?: Record<string, string> } | undefined {
  switch (fault?.kind) {
    case "429": {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
      if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
      return { status: 429, body: errorBody("mock-llm: rate limited", "rate_limit_error"), headers };
    }
    case "5xx":
      return { status: fault.status ?? 500, body: errorBody("mock-llm: injected server error", "server_error") };
    case "status": {
      const message = fault.message ?? `mock-llm: injected HTTP ${fault.status}`;
      return { status: fault.status, body: errorBody(message, "invalid_request_error") };
    }
    case "refuse-structured": {
      const message =
        "mock-llm: response_format json_schema is not supported by this stand-in (injected refuse-structured)";
      return { status: 400, body: errorBody(message, "invalid_request_error") };
    }
    default:
      return undefined;
  }
}
