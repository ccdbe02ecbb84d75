/** What every study type's creation shares: the common fields' schema, their checks, and the insert. */
import { z } from "zod";
import {
  DEFAULT_LABELS_PER_ITEM,
  parseStudyConfig,
  POOLS,
  studyConfigSchema,
  type Pool,
} from "../../domain/study-config.ts";
import type { TaskTypeId } from "../../task-types/registry.ts";
import type { Db } from "../db.server.ts";
import { badInput, zodProblems, type FieldProblem } from "../http/errors.server.ts";
import { insertStudyWithItems, type NewStudyItem } from "../models/study.server.ts";

export const baseStudySchema = z.object({
  name: z.string().trim().min(1, "give the study a name").max(120, "at most 120 characters"),
  pool: z.enum(POOLS, { errorMap: () => ({ message: "choose Expert or Crowd" }) }),
  labelsPerItem: z.number().int().min(1).max(20).optional(),
  guidelines: z.string().max(100_000).default(""),
  config: studyConfigSchema.partial().default({}),
});

/** The New-study form's fields every type shares, as the type's own schema takes them. */
export type CommonStudyInput = z.input<typeof baseStudySchema>;

/**
 * zod's messages in the form's terms, where a schema gives none of its own (a blank or non-numeric number field arrives
 * as NaN).
 */
const formErrorMap: z.ZodErrorMap = (issue, ctx) => {
  if (issue.code === z.ZodIssueCode.invalid_type) {
    if (issue.expected === "integer") return { message: "enter a whole number" };
    if (issue.expected === "number") return { message: "enter a number" };
    if (issue.received === "undefined") return { message: "required" };
  }
  if (issue.code === z.ZodIssueCode.too_small && issue.type === "number")
    return { message: `at least ${issue.minimum}` };
  if (issue.code === z.ZodIssueCode.too_big && issue.type === "number") return { message: `at most ${issue.maximum}` };
  if (issue.code === z.ZodIssueCode.too_big && issue.type === "string")
    return { message: `at most ${issue.maximum} characters` };
  return { message: ctx.defaultError };
};

/**
 * The input parsed by the schema, or a 400 listing the schema's problems with `found` (problems checked outside it,
 * e.g. against the database), all at once.
 */
export function parseOrThrow<T>(
  schemaToUse: z.ZodType<T, z.ZodTypeDef, unknown>,
  input: unknown,
  found: FieldProblem[] = [],
): T {
  const parsed = schemaToUse.safeParse(input, { errorMap: formErrorMap });
  if (!parsed.success || found.length) {
    const problems = [...(parsed.success ? [] : zodProblems(parsed.error)), ...found];
    throw badInput(
      `The study was not created: ${problems.length === 1 ? "one field needs" : `${problems.length} fields need`} attention`,
      problems,
    );
  }
  return parsed.data;
}

export type NewItem<Id extends TaskTypeId = TaskTypeId> = NewStudyItem & { kind: Id; isGold: boolean };

export async function insertStudy<Id extends TaskTypeId>(
  db: Db,
  type: Id,
  base: z.infer<typeof baseStudySchema>,
  items: NewItem<Id>[],
  extraConfig: Record<string, unknown>,
): Promise<number> {
  const config = parseStudyConfig({ ...base.config, ...extraConfig });
  const labelsPerItem = base.labelsPerItem ?? DEFAULT_LABELS_PER_ITEM[base.pool as Pool];
  return await insertStudyWithItems(
    db,
    { name: base.name, type, pool: base.pool, labelsPerItem, guidelines: base.guidelines, status: "open", config },
    items,
  );
}

/** A numeric form field: undefined when absent or empty (the schema reports what is missing). */
export function formNumber(form: FormData, name: string): number | undefined {
  const v = form.get(name);
  return v === null || v === "" ? undefined : Number(v);
}
