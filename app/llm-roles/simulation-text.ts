/**
 * Reading the simulation's prompts (party and mediator templates): shared by their stand-ins.
 * The hash covers only what decides the reply (model, messages, seed), so replays and cache
 * checks behave exactly as with a seeded real model. Pure.
 */
import { hash32, type MockChatRequest } from "./stand-in-request.ts";

export type ChatRequestBody = Pick<MockChatRequest, "model" | "messages" | "seed">;

export function hashOf(value: unknown): number {
  if (value && typeof value === "object" && "messages" in value) {
    const { model, messages, seed } = value as ChatRequestBody;
    value = { model, messages, seed }; // only what decides the reply
  }
  return hash32(JSON.stringify(value));
}

export function text(body: ChatRequestBody, role: string): string {
  return body.messages
    .filter((m) => m.role === role)
    .map((m) => m.content)
    .join("\n");
}

export interface TopicRef {
  id: string;
  name: string;
  options: string[];
}

export function topicsOf(system: string): TopicRef[] {
  const topics: TopicRef[] = [];
  for (const block of system.split(/^### /m).slice(1)) {
    const head = /^(.+) \(([A-Z][A-Z0-9_]*)\)$/m.exec(block);
    if (!head) continue;
    const options = [...block.matchAll(/^- ([A-Z]): /gm)].map((m) => m[1]);
    topics.push({ name: head[1], id: head[2], options });
  }
  return topics;
}

export function dialogueLines(user: string): string[] {
  return user.split("\n").filter((l) => /^\[\d+\] /.test(l));
}
