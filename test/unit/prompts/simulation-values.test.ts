import { describe, expect, it } from "vitest";
import type { Turn } from "../../../app/domain/bundle.ts";
import { emotionScaleText } from "../../../app/domain/emotion/scale.ts";
import {
  mediatorHowValues,
  mediatorWhenValues,
  partyEmotionValues,
  partyValues,
} from "../../../app/domain/prompts/simulation-values.ts";
import { partyEmotionReplySchema } from "../../../app/llm-roles/party/reply.ts";
import { renderMessages } from "../../../app/server/pipeline/prompt-templates.server.ts";
import { mediatorView, partyView, type PlayedScenario } from "../../../app/domain/visibility.ts";

const scenario: PlayedScenario = {
  background: "Two neighbours share a well.",
  topics: [
    {
      id: "WATER",
      name: "Water",
      description: "Who draws when.",
      options: [
        { label: "A", description: "Mornings for Ann" },
        { label: "B", description: "Turns by day" },
      ],
    },
  ],
  parties: [
    {
      id: "ANN",
      name: "Ann",
      role: "Keep the orchard alive.",
      relation: "Neighbour.",
      preferences: { WATER: "Prefers A." },
      weights: { WATER: 10 },
      persona: "Blunt.",
    },
    {
      id: "BOB",
      name: "Bob",
      role: "Run the mill.",
      relation: "Neighbour.",
      preferences: { WATER: "Prefers B." },
      weights: { WATER: 10 },
    },
  ],
};

const turns: Turn[] = [
  {
    turn_id: 1,
    speaker: "ANN",
    role: "party",
    utterance: "I need the mornings.",
    thought: "Hold firm.",
    signal: "continue",
  },
  { turn_id: 2, speaker: "BOB", role: "party", utterance: "So do I.", thought: "Bob's secret.", signal: "continue" },
];

const topics = "### Water (WATER)\nWho draws when.\n- A: Mornings for Ann\n- B: Turns by day";

describe("simulation template values", () => {
  it("gives a party its profile, its own thoughts and the others' words only", () => {
    expect(partyValues(partyView(scenario, "ANN", turns))).toEqual({
      background: "Two neighbours share a well.",
      topics,
      participants: "- Ann (ANN) — this is you\n- Bob (BOB)",
      party_name: "Ann",
      profile: [
        "You are: Ann",
        "Your position and aims: Keep the orchard alive.",
        "Your relation to the others: Neighbour.",
        "Your starting stance on each topic, with how much it matters to you:",
        "- Water (WATER), weight 10 of 10: Prefers A.",
        "",
        "How you come across: Blunt.",
      ].join("\n"),
      dialogue: "[1] You: I need the mornings.\n(Your private thought then: Hold firm.)\n\n[2] Bob: So do I.",
    });
  });
  it("tells the first party it opens, and leaves out a persona it does not have", () => {
    const values = partyValues(partyView(scenario, "BOB", []));
    expect(values.dialogue).toBe("(Nothing has been said yet.) You open the negotiation.");
    expect(values.profile).not.toContain("How you come across");
  });
  it("gives the mediator the shared view, who spoke last and why it steps in", () => {
    const view = mediatorView(scenario, turns);
    const shared = {
      background: "Two neighbours share a well.",
      topics,
      participants: "- Ann (ANN)\n- Bob (BOB)",
      dialogue: "[1] Ann: I need the mornings.\n\n[2] Bob: So do I.",
    };
    expect(mediatorWhenValues(view)).toEqual({ ...shared, last_speaker: "Bob" });
    expect(mediatorHowValues(view, "they are stuck")).toEqual({ ...shared, reason: "they are stuck" });
    expect(mediatorHowValues(mediatorView(scenario, []), "r").dialogue).toBe("(Nothing has been said yet.)");
    expect(() => mediatorWhenValues(mediatorView(scenario, []))).toThrow(
      "the mediator decides only after a party has spoken",
    );
  });

  it("in a run with emotion, gives a party the scale and its own earlier feelings, never the other's", () => {
    const felt: Turn[] = [
      { ...turns[0], emotion: 42, emotion_reason: "Bob will not budge." },
      { ...turns[1], emotion: 18, emotion_reason: "Bob's secret feeling." },
    ];
    const values = partyEmotionValues(partyView(scenario, "ANN", felt));
    expect(values).toEqual({
      ...partyValues(partyView(scenario, "ANN", [turns[0], turns[1]])),
      dialogue:
        "[1] You: I need the mornings.\n(Your private thought then: Hold firm.)\n(How you felt then, privately: 42 of 100 — Bob will not budge.)\n\n[2] Bob: So do I.",
      emotion_scale: emotionScaleText(),
    });
    expect(JSON.stringify(values)).not.toMatch(/secret feeling|18 of 100/);
    // An imported run may keep a score without its reason: the line then shows the score alone.
    const bare = partyEmotionValues(partyView(scenario, "ANN", [{ ...turns[0], emotion: 42 }]));
    expect(bare.dialogue).toBe(
      "[1] You: I need the mornings.\n(Your private thought then: Hold firm.)\n(How you felt then, privately: 42 of 100)",
    );
    // Without emotion the transcript is the same as ever, whatever the turns carry.
    expect(partyValues(partyView(scenario, "ANN", turns)).dialogue).toBe(
      "[1] You: I need the mornings.\n(Your private thought then: Hold firm.)\n\n[2] Bob: So do I.",
    );
    // The party-emotion template takes exactly these values and asks for the reply its schema checks.
    const [system] = renderMessages("party-emotion", values);
    expect(system.content).toContain(emotionScaleText());
    for (const key of Object.keys(partyEmotionReplySchema.shape)) expect(system.content).toContain(`"${key}"`);
  });
});
