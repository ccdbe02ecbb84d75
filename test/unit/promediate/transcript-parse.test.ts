/** The pure side of the transcript import: the run model's turn order, the log reader and the record reader. */
import { describe, expect, it } from "vitest";
import { perTurnTrajectory } from "../../../app/domain/baseline.ts";
import { runSchema, type Run } from "../../../app/domain/bundle.ts";
import { parseConversationLog } from "../../../app/domain/promediate/transcript-log.ts";
import { matchParty, partyCode } from "../../../app/domain/promediate/party-names.ts";
import { readTranscriptRecords } from "../../../app/domain/promediate/transcript-records.ts";

const DIMS = [
  "shared_goals",
  "common_understanding",
  "agreement_on_terms",
  "tone_and_willingness",
  "shared_decision_making",
];
const dims = (value: number) => Object.fromEntries(DIMS.map((d) => [d, value]));
const pair = (value: number) => ({ reasoning: "invented", ...dims(value), overall_consensus_score: value });

function run(speakers: string[], extra: Partial<Run> = {}): unknown {
  return {
    id: "r1",
    condition_id: "c1",
    mediated: true,
    mediator_backbone: "m",
    simulator_backbone: "s",
    outcome: "budget",
    party_order: ["A", "B"],
    turns: speakers.map((speaker, i) => ({
      turn_id: i + 1,
      speaker,
      role: speaker === "MEDIATOR" ? "mediator" : "party",
      utterance: `line one of turn ${i + 1}\nline two`,
    })),
    config: {},
    seed: null,
    ...extra,
  };
}

describe("the run model's turn order", () => {
  const speakers = ["A", "MEDIATOR", "MEDIATOR", "A", "B"];

  it("a cyclic run (the default) still refuses two mediator turns in a row and parties out of order", () => {
    const messages = runSchema.safeParse(run(speakers)).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(messages).toEqual([
      ["turns.2.role", "the mediator speaks at most once between two party turns (a cyclic run)"],
      ["turns.3.speaker", 'parties speak in party_order: expected "B", got "A"'],
      ["turns.4.speaker", 'parties speak in party_order: expected "A", got "B"'],
    ]);
    expect(runSchema.safeParse(run(speakers, { turn_order: "cyclic" })).success).toBe(false);
  });

  it("a free run accepts them, keeps multi-line utterances, and still refuses a speaker outside party_order", () => {
    const parsed = runSchema.parse(run(speakers, { turn_order: "free" }));
    expect(parsed.turn_order).toBe("free");
    expect(parsed.turns[0].utterance).toBe("line one of turn 1\nline two");
    const stranger = runSchema.safeParse(run(["A", "C"], { turn_order: "free" }));
    expect(stranger.error?.issues.map((i) => i.message)).toEqual(['"C" is not in party_order (A, B)']);
  });

  it('an explicit "cyclic" is the default spelled out: parsed as absent, so it stores and compares as before', () => {
    const parsed = runSchema.parse(run(["A", "B"], { turn_order: "cyclic" }));
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(runSchema.parse(run(["A", "B"]))));
  });
});

describe("parseConversationLog", () => {
  it("reads the summary's turns, joining continuation lines and dropping the quotes", () => {
    const log = [
      "👤 Mediator: printout before the summary is not read",
      "📋 Conversation Summary:",
      '🔄 Turn 1: Mediator: "Hello."',
      '🔄 Turn 2: Ann: "Two lines:',
      "second line without a double colon",
      'third: with: two colons"',
      '🔄 Turn 3: Bo: "Fine."',
    ].join("\r\n");
    const parsed = parseConversationLog(log);
    expect(parsed.problems).toEqual([]);
    expect(parsed.turns.map((t) => [t.line, t.speaker, t.utterance, t.counted])).toEqual([
      [3, "Mediator", "Hello.", [0]],
      [4, "Ann", "Two lines:\nsecond line without a double colon\nthird: with: two colons", [1, 2]],
      [7, "Bo", "Fine.", [3]],
    ]);
    // ProMediate's scripts count turn lines and the continuation with two ": " in it; they skip the other.
    expect(parsed.countedLines).toBe(4);
    expect(parsed.warnings.map((w) => w.line)).toEqual([6]);
  });

  it("names the line of what it cannot read", () => {
    const parsed = parseConversationLog(
      ["📋 Conversation Summary:", "stray text", '🔄 Turn 2: Ann: "Hi."', '🔄 Turn 3: Bo: ""'].join("\n"),
    );
    expect(parsed.problems).toEqual([
      { line: 2, message: 'expected a turn line such as 🔄 Turn 1: <speaker>: "<speech>"' },
      { line: 3, message: 'expected turn 1, got "🔄 Turn 2"' },
      { line: 4, message: 'expected turn 2, got "🔄 Turn 3"' },
      { line: 4, message: "the utterance is empty" },
    ]);
  });
});

