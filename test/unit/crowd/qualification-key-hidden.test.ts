/**
 * The reading test's answer key stays on the server. A deployment's private test
 * (QUALIFICATION_TEST_FILE) replaces the demo one; and nothing a worker can see — the test as the
 * browser gets it, the MTurk batch's template, input rows and QuestionForm — changes when only the
 * key changes, so none of it can carry the key. Only answer-key.xml (given to MTurk, which keeps
 * it) does.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerKeyXml, externalQuestionXml, questionFormXml } from "../../../app/domain/crowd/qualification-xml.ts";
import { qualificationKey, withoutAnswers, type QualificationTest } from "../../../app/domain/qualification.ts";
import { exportBatch } from "../../../app/crowd-channels/mturk/export.server.ts";
import { DEMO_QUALIFICATION_TEST, loadQualificationTest } from "../../../app/server/templates.server.ts";
import { demoStudiesDb } from "../../helpers/demo-studies-db.ts";
import { tempDir, type tempDb } from "../../../harness/temp-db.ts";

const CROWD_CONSENSUS = 2;

/**
 * A private test: the demo's questions under another id, and the same test with every answer moved to another option.
 */
function privateTests(): [QualificationTest, QualificationTest] {
  const demo = loadQualificationTest(DEMO_QUALIFICATION_TEST);
  const a: QualificationTest = { ...demo, id: "lab-private-test", version: 3 };
  const b: QualificationTest = {
    ...a,
    questions: a.questions.map((q) => ({ ...q, answer: q.options.find((o) => o.id !== q.answer)!.id })),
  };
  return [a, b];
}

describe("the qualification answer key", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  const tmp = tempDir("socrates-key-");
  const [a, b] = privateTests();
  const files = { a: join(tmp.dir, "a.json"), b: join(tmp.dir, "b.json") };
  const saved = process.env.QUALIFICATION_TEST_FILE;

  beforeAll(async () => {
    t = await demoStudiesDb();
    writeFileSync(files.a, JSON.stringify(a));
    writeFileSync(files.b, JSON.stringify(b));
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.QUALIFICATION_TEST_FILE;
    else process.env.QUALIFICATION_TEST_FILE = saved;
    t.cleanup();
    tmp.cleanup();
  });

  it("comes from QUALIFICATION_TEST_FILE when set, else from the demo test", () => {
    delete process.env.QUALIFICATION_TEST_FILE;
    expect(qualificationKey(loadQualificationTest())).toBe("english-comprehension-v1");
    process.env.QUALIFICATION_TEST_FILE = files.a;
    expect(loadQualificationTest()).toEqual(a);
    expect(qualificationKey(loadQualificationTest())).toBe("lab-private-test-v3");
  });

  it("is left out of what the browser gets: the test without answers is the same whatever the key", () => {
    expect(JSON.stringify(withoutAnswers(a))).not.toMatch(/"answer"/);
    expect(withoutAnswers(a)).toEqual(withoutAnswers(b));
  });

  it("is in no worker-visible file of an MTurk batch, only in the answer key for MTurk", async () => {
    const exported = async (file: string, name: string) => {
      process.env.QUALIFICATION_TEST_FILE = file;
      const summary = await exportBatch(t.db, CROWD_CONSENSUS, {
        outDir: join(tmp.dir, name),
        now: new Date("2030-01-02T03:04:05.000Z"),
      });
      return Object.fromEntries(Object.entries(summary.files).map(([k, path]) => [k, readFileSync(path, "utf8")]));
    };
    const withA = await exported(files.a, "batch-a");
    const withB = await exported(files.b, "batch-b");
    for (const visible of ["template", "inputCsv", "qualificationTest", "hitConfig"])
      expect(withB[visible], visible).toBe(withA[visible]);
    expect(withA.qualificationTest).toBe(questionFormXml(a));
    expect(withA.answerKey).toBe(answerKeyXml(a));
    expect(withB.answerKey).not.toBe(withA.answerKey);
  });

  it("is in neither the QuestionForm nor the ExternalQuestion that `mturk publish` gives MTurk to show workers", () => {
    expect(questionFormXml(b)).toBe(questionFormXml(a));
    expect(questionFormXml(a)).not.toMatch(/AnswerKey|AnswerOption|AnswerScore/);
    expect(externalQuestionXml("https://studio.example.org/mturk/task?study=2&item=5", 600)).not.toMatch(/answer/i);
  });
});
