/**
 * The stand-in's one responder for every role the pipeline configures, as `socrates mock-llm`
 * and the pipeline benchmark serve it: the judges first, then the curation's searcher and writer,
 * then the simulation's parties and mediator. A responder for a new role joins roleResponders.
 * Every reply is a deterministic function of the request: canned text, never a model.
 */
import type { LlmRole } from "../domain/llm/types.ts";
import type { MockChatRequest, Responder } from "./stand-in-request.ts";
import { curationSearchReply } from "./searcher/stand-in.ts";
import { curationWriterReply } from "./writer/stand-in.ts";
import { evaluationResponder } from "./evaluator/stand-in.ts";
import { probeWriterReply } from "./writer/stand-in-probe.ts";
import { simulationReply } from "./party/stand-in.ts";

/** Answers the prompts of its own roles and returns null for any other. */
type RoleResponder = (request: MockChatRequest) => string | object | null;

/** `socrates llm check` (app/server/llm/check.server.ts) asks every role for one word. */
const connectionCheck: RoleResponder = (request) =>
  request.messages.length === 1 && /^Reply with the word ok\.?$/.test(request.messages[0].content.trim()) ? "ok" : null;

export interface StandInOptions {
  /** The stand-in search server's base URL, where the searcher's citations point. */
  searchUrl?: string;
}

function roleResponders(options: StandInOptions): RoleResponder[] {
  return [connectionCheck, (request) => curationSearchReply(request, { pagesBaseUrl: options.searchUrl }), curationWriterReply, probeWriterReply, simulationReply];
}

/** The roles the chain answers (what `socrates mock-llm` tells its user). */
export const STAND_IN_ROLES: readonly LlmRole[] = ["searcher", "writer", "party", "mediator", "evaluator", "baseline-judge", "mi-judge", "emotion-judge"];

/** The responder for every role: the judges, else the first role responder that recognises the prompt. */
export function standInResponder(options: StandInOptions = {}): Responder {
  const roles = roleResponders(options);
  const otherRoles: Responder = (request) => {
    for (const respond of roles) {
      const reply = respond(request);
      if (reply !== null) return reply;
    }
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    throw new Error(`stand-in: no canned reply for this prompt (model "${request.model}", system prompt ${JSON.stringify(system.slice(0, 80))})`);
  };
  return evaluationResponder({}, otherRoles);
}