describe("party names", () => {
  it("codes by the shared rule and matches another spelling of the same name", () => {
    expect(partyCode("MacNamara")).toBe("MACNAMARA");
    expect(partyCode("Dr. Anne-Marie O'Hara")).toBe("DR__ANNE_MARIE_O");
    expect(matchParty(["Macnamara", "Parker"], "MacNamara")).toEqual({
      code: "MACNAMARA",
      name: "Macnamara",
      exact: false,
    });
    expect(matchParty(["Macnamara"], "Mason")).toBeNull();
  });
});

describe("readTranscriptRecords: pair slots by the names they belong to", () => {
  // hmo's layout: names order Alex, Jamie, Lee; config order Lee, Alex, Jamie. The starting list is in
  // combinations order of names: (Alex, Jamie), (Alex, Lee), (Jamie, Lee). ProMediate's pipeline writes
  // Lee's new scores to Lee's config-order slots: (Lee, Alex) → 0, (Lee, Jamie) → 1.
  const topic = "Contract Term";
  const agreement = [{ [topic]: [pair(0.2), pair(0.4), pair(0.6)] }, { [topic]: [pair(0.9), pair(0.8), pair(0.6)] }];
  const attitudes = [
    { Alex: { [topic]: "one year" }, Jamie: { [topic]: "two years" }, Lee: { [topic]: "three years" } },
    { Alex: { [topic]: "one year" }, Jamie: { [topic]: "two years" }, Lee: { [topic]: "one year is fine" } },
  ];
  const input = {
    names: ["Alex", "Jamie", "Lee"],
    configNames: ["Lee", "Alex", "Jamie"],
    turns: [{ line: 2, speaker: "Lee", speakerId: "LEE", utterance: "One year is fine.", counted: [0] }],
    countedLines: 1,
    topics: [{ key: topic, id: "T5" }],
    attitudes,
    agreement,
  };

  it("files each updated score under its own pair and leaves the other pairs as they were", () => {
    const result = readTranscriptRecords(input);
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([expect.stringMatching(/config order \(Lee, Alex, Jamie\) differs/)]);
    expect(result.output?.turns).toEqual([
      {
        turn_id: 1,
        speaker: "LEE",
        attitudes: { T5: "one year is fine" },
        agreement: [
          { with: "ALEX", topic: "T5", dimensions: dims(0.9), overall: 0.9 },
          { with: "JAMIE", topic: "T5", dimensions: dims(0.8), overall: 0.8 },
        ],
      },
    ]);
    const output = result.output;
    if (!output) throw new Error("no output");
    const trajectory = perTurnTrajectory(output, {
      topicIds: ["T5"],
      partyIds: ["ALEX", "JAMIE", "LEE"],
      speakers: ["LEE"],
    });
    // Alex–Jamie keeps its starting 0.2 (the reference's slot 0 now holds Lee–Alex's 0.9 instead).
    expect(trajectory.pairScores["ALEX|JAMIE"].T5).toEqual([0.2, 0.2]);
    expect(trajectory.pairScores["ALEX|LEE"].T5).toEqual([0.4, 0.9]);
    expect(trajectory.pairScores["JAMIE|LEE"].T5).toEqual([0.6, 0.8]);
  });

  it("names the file and JSON path of a broken pair result", () => {
    const broken = structuredClone(agreement) as unknown as Record<string, unknown[]>[];
    broken[1][topic][2] = { reasoning: "Error in parsing the response", overall_consensus_score: 0 };
    const result = readTranscriptRecords({ ...input, agreement: broken });
    expect(result.output).toBeUndefined();
    expect(result.problems).toEqual([
      {
        file: "agreement_scores.json",
        path: [1, topic, 2],
        message: "no dimension scores (the judge's reply was not parsed in that run)",
      },
    ]);
  });
});
