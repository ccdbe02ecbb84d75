import { describe, expect, it } from "vitest";
import {
  QualificationAnswerError,
  qualificationKey,
  qualificationTestSchema,
  scoreQualification,
  withoutAnswers,
  type QualificationTest,
} from "../../app/domain/qualification.ts";

/** A valid five-question test built in code, so each case can break one thing in a copy. */
function sampleTest(): QualificationTest {
  const question = (n: number) => ({
    id: `q${n}`,
    passage: `Passage ${n}: the buyer offered $${n}00 and the seller asked for more.`,
    question: `What did the buyer offer in passage ${n}?`,
    options: [
      { id: "a", text: `$${n}00` },
      { id: "b", text: "Nothing" },
      { id: "c", text: "Whatever the seller asked" },
    ],
    answer: "a",
  });
  return qualificationTestSchema.parse({
    id: "sample-test",
    version: 2,
    title: "Sample",
    instructions: "Pick the answer the passage supports.",
    questions: [1, 2, 3, 4, 5].map(question),
  });
}

const issuesOf = (value: unknown) =>
  qualificationTestSchema.safeParse(value).error?.issues.map((i) => [i.path.join("."), i.message]) ?? [];

describe("qualification test schema", () => {
  it("defaults the pass mark to 0.8 and names the test with its version", () => {
    const test = sampleTest();
    expect(test.pass_mark).toBe(0.8);
    expect(qualificationKey(test)).toBe("sample-test-v2");
  });

  it("names the path of each problem", () => {
    const broken = structuredClone(sampleTest()) as unknown as {
      questions: Record<string, unknown>[];
      pass_mark: number;
    };
    broken.pass_mark = 1.5;
    broken.questions[0].answer = "z";
    broken.questions[1].options = [{ id: "a", text: "Only one" }];
    (broken.questions[3].options as { id: string }[])[2].id = "a";
    delete broken.questions[4].passage;
    expect(issuesOf(broken)).toEqual([
      ["pass_mark", "the pass mark is a fraction up to 1"],
      ["questions.0.answer", 'the answer "z" is not one of the options (a, b, c)'],
      ["questions.1.options", "a question has 3 or 4 options"],
      ["questions.3.options.2.id", 'duplicate option id "a"'],
      ["questions.4.passage", "Required"],
    ]);
    // Duplicate question ids are checked once every question is well formed.
    const duplicate = sampleTest();
    duplicate.questions[2].id = "q4";
    expect(issuesOf(duplicate)).toEqual([["questions.3.id", 'duplicate question id "q4"']]);
  });

  it("refuses unknown keys, an empty test, a bad id and five options", () => {
    expect(issuesOf({ ...sampleTest(), passMark: 0.8 })).toEqual([["", "Unrecognized key(s) in object: 'passMark'"]]);
    expect(issuesOf({ ...sampleTest(), questions: [] })).toEqual([["questions", "a test needs at least one question"]]);
    expect(issuesOf({ ...sampleTest(), id: "../secrets" })[0][0]).toBe("id");
    const five = sampleTest();
    five.questions[0].options.push({ id: "d", text: "d" }, { id: "e", text: "e" });
    expect(issuesOf(five)).toEqual([["questions.0.options", "a question has 3 or 4 options"]]);
  });

  it("strips the answer key for the browser", () => {
    const shown = withoutAnswers(sampleTest());
    expect(shown.questions.every((q) => !("answer" in q))).toBe(true);
    expect(shown.questions[0].options).toHaveLength(3);
  });
});

describe("scoreQualification", () => {
  const all = (id: string) => Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`q${n}`, id]));

  it("counts correct answers against the key", () => {
    expect(scoreQualification(sampleTest(), all("a"))).toEqual({ correct: 5, total: 5, passed: true, missing: [] });
    expect(scoreQualification(sampleTest(), all("b"))).toEqual({ correct: 0, total: 5, passed: false, missing: [] });
  });

  it("passes exactly at the pass mark and fails one below it", () => {
    // 0.8 of 5 = 4 correct.
    expect(scoreQualification(sampleTest(), { ...all("a"), q5: "b" })).toMatchObject({ correct: 4, passed: true });
    expect(scoreQualification(sampleTest(), { ...all("a"), q4: "c", q5: "b" })).toMatchObject({
      correct: 3,
      passed: false,
    });
    // Another boundary: 7 of 10 at a 0.7 mark passes, 6 does not.
    const ten = sampleTest();
    ten.questions = [...ten.questions, ...ten.questions.map((q) => ({ ...q, id: `${q.id}x` }))];
    ten.pass_mark = 0.7;
    const answers = Object.fromEntries(ten.questions.map((q, i) => [q.id, i < 7 ? "a" : "b"]));
    expect(scoreQualification(ten, answers)).toMatchObject({ correct: 7, total: 10, passed: true });
    expect(scoreQualification(ten, { ...answers, q1: "b" })).toMatchObject({ correct: 6, passed: false });
  });

  it("counts a missing or empty answer as wrong and reports it", () => {
    const { q2: _q2, ...rest } = all("a");
    expect(scoreQualification(sampleTest(), { ...rest, q5: "" })).toEqual({
      correct: 3,
      total: 5,
      passed: false,
      missing: ["q2", "q5"],
    });
    expect(scoreQualification(sampleTest(), {})).toEqual({
      correct: 0,
      total: 5,
      passed: false,
      missing: ["q1", "q2", "q3", "q4", "q5"],
    });
  });

  it("refuses answers to unknown questions or with unknown options, naming them", () => {
    const attempt = () => scoreQualification(sampleTest(), { ...all("a"), q9: "a", q3: "x" });
    expect(attempt).toThrowError(QualificationAnswerError);
    expect(attempt).toThrowError('q9: no such question in sample-test-v2; q3: "x" is not an option (a, b, c)');
  });
});
