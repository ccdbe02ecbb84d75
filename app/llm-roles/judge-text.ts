/**
 * Reading our judge prompts' transcripts and lists: shared by the judges' stand-ins
 * (evaluator, baseline-judge, mi-judge, emotion-judge). Pure.
 */
import type { MockChatRequest } from "./stand-in-request.ts";

export function user(request: Pick<MockChatRequest, "messages">): string {
  return request.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
}

export interface Line {
  turn: number;
  speaker: string;
}

export function transcriptLines(text: string): Line[] {
  return [...text.matchAll(/^\[(\d+)\] ([A-Z][A-Z0-9_]*): /gm)].map((m) => ({ turn: Number(m[1]), speaker: m[2] }));
}

export function listAfter(text: string, pattern: RegExp): string[] {
  const found = pattern.exec(text)?.[1];
  if (!found) throw new Error(`judge stand-in: the prompt has no ${pattern}`);
  return found
    .replace(/\.$/, "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

export const round2 = (v: number) => Math.round(v * 100) / 100;
