/**
 * What every task type's New-study fields are given and use (each type's fields are in its folder,
 * app/task-types/<id>/StudyFields.tsx, listed by the registry's studyForm entries).
 */
import type { StudyFormChoices } from "../../task-types/study-form.ts";

export const FieldError = ({ message }: { message: string | undefined }) =>
  message ? <span className="field-error">{message}</span> : null;

/** The values a refused form was posted with (empty on a fresh form), to refill its fields. */
export interface FormValues {
  value: (name: string) => string | undefined;
  values: (name: string) => string[];
}

export interface StudyTypeFieldsProps {
  /** How many units a study of this type can draw on (the server's count for this type). */
  available: number;
  /** What the server offers this type to choose from (an A/B study's simulator backbones). */
  choices: StudyFormChoices;
  problem: (path: string) => string | undefined;
  posted: FormValues;
}
