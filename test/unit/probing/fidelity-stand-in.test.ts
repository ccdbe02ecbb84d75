/**
 * The stand-in party lets its own reactiveness line show, in wording graded by the level; without that line it answers
 * as before.
 */
import { describe, expect, it } from "vitest";
import { REACTIVENESS_GRID, reactivenessStatement } from "../../../app/domain/probing/personas.ts";
import { partyReply, reactiveTone } from "../../../app/llm-roles/party/stand-in.ts";

const system = (persona?: string) =>
  [
    "You are playing Ann in a simulated negotiation. Stay in character.",
    "### Fence (FENCE)",
    "- A: Low",
    "- B: High",
    "- Fence (FENCE), weight 10 of 10: Low.",
    ...(persona ? [`How you come across: ${persona}`] : []),
  ].join("\n");
const request = (persona?: string) => ({
  model: "m",
  seed: 1,
  messages: [
    { role: "system", content: system(persona) },
    { role: "user", content: "(Nothing has been said yet.)" },
  ],
});

describe("the stand-in party's reactiveness", () => {
  it("opens each utterance with a tone that grows more heated along the grid", () => {
    const tones = REACTIVENESS_GRID.map((level) => reactiveTone(system(reactivenessStatement(level))));
    expect(new Set(tones).size).toBe(4);
    expect(tones[0]).toMatch(/^Calmly/);
    expect(tones[3]).toMatch(/outrageous!/);
    const reply = partyReply(request(reactivenessStatement(1))) as { utterance: string };
    expect(reply.utterance.startsWith(tones[3]!)).toBe(true);
  });

  it("says nothing about tone without the line, and the rest of the reply is the same", () => {
    expect(reactiveTone(system())).toBeNull();
    const plain = partyReply(request()) as { utterance: string; signal: string };
    const heated = partyReply(request(reactivenessStatement(2 / 3))) as { utterance: string; signal: string };
    expect(plain.utterance).not.toMatch(/frustrated/);
    expect(heated.utterance).toMatch(/^I am frustrated/);
    expect(heated.signal).toBe(plain.signal);
  });
});
