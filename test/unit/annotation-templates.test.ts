import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { qualificationKey, scoreQualification } from "../../app/domain/qualification.ts";
import { AGREEMENT_RUBRIC } from "../../app/domain/rubric.ts";
import {
  DEMO_QUALIFICATION_TEST,
  loadGuidelines,
  loadQualificationTest,
  qualificationTestFile,
  templatesDir,
  TemplateError,
} from "../../app/server/templates.server.ts";
import { TASK_TYPE_IDS } from "../../app/task-types/registry.ts";
import { tempDir } from "../../harness/temp-db.ts";

describe("the shipped annotation templates", () => {
  it("load both guidelines", () => {
    const consensus = loadGuidelines("consensus-snippet");
    expect(consensus).toMatch(/^# /);
    for (const phrase of [
      "preceding snippet",
      "unclear",
      "not stated",
      "not mentioned — carry forward",
      "## Worked examples",
    ])
      expect(consensus).toContain(phrase);
    const ab = loadGuidelines("ab-reactiveness");
    for (const phrase of ["composed", "reactive", "highlighted party", "## What to ignore"])
      expect(ab).toContain(phrase);
  });

  it("print the 1–5 rubric in the Markdown exactly as the task UI shows it", () => {
    expect(AGREEMENT_RUBRIC.map((r) => r.score)).toEqual([1, 2, 3, 4, 5]);
    const consensus = loadGuidelines("consensus-snippet");
    for (const level of AGREEMENT_RUBRIC)
      expect(consensus).toContain(`- **${level.score} — ${level.label}.** ${level.description}`);
  });

  it("keep no qualification test, and so no answer key, among the templates workers see", () => {
    expect(existsSync(join(templatesDir(), "qualification"))).toBe(false);
    const demo = loadQualificationTest();
    // Everything a task type's folder ships besides code: its guidelines and MTurk template.
    const files = TASK_TYPE_IDS.flatMap((id) =>
      readdirSync(join(templatesDir(), id), { recursive: true, encoding: "utf8" }).map((f) => join(id, f)),
    );
    expect(files.filter((f) => /\.(html|md)$/.test(f))).toHaveLength(2 * TASK_TYPE_IDS.length);
    for (const file of files.filter((f) => /\.(json|html|md)$/.test(f))) {
      const text = readFileSync(join(templatesDir(), file), "utf8");
      expect(text, file).not.toMatch(/"answer"\s*:/);
      // No question of the test is shipped with the templates either.
      for (const q of demo.questions) expect(text, file).not.toContain(q.passage.slice(0, 60));
    }
  });

  it("load the demo qualification test unless QUALIFICATION_TEST_FILE names a private one", () => {
    expect(qualificationTestFile({})).toBe(resolve(DEMO_QUALIFICATION_TEST));
    expect(qualificationTestFile({ QUALIFICATION_TEST_FILE: "/srv/private/test.json" })).toBe("/srv/private/test.json");
    expect(qualificationTestFile({ QUALIFICATION_TEST_FILE: "secrets/test.json" })).toBe(resolve("secrets/test.json"));
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
    for (const id of TASK_TYPE_IDS) mkdirSync(join(tmp.dir, id));
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
    expect(missing.message).toBe(`${join(tmp.dir, "ab-reactiveness", "guidelines.md")}: $: cannot read (ENOENT)`);
    const noTest = problemsOf(() =>
      loadQualificationTest(join(tmp.dir, "qualification", "english-comprehension.json")),
    );
    expect(noTest.message).toBe(
      `${join(tmp.dir, "qualification", "english-comprehension.json")}: $: cannot read (ENOENT)`,
    );
  });

  it("names the file and JSON path of a malformed test", () => {
    const file = join(tmp.dir, "qualification", "broken.json");
    writeFileSync(
      file,
      JSON.stringify({
        id: "broken",
        version: 1,
        title: "T",
        instructions: "I",
        questions: [
          {
            id: "q1",
            passage: "P",
            question: "Q",
            options: [
              { id: "a", text: "A" },
              { id: "b", text: "B" },
              { id: "c", text: "C" },
            ],
            answer: "d",
          },
        ],
      }),
    );
    expect(problemsOf(() => loadQualificationTest(file)).message).toBe(
      `${file}: $.questions[0].answer: the answer "d" is not one of the options (a, b, c)`,
    );
    writeFileSync(file, "{ not json");
    expect(problemsOf(() => loadQualificationTest(file)).message).toMatch(/broken\.json: \$: invalid JSON/);
  });

  it("refuses empty guidelines and unknown kinds", () => {
    writeFileSync(join(tmp.dir, "consensus-snippet", "guidelines.md"), "  \n");
    expect(problemsOf(() => loadGuidelines("consensus-snippet", tmp.dir)).problems).toEqual([
      { path: "$", message: "the guidelines are empty" },
    ]);
    expect(problemsOf(() => loadGuidelines("other" as "consensus-snippet", tmp.dir)).problems[0].message).toMatch(
      /unknown guideline kind "other"/,
    );
  });
});
