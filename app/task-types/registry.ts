/**
 * The task-type registry: every task type's pure definition, keyed by its id. The id list,
 * TaskTypeId, the label payload union (and its schema) and the blinded-view union are derived from
 * this one list, so adding a type is its folder plus one line here, one in registry.server.ts and
 * one in registry.tsx (see app/task-types/README.md). Code that differs by task type looks the
 * definition up here instead of branching on the type's name.
 */
import { z } from "zod";
import { abReactiveness } from "./ab-reactiveness/definition.ts";
import { consensusSnippet } from "./consensus-snippet/definition.ts";
import type { LabelCheckContext, LabelProblem, TaskTypeDefinition } from "./task-type.ts";

export const TASK_TYPES = {
  [consensusSnippet.id]: consensusSnippet,
  [abReactiveness.id]: abReactiveness,
};

type Registry = typeof TASK_TYPES;
export type TaskTypeId = keyof Registry & string;

/** The ids in registry order (the New-study form's order). */
export const TASK_TYPE_IDS = Object.keys(TASK_TYPES) as readonly TaskTypeId[];

// Each definition's label and view, read off its type (the definitions name them once).
type Parts<Id extends TaskTypeId> =
  Registry[Id] extends TaskTypeDefinition<Id, infer Label, infer View, infer Summary, infer GoldItem>
    ? { label: Label; view: View; summary: Summary; goldItem: GoldItem }
    : never;

/** Any type's label payload, discriminated by `kind`. */
export type LabelPayload = { [Id in TaskTypeId]: Parts<Id>["label"] }[TaskTypeId];
/** Any type's blinded view, discriminated by `kind`. */
export type TaskView = { [Id in TaskTypeId]: Parts<Id>["view"] }[TaskTypeId];
/** Any type's answer in words (label-review), discriminated by `kind`. */
export type AnswerSummary = { [Id in TaskTypeId]: Parts<Id>["summary"] }[TaskTypeId];
/** A type's gold item, as its gold rules read it. */
export type GoldItemOf<Id extends TaskTypeId> = { [K in TaskTypeId]: Parts<K>["goldItem"] }[Id];
export type LabelOf<Id extends TaskTypeId> = Extract<LabelPayload, { kind: Id }>;
export type ViewOf<Id extends TaskTypeId> = Extract<TaskView, { kind: Id }>;

type KindSchema = z.ZodObject<{ kind: z.ZodLiteral<TaskTypeId> } & z.ZodRawShape>;
/** What a submit must match: one of the types' label schemas, chosen by `kind`. */
export const labelPayloadSchema = z.discriminatedUnion(
  "kind",
  TASK_TYPE_IDS.map((id) => TASK_TYPES[id].labelSchema) as unknown as [KindSchema, KindSchema, ...KindSchema[]],
) as unknown as z.ZodType<LabelPayload> & { options: KindSchema[] };

export function isTaskTypeId(value: unknown): value is TaskTypeId {
  return (TASK_TYPE_IDS as readonly unknown[]).includes(value);
}

export class UnknownTaskTypeError extends Error {
  constructor(readonly id: string) {
    super(`unknown task type "${id}" (known: ${TASK_TYPE_IDS.join(", ")})`);
    this.name = "UnknownTaskTypeError";
  }
}

/** Any type's definition, as code that does not know the type statically sees it. */
export type AnyTaskType = TaskTypeDefinition<TaskTypeId, LabelPayload, TaskView, AnswerSummary, GoldItemOf<TaskTypeId>>;

/** The definition of a task type by id; throws UnknownTaskTypeError for any other string. */
export function taskType<Id extends TaskTypeId>(id: Id): Registry[Id];
export function taskType(id: string): AnyTaskType;
export function taskType(id: string): AnyTaskType {
  if (!isTaskTypeId(id)) throw new UnknownTaskTypeError(id);
  return TASK_TYPES[id] as unknown as AnyTaskType;
}

/** The display name of a task type, or the raw string for one this build does not know. */
export function taskTypeName(id: string): string {
  return isTaskTypeId(id) ? TASK_TYPES[id].displayName : id;
}

/** Checks a label with its own type's check (the payload's kind names its type). */
export function checkLabel(label: LabelPayload, context: LabelCheckContext<LabelPayload>): Promise<LabelProblem[]> {
  return taskType(label.kind as string).checkLabel(label, context);
}

/** One HIT's input-CSV values for a blinded task view, by the view's task type. */
export function hitValues(view: TaskView, ids: { studyId: number; itemId: number }): Record<string, string> {
  return taskType(view.kind as string).mturk.hitValues({ ...view, ...ids });
}
