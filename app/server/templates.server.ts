/**
 * Reads the annotation guidelines shipped in each task type's folder (app/task-types/<id>/, found
 * beside this file, so the built server and the CLI bundle find them too) and the crowd reading
 * test. Every failure names the file, and for a malformed test the JSON path, so a broken
 * template is fixed at its source.
 *
 * The reading test holds its answer key, so it is kept apart from the templates workers see: a
 * deployment points QUALIFICATION_TEST_FILE at its own private test (outside the repository); the
 * demo test in demo/qualification/ is used otherwise, and its key is public.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ZodError } from "zod";
import { formatJsonPath } from "../domain/judge-problems.ts";
import { TASK_TYPE_IDS, taskType, type TaskTypeId } from "../task-types/registry.ts";
import { qualificationTestSchema, type QualificationTest } from "../domain/qualification.ts";

/** Guidelines and MTurk templates exist per task type, named by its id. */
export const GUIDELINE_KINDS = TASK_TYPE_IDS;
export type GuidelineKind = TaskTypeId;

/** The task types' folders: <id>/guidelines.md and <id>/mturk.html in each. */
export function templatesDir(): string {
  return resolve(import.meta.dirname, "../task-types");
}

export class TemplateError extends Error {
  constructor(
    readonly file: string,
    readonly problems: { path: string; message: string }[],
  ) {
    super(problems.map((p) => `${file}: ${p.path}: ${p.message}`).join("\n"));
    this.name = "TemplateError";
  }
}

function readTemplate(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new TemplateError(file, [
      { path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` },
    ]);
  }
}

/** The Markdown guidelines for a task type, as written. */
export function loadGuidelines(kind: GuidelineKind, dir = templatesDir()): string {
  if (!(GUIDELINE_KINDS as readonly string[]).includes(kind)) {
    const problem = { path: "$", message: `unknown guideline kind "${kind}" (${GUIDELINE_KINDS.join(", ")})` };
    throw new TemplateError(join(dir, kind), [problem]);
  }
  const file = join(dir, taskType(kind).templateName, "guidelines.md");
  const text = readTemplate(file);
  if (text.trim() === "") throw new TemplateError(file, [{ path: "$", message: "the guidelines are empty" }]);
  return text;
}

/** Every task type's shipped guidelines, by task-type id (the study form's defaults). */
export function defaultGuidelines(dir = templatesDir()): Record<TaskTypeId, string> {
  return Object.fromEntries(TASK_TYPE_IDS.map((id) => [id, loadGuidelines(id, dir)])) as Record<TaskTypeId, string>;
}

/** The demo reading test: fine for trying the app out, but its key is in the public repository. */
export const DEMO_QUALIFICATION_TEST = "demo/qualification/english-comprehension.json";

let warnedDemoTest = false;

/** QUALIFICATION_TEST_FILE (relative paths from the working directory), else the demo test. */
export function qualificationTestFile(env: Record<string, string | undefined> = process.env): string {
  const configured = env.QUALIFICATION_TEST_FILE?.trim();
  if (configured) return resolve(process.cwd(), configured);
  if (env.NODE_ENV === "production" && !warnedDemoTest) {
    warnedDemoTest = true;
    console.warn(
      `QUALIFICATION_TEST_FILE is not set: crowd workers take the demo reading test, whose answer key is public (${DEMO_QUALIFICATION_TEST}). Point it at a private test before real crowd work.`,
    );
  }
  return resolve(process.cwd(), DEMO_QUALIFICATION_TEST);
}

/**
 * The crowd reading test (questions and answer key), checked against its schema. Server-only: send the browser
 * `withoutAnswers(test)`.
 */
export function loadQualificationTest(file: string = qualificationTestFile()): QualificationTest {
  let json: unknown;
  try {
    json = JSON.parse(readTemplate(file));
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError(file, [
      { path: "$", message: `invalid JSON: ${(err as Error).message.replace(/\s+/g, " ")}` },
    ]);
  }
  try {
    return qualificationTestSchema.parse(json);
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    throw new TemplateError(
      file,
      err.issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })),
    );
  }
}
