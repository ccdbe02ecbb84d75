/**
 * Reads the annotation guidelines and qualification tests shipped in annotation-templates/
 * (relative to the working directory, like db/demo). Every failure names the file, and for a
 * malformed test the JSON path, so a broken template is fixed at its source.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ZodError } from "zod";
import { formatJsonPath } from "../domain/judge-problems.ts";
import { TASK_TYPE_IDS, taskType, type TaskTypeId } from "../domain/tasks/registry.ts";
import { DEFAULT_QUALIFICATION_TEST_ID, qualificationTestSchema, type QualificationTest } from "../domain/qualification.ts";

/** Guidelines and MTurk templates exist per task type, named by its id. */
export const GUIDELINE_KINDS = TASK_TYPE_IDS;
export type GuidelineKind = TaskTypeId;

export function templatesDir(): string {
  return resolve(process.cwd(), "annotation-templates");
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
    throw new TemplateError(file, [{ path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` }]);
  }
}

/** The Markdown guidelines for a task type, as written. */
export function loadGuidelines(kind: GuidelineKind, dir = templatesDir()): string {
  if (!(GUIDELINE_KINDS as readonly string[]).includes(kind)) {
    throw new TemplateError(join(dir, "guidelines"), [{ path: "$", message: `unknown guideline kind "${kind}" (${GUIDELINE_KINDS.join(", ")})` }]);
  }
  const file = join(dir, "guidelines", `${taskType(kind).templateName}.md`);
  const text = readTemplate(file);
  if (text.trim() === "") throw new TemplateError(file, [{ path: "$", message: "the guidelines are empty" }]);
  return text;
}

/** Every task type's shipped guidelines, by task-type id (the study form's defaults). */
export function defaultGuidelines(dir = templatesDir()): Record<TaskTypeId, string> {
  return Object.fromEntries(TASK_TYPE_IDS.map((id) => [id, loadGuidelines(id, dir)])) as Record<TaskTypeId, string>;
}

/** A qualification test by id (its file name without .json), checked against its schema. */
export function loadQualificationTest(id: string = DEFAULT_QUALIFICATION_TEST_ID, dir = templatesDir()): QualificationTest {
  const folder = join(dir, "qualification");
  // The id becomes a file name: refuse anything that could leave the folder.
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw new TemplateError(folder, [{ path: "$", message: `"${id}" is not a qualification test id (lower-case letters, digits, '-')` }]);
  const file = join(folder, `${id}.json`);
  let json: unknown;
  try {
    json = JSON.parse(readTemplate(file));
  } catch (err) {
    if (err instanceof TemplateError) throw err;
    throw new TemplateError(file, [{ path: "$", message: `invalid JSON: ${(err as Error).message.replace(/\s+/g, " ")}` }]);
  }
  let test: QualificationTest;
  try {
    test = qualificationTestSchema.parse(json);
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    throw new TemplateError(file, err.issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })));
  }
  if (test.id !== id) throw new TemplateError(file, [{ path: "$.id", message: `the test in ${id}.json must have id "${id}", got "${test.id}"` }]);
  return test;
}
