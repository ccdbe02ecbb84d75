/**
 * One task type, declared once: everything the studies, the label store, the crowd channels and
 * the UI need to know about it. The definitions live beside this file, one per task type, and
 * registry.ts lists them; the React component of each is mapped by id in
 * app/components/tasks/registry.ts (the domain imports no React).
 */
import type { z } from "zod";
import type { AnswerResult, AnswerScenario } from "../crowd/answer-fields.ts";
import type { LabelPayload, LabelProblem } from "../labels.ts";
import type { Party, Topic } from "../bundle.ts";
import type { TaskTypeId } from "./ids.ts";
import type { TaskView } from "./task-view.ts";

export type LabelOf<Id extends TaskTypeId> = Extract<LabelPayload, { kind: Id }>;
export type ViewOf<Id extends TaskTypeId> = Extract<TaskView, { kind: Id }>;

/** What a label check may need beyond the label; read lazily, so a type that needs nothing costs nothing. */
export interface LabelCheckContext<Id extends TaskTypeId> {
  /** The scenario as played in the labelled conversation. */
  scenario: () => { topics: readonly Topic[]; parties: readonly Pick<Party, "id">[] };
  /** The annotator's own label on the preceding item of the same conversation, if any. */
  previousLabel: () => LabelOf<Id> | null;
}

/** A HIT's title, description and search keywords on Mechanical Turk. */
export interface HitTexts {
  title: string;
  description: string;
  keywords: string[];
}

export interface MturkTemplateSpec<Id extends TaskTypeId> {
  /** The input-CSV columns the template may use. */
  variables: readonly string[];
  /** Columns the template must use for an answer to come back. */
  requiredVariables: readonly string[];
  /** Form-field markup the template must contain (the results import reads these fields). */
  requiredFields: readonly string[];
  texts: HitTexts;
  /** One HIT's values (safe HTML) from the blinded task view. */
  hitValues: (input: ViewOf<Id> & { studyId: number; itemId: number }) => Record<string, string>;
  /** A worker's `taskAnswers` as a label payload; `scenario` is read only by types that need it. */
  payloadFromAnswers: (answers: Record<string, unknown>, scenario: () => AnswerScenario) => AnswerResult;
}

/** How the study dashboard words this type's figures. */
export interface DashboardTexts {
  /** What leaving flagged annotators out changes besides agreement: "alignment", "fidelity". */
  flaggedExcludedFrom: string;
  /** The agreement note's first sentence: what a unit is and who the raters are. */
  agreementUnits: (pool: string | null) => string;
}

export interface TaskTypeDefinition<Id extends TaskTypeId = TaskTypeId> {
  /** The one name: study type, study item kind and label payload kind. */
  id: Id;
  /** For people: "Snippet consensus". */
  displayName: string;
  /** The study form's choice: "Snippet". */
  shortName: string;
  /** The payload shape (zod); the registry's union of these is what a submit must match. */
  labelSchema: z.ZodType<LabelOf<Id>>;
  /** Checks a well-formed label against the item it labels; [] when it is fine. */
  checkLabel: (label: LabelOf<Id>, context: LabelCheckContext<Id>) => LabelProblem[];
  /** Seconds per item assumed for pay and cost before a study has timed labels. */
  defaultSecondsPerItem: number;
  /** File names under annotation-templates/: guidelines/<file>.md and mturk/<file>.html. */
  templateName: Id;
  mturk: MturkTemplateSpec<Id>;
  /**
   * What a task page reopens with: the autosaved draft when it is one of this type's (drafts are
   * stored unchecked, and may be incomplete), else the latest submitted label when it is.
   */
  resume: (draft: unknown, latest: LabelPayload | null) => LabelOf<Id> | null;
  dashboard: DashboardTexts;
}
