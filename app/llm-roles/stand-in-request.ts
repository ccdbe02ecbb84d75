/**
 * What a stand-in responder sees and returns (app/server/llm/stand-in/ serves them over HTTP).
 * Pure, so each role's responder (app/llm-roles/<role>/stand-in.ts) stays a function of the request.
 */
import { sha256Hex } from "../domain/sha256.ts";

export interface MockMessage {
  role: string;
  content: string;
  /** The tool calls of an assistant turn in a tool loop. */
  toolCalls?: MockToolCall[];
}

/** A tool call as a responder asks for it; `arguments` may be an object (sent as its JSON). */
export interface MockToolCall {
  name: string;
  arguments: string | object;
}

export interface MockCitation {
  url: string;
  title?: string;
}

/** What a responder sees: the useful fields of the request body, and the body itself. */
export interface MockChatRequest {
  model: string;
  messages: MockMessage[];
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  jsonMode: boolean;
  /** Which endpoint was asked: chat completions, or the Responses API (web research). */
  api: "chat" | "responses";
  /** A JSON schema was sent (structured output), and the schema itself. */
  structured: boolean;
  jsonSchema?: unknown;
  /** The tools offered: function names (chat), or built-in tool types such as web_search_preview (responses). */
  tools: string[];
  /** The LLM role the client named (header x-socrates-role); the stand-in answers by it. */
  llmRole?: string;
  /** The prompt template the client named (header x-socrates-template), for roles with several prompts. */
  template?: string;
  body: Record<string, unknown>;
}

/**
 * Returns the reply content: a string as is, anything else as its JSON — except two shapes:
 * `{ toolCalls: [{ name, arguments }] }` answers a chat request with tool calls, and
 * `{ text, citations: [{ url, title? }] }` answers a Responses request with url citations.
 */
export type Responder = (request: MockChatRequest) => string | object;

/** Thrown by a responder for a request it cannot answer as asked: the stand-in answers HTTP 400 with its message. */
export class StandInRequestError extends Error {}

/** The first 32 bits of the text's SHA-256: the responders' deterministic "randomness". */
export function hash32(text: string): number {
  return Number.parseInt(sha256Hex(text).slice(0, 8), 16);
}

/** Test settings for the judges' stand-ins: chosen replies made invalid, to see how evaluators record bad output. */
export interface EvaluationSabotage {
  /** Topic judge: give this topic a score of 7, or a turn id past the end of the run. */
  topicJudge?: Record<string, "score" | "turn">;
  /** Per-turn attitude extraction: reply without the attitudes object at these turns. */
  attitudeTurns?: number[];
  /** MI judge: score 9 on perception alignment at these turns. */
  miTurns?: number[];
}

export interface StandInOptions {
  /** The stand-in search server's base URL, where the searcher's citations point. */
  searchUrl?: string;
  sabotage?: EvaluationSabotage;
}

/** A role's stand-in: its canned reply to one of the role's requests (which template, from `request.template`). */
export type RoleResponder = (request: MockChatRequest, options: StandInOptions) => string | object;

/** What a role folder declares (app/llm-roles/<role>/role.ts); its prompt templates are the folder's *.md files. */
export interface LlmRoleDefinition {
  id: string;
  standIn: RoleResponder;
}

/**
 * The template a role's request names; a request without one, or with one the role does not have,
 * is the client's error.
 */
export function templateOf<T extends string>(request: MockChatRequest, templates: readonly T[]): T {
  const template = request.template as T | undefined;
  if (template !== undefined && templates.includes(template)) return template;
  throw new StandInRequestError(
    `stand-in: role "${request.llmRole}" has no template ${JSON.stringify(request.template ?? null)} ` +
      `(expected header x-socrates-template: ${templates.join(" | ")})`,
  );
}
