import { describe, expect, it } from "vitest";
import { abPayloadFromAnswers, choiceField } from "../../../app/task-types/ab-reactiveness/answer-fields.ts";
import {
  consensusPayloadFromAnswers,
  positionField,
  scoreField,
} from "../../../app/task-types/consensus-snippet/answer-fields.ts";
import { parseTaskAnswers } from "../../../app/domain/crowd/answer-fields.ts";

const scenario = { topics: [{ id: "PRICE" }, { id: "TERM_2" }], parties: [{ id: "buyer" }, { id: "seller.co" }] };

/** The taskAnswers object crowd-form writes: every button of a group, the chosen one on. */
function answers(chosen: string[], others: string[] = []): Record<string, unknown> {
  return Object.fromEntries([...chosen.map((n) => [n, { on: true }]), ...others.map((n) => [n, { on: false }])]);
}

describe("MTurk answer fields", () => {
  it("maps a full consensus answer to the label the web task would submit", () => {
    const result = consensusPayloadFromAnswers(
      {
        ...answers(
          [
            scoreField("PRICE", 4),
            positionField("PRICE", "buyer", "A"),
            positionField("PRICE", "seller.co", "unclear"),
            scoreField("TERM_2", 1),
            positionField("TERM_2", "buyer", "not-stated"),
            positionField("TERM_2", "seller.co", "B"),
          ],
          [scoreField("PRICE", 3), scoreField("TERM_2", 5), positionField("PRICE", "buyer", "B")],
        ),
        item_id: "17",
      },
      scenario,
    );
    expect(result).toEqual({
      ok: true,
      itemId: "17",
      payload: {
        kind: "consensus-snippet",
        topics: {
          PRICE: { score: 4, carriedForward: false, positions: { buyer: "A", "seller.co": "unclear" } },
          TERM_2: { score: 1, carriedForward: false, positions: { buyer: "not-stated", "seller.co": "B" } },
        },
      },
    });
  });

  it("accepts the older element output where the chosen value is the flag's key", () => {
    const result = abPayloadFromAnswers({ [choiceField("A")]: { A: false }, [choiceField("B")]: { B: true } });
    expect(result).toEqual({ ok: true, itemId: null, payload: { kind: "ab-reactiveness", choice: "B" } });
  });

  it("passes an out-of-range score on as a number, for the label check to refuse", () => {
    const result = consensusPayloadFromAnswers(
      answers([
        scoreField("PRICE", 6),
        scoreField("TERM_2", 2),
        ...["PRICE", "TERM_2"].flatMap((t) => ["buyer", "seller.co"].map((p) => positionField(t, p, "A"))),
      ]),
      scenario,
    );
    expect(result.ok && result.payload.kind === "consensus-snippet" && result.payload.topics.PRICE.score).toBe(6);
  });

  it("names every missing or doubled answer by its label path", () => {
    const result = consensusPayloadFromAnswers(
      answers([
        scoreField("PRICE", 2),
        scoreField("PRICE", 3),
        positionField("PRICE", "buyer", "A"),
        positionField("NOPE", "buyer", "A"),
        positionField("TERM_2", "ghost", "A"),
      ]),
      scenario,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: "topics.NOPE", message: "is not a topic of this scenario" },
      { path: "topics.TERM_2.positions.ghost", message: "is not a party of this scenario" },
      { path: "topics.PRICE.score", message: "more than one score is marked (2, 3)" },
      { path: "topics.TERM_2.score", message: "no score was chosen" },
    ]);
  });

  it("reports a missing position for a scored topic", () => {
    const result = consensusPayloadFromAnswers(
      answers([
        scoreField("PRICE", 2),
        scoreField("TERM_2", 2),
        positionField("PRICE", "buyer", "A"),
        positionField("TERM_2", "buyer", "A"),
        positionField("TERM_2", "seller.co", "A"),
      ]),
      scenario,
    );
    expect(result).toEqual({
      ok: false,
      problems: [{ path: "topics.PRICE.positions.seller.co", message: "no position was chosen" }],
    });
  });

  it("refuses an A/B answer with no choice or both", () => {
    expect(abPayloadFromAnswers(answers([], [choiceField("A"), choiceField("B")]))).toEqual({
      ok: false,
      problems: [{ path: "choice", message: "no conversation was chosen" }],
    });
    expect(abPayloadFromAnswers(answers([choiceField("A"), choiceField("B")]))).toMatchObject({
      ok: false,
      problems: [{ path: "choice" }],
    });
  });

  it("reads the taskAnswers cell and explains what is wrong with it", () => {
    expect(parseTaskAnswers('[{"choice|A":{"on":true}}]')).toEqual({ ok: true, answers: { "choice|A": { on: true } } });
    expect(parseTaskAnswers("")).toMatchObject({
      ok: false,
      problems: [{ path: "Answer.taskAnswers", message: expect.stringMatching(/empty/) }],
    });
    expect(parseTaskAnswers('[{"choice|A":')).toMatchObject({
      ok: false,
      problems: [{ path: "Answer.taskAnswers", message: expect.stringMatching(/not valid JSON/) }],
    });
    expect(parseTaskAnswers('{"choice|A":{"on":true}}')).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringMatching(/array holding one object/) }],
    });
    expect(parseTaskAnswers("[{},{}]")).toMatchObject({ ok: false });
  });
});
