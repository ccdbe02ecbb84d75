import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { qualificationKey, scoreQualification } from "../../app/domain/qualification.ts";
import { AGREEMENT_RUBRIC } from "../../app/domain/rubric.ts";
import { loadGuidelines, loadQualificationTest, TemplateError } from "../../app/server/templates.server.ts";
import { tempDir } from "../helpers/temp-db.ts";

describe("the shipped annotation templates", () => {
  it("load both guidelines", () => {
    const consensus = loadGuidelines("consensus-snippet");
    expect(consensus).toMatch(/^# /);
    for (const phrase of ["preceding snippet", "unclear", "not stated", "not mentioned — carry forward", "## Worked examples"]) expect(consensus).toContain(phrase);
    const ab = loadGuidelines("ab-reactiveness");
    for (const phrase of ["composed", "reactive", "highlighted party", "## What to ignore"]) expect(ab).toContain(phrase);
  });

  it("print the 1–5 rubric in the Markdown exactly as the task UI shows it", () => {
    expect(AGREEMENT_RUBRIC.map((r) => r.score)).toEqual([1, 2, 3, 4, 5]);
    const consensus = loadGuidelines("consensus-snippet");
    for (const level of AGREEMENT_RUBRIC) expect(consensus).toContain(`- **${level.score} — ${level.label}.** ${level.description}`);
  });

  it("load the default qualification test: 5 questions with 3–4 options, pass mark 0.8, a key that scores", () => {
    const test = loadQualificationTest();
    expect(qualificationKey(test)).toBe("english-comprehension-v1");
    expect(test.pass_mark).toBe(0.8);
    expect(test.questions).toHaveLength(5);
    for (const q of test.questions) {
      expect(q.options.length, q.id).toBeGreaterThanOrEqual(3);
      expect(q.options.length, q.id).toBeLessThanOrEqual(4);
    }
    const key = Object.fromEntries(test.questions.map((q) => [q.id, q.answer]));
    expect(scoreQualification(test, key)).toEqual({ correct: 5, total: 5, passed: true, missing: [] });
    // The key is not always the same letter, so answering "a" everywhere fails.
    expect(scoreQualification(test, Object.fromEntries(test.questions.map((q) => [q.id, "a"]))).passed).toBe(false);
  });
});

describe("template loading errors", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir("socrates-templates-");
    mkdirSync(join(tmp.dir, "qualification"));
    mkdirSync(join(tmp.dir, "guidelines"));
  });
  afterEach(() => tmp.cleanup());

  const problemsOf = (load: () => unknown) => {
    try {
      load();
    } catch (err) {
      if (err instanceof TemplateError) return { file: err.file, problems: err.problems, message: err.message };
      throw err;
    }
    throw new Error("expected a TemplateError");
  };

  it("names the missing file", () => {
    const missing = problemsOf(() => loadGuidelines("ab-reactiveness", tmp.dir));
    expect(missing.message).toBe(`${join(tmp.dir, "guidelines", "ab-reactiveness.md")}: $: cannot read (ENOENT)`);
    const noTest = problemsOf(() => loadQualificationTest("english-comprehension", tmp.dir));
    expect(noTest.file).toBe(join(tmp.dir, "qualification", "english-comprehension.json"));
  });

  it("names the file and JSON path of a malformed test", () => {
    const file = join(tmp.dir, "qualification", "broken.json");
    writeFileSync(file, JSON.stringify({ id: "broken", version: 1, title: "T", instructions: "I", questions: [{ id: "q1", passage: "P", question: "Q", options: [{ id: "a", text: "A" }, { id: "b", text: "B" }, { id: "c", text: "C" }], answer: "d" }] }));
    expect(problemsOf(() => loadQualificationTest("broken", tmp.dir)).message).toBe(`${file}: $.questions[0].answer: the answer "d" is not one of the options (a, b, c)`);
    writeFileSync(file, "{ not json");
    expect(problemsOf(() => loadQualificationTest("broken", tmp.dir)).message).toMatch(/broken\.json: \$: invalid JSON/);
  });

  it("refuses a test whose id does not match its file, and ids that could leave the folder", () => {
    const file = join(tmp.dir, "qualification", "renamed.json");
    writeFileSync(file, JSON.stringify({ id: "original", version: 1, title: "T", instructions: "I", questions: [{ id: "q1", passage: "P", question: "Q", options: [{ id: "a", text: "A" }, { id: "b", text: "B" }, { id: "c", text: "C" }], answer: "a" }] }));
    expect(problemsOf(() => loadQualificationTest("renamed", tmp.dir)).problems).toEqual([{ path: "$.id", message: 'the test in renamed.json must have id "renamed", got "original"' }]);
    expect(problemsOf(() => loadQualificationTest("../guidelines/x", tmp.dir)).problems[0].message).toMatch(/is not a qualification test id/);
  });

  it("refuses empty guidelines and unknown kinds", () => {
    writeFileSync(join(tmp.dir, "guidelines", "consensus-snippet.md"), "  \n");
    expect(problemsOf(() => loadGuidelines("consensus-snippet", tmp.dir)).problems).toEqual([{ path: "$", message: "the guidelines are empty" }]);
    expect(problemsOf(() => loadGuidelines("other" as "consensus-snippet", tmp.dir)).problems[0].message).toMatch(/unknown guideline kind "other"/);
  });
});
