/**
 * The crowd qualification test: a short English reading-comprehension quiz a worker passes
 * before labelling. The test (questions and answer key) is a server-only JSON file (the
 * deployment's QUALIFICATION_TEST_FILE, or the demo test in demo/qualification/); this module
 * checks its shape and scores answers, and `withoutAnswers` is all a browser may be sent.
 * Loading the file is app/server/templates.server.ts's job.
 */
import { z } from "zod";

const slug = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "use lower-case letters, digits and '-'");
const shortId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "use a short lower-case id such as q1 or b");
const text = z.string().trim().min(1, "must not be empty");

export const qualificationOptionSchema = z.object({ id: shortId, text }).strict();

export const qualificationQuestionSchema = z
  .object({
    id: shortId,
    /** The text the question is about. */
    passage: text,
    question: text,
    options: z
      .array(qualificationOptionSchema)
      .min(3, "a question has 3 or 4 options")
      .max(4, "a question has 3 or 4 options"),
    /** The id of the correct option. */
    answer: shortId,
  })
  .strict()
  .superRefine((q, ctx) => {
    const ids = q.options.map((o) => o.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["options", i, "id"],
          message: `duplicate option id "${id}"`,
        });
    });
    if (!ids.includes(q.answer)) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["answer"],
        message: `the answer "${q.answer}" is not one of the options (${ids.join(", ")})`,
      });
    }
  });

export const qualificationTestSchema = z
  .object({
    id: slug,
    /** Bumped whenever a question or the key changes, so a pass records what was passed. */
    version: z.number().int().positive(),
    title: text,
    instructions: text,
    /** Fraction of questions to get right, e.g. 0.8 = 4 of 5. */
    pass_mark: z
      .number()
      .gt(0, "the pass mark is a fraction above 0")
      .max(1, "the pass mark is a fraction up to 1")
      .default(0.8),
    questions: z.array(qualificationQuestionSchema).min(1, "a test needs at least one question"),
  })
  .strict()
  .superRefine((test, ctx) => {
    const ids = test.questions.map((q) => q.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["questions", i, "id"],
          message: `duplicate question id "${id}"`,
        });
    });
  });

export type QualificationTest = z.infer<typeof qualificationTestSchema>;
export type QualificationQuestion = z.infer<typeof qualificationQuestionSchema>;

/** "english-comprehension-v1": names exactly which test and key a worker passed. */
export function qualificationKey(test: Pick<QualificationTest, "id" | "version">): string {
  return `${test.id}-v${test.version}`;
}

/** The test as a worker sees it: the answer key removed, so it never reaches the browser. */
export function withoutAnswers(
  test: QualificationTest,
): Omit<QualificationTest, "questions"> & { questions: Omit<QualificationQuestion, "answer">[] } {
  return { ...test, questions: test.questions.map(({ answer: _answer, ...rest }) => rest) };
}

export interface QualificationScore {
  correct: number;
  total: number;
  passed: boolean;
  /** Questions with no answer: they count as wrong. */
  missing: string[];
}

export class QualificationAnswerError extends Error {
  constructor(readonly problems: { questionId: string; message: string }[]) {
    super(problems.map((p) => `${p.questionId}: ${p.message}`).join("; "));
    this.name = "QualificationAnswerError";
  }
}

/**
 * Scores answers (question id → option id). A missing answer counts as wrong and is listed in
 * `missing`; an answer to an unknown question, or naming an option the question lacks, is
 * malformed input (a stale or tampered form) and throws QualificationAnswerError.
 */
export function scoreQualification(test: QualificationTest, answers: Record<string, string>): QualificationScore {
  const problems: { questionId: string; message: string }[] = [];
  const questionIds = new Set(test.questions.map((q) => q.id));
  for (const questionId of Object.keys(answers)) {
    if (!questionIds.has(questionId))
      problems.push({ questionId, message: `no such question in ${qualificationKey(test)}` });
  }
  let correct = 0;
  const missing: string[] = [];
  for (const q of test.questions) {
    const given = Object.hasOwn(answers, q.id) ? answers[q.id] : undefined;
    if (given === undefined || given === "") {
      missing.push(q.id);
      continue;
    }
    if (!q.options.some((o) => o.id === given)) {
      problems.push({
        questionId: q.id,
        message: `"${given}" is not an option (${q.options.map((o) => o.id).join(", ")})`,
      });
      continue;
    }
    if (given === q.answer) correct += 1;
  }
  if (problems.length > 0) throw new QualificationAnswerError(problems);
  const total = test.questions.length;
  // When correct / total is the pass mark exactly, both round to the same double: the boundary passes.
  return { correct, total, passed: correct / total >= test.pass_mark, missing };
}
