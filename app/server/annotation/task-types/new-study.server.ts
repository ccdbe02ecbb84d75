/** What every study type's creation shares: the common fields' schema, their checks, and the insert. */
import { z } from "zod";
import { DEFAULT_LABELS_PER_ITEM, parseStudyConfig, POOLS, studyConfigSchema, type Pool } from "../../../domain/study-config.ts";
import type { TaskTypeId } from "../../../domain/tasks/ids.ts";
import type { Db } from "../../db.server.ts";
import { badInput, zodProblems } from "../../http/errors.server.ts";
import { insertStudyWithItems, type NewStudyItem } from "../../models/study.server.ts";

export const baseStudySchema = z.object({
  name: z.string().trim().min(1, "must not be empty").max(120),
  pool: z.enum(POOLS),
  labelsPerItem: z.number().int().min(1, "at least 1").max(20).optional(),
  guidelines: z.string().max(100_000).default(""),
  config: studyConfigSchema.partial().default({}),
});

/** The New-study form's fields every type shares, as the type's own schema takes them. */
export type CommonStudyInput = z.input<typeof baseStudySchema>;

export function parseOrThrow<T>(schemaToUse: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): T {
  const parsed = schemaToUse.safeParse(input);
  if (!parsed.success) {
    throw badInput("The study is not valid", zodProblems(parsed.error));
  }
  return parsed.data;
}

export type NewItem<Id extends TaskTypeId = TaskTypeId> = NewStudyItem & { kind: Id; isGold: boolean };

export function insertStudy<Id extends TaskTypeId>(db: Db, type: Id, base: z.infer<typeof baseStudySchema>, items: NewItem<Id>[], extraConfig: Record<string, unknown>): number {
  const config = parseStudyConfig({ ...base.config, ...extraConfig });
  const labelsPerItem = base.labelsPerItem ?? DEFAULT_LABELS_PER_ITEM[base.pool as Pool];
  return insertStudyWithItems(db, { name: base.name, type, pool: base.pool, labelsPerItem, guidelines: base.guidelines, status: "open", config }, items);
}

/** A numeric form field: undefined when absent or empty (the schema reports what is missing). */
export function formNumber(form: FormData, name: string): number | undefined {
  const v = form.get(name);
  return v === null || v === "" ? undefined : Number(v);
}
