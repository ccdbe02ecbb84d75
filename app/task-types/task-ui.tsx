/**
 * What each task type shows in the browser, declared once per type (its folder's ui.tsx) and
 * listed by id in registry.tsx: its task component, its New-study fields, its dashboard section
 * and its answer summary. Kept apart from the registry so the types' files need nothing from it.
 */
import type { ReactElement } from "react";
import type { PageShortcut } from "../domain/shortcuts.ts";
import type { KeyOverrides } from "../domain/hotkeys.ts";
import type { LabelPayload } from "./registry.ts";
import type { FieldProblem, TaskProgressValue } from "./task-view.ts";
import type { StudyTypeFieldsProps } from "../components/admin/StudyTypeFields.tsx";
import type { TypeFigures } from "../components/dashboard/type-figures.ts";

/** What every task component gets from the page, whatever its type. */
export interface TaskComponentProps<View = unknown> {
  itemId: number;
  task: View;
  /** The task page's typed part (the type's handlers fill them): what the form starts from. */
  previousLabel: unknown;
  initialLabel: unknown;
  initialChoice: unknown;
  guidelinesMarkdown: string;
  progress: TaskProgressValue;
  submitting: boolean;
  errors: FieldProblem[];
  /** Background and guidelines open at first (otherwise the components decide). */
  contextOpen?: boolean;
  readOnly?: boolean;
  submitText?: string;
  /** The page's shortcuts (skip, flag, undo), added to the task's keys and cheat sheet. */
  pageShortcuts?: readonly PageShortcut[];
  /** The annotator's auto-advance setting: a type with one answer submits as soon as it is chosen. */
  autoAdvance?: boolean;
  /** The annotator's own keys for this type's shortcuts (domain/hotkeys.ts); the defaults without. */
  keyOverrides?: KeyOverrides;
  /** The work in progress, for drafts: whatever the type autosaves. */
  onDraftChange: (draft: unknown) => void;
  onSubmit: (payload: LabelPayload) => void;
}

export interface StudyTypeForm {
  /** The type's own fields by form name, as the error summary names them. */
  fieldLabels: Record<string, string>;
  /** Follows the type's name on its radio button: "(… available)". */
  availability: (available: number) => string;
  Fields: (props: StudyTypeFieldsProps) => ReactElement;
}

/** A label's answer in words; `changed` holds the payload paths that differ from the revision before. */
export interface AnswerSummaryProps<Summary> {
  summary: Summary;
  changed: readonly string[];
  /** Each option's whole text instead of its shortened form. */
  full: boolean;
}

export interface TaskTypeUi<Id extends string, View = unknown, Summary = unknown> {
  id: Id;
  Task: (props: TaskComponentProps<View>) => ReactElement;
  studyForm: StudyTypeForm;
  DashboardSection: (figures: TypeFigures) => ReactElement;
  AnswerSummary: (props: AnswerSummaryProps<Summary>) => ReactElement;
}
