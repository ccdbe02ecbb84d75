/**
 * The New-study form's part that differs by task type, keyed by task-type id (app/domain/tasks):
 * what the type's choice says is available, and the type's own fields. The mapped type makes a
 * new task type a compile error here until its fields are added.
 */
import type { ReactElement } from "react";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../../domain/tasks/ids.ts";

export const FieldError = ({ message }: { message: string | undefined }) => (message ? <span className="field-error">{message}</span> : null);

export interface StudyTypeFieldsProps {
  /** How many units a study of this type can draw on (the server's count for this type). */
  available: number;
  problem: (path: string) => string | undefined;
}

interface StudyTypeForm {
  /** Follows the type's name on its radio button: "(… available)". */
  availability: (available: number) => string;
  Fields: (props: StudyTypeFieldsProps) => ReactElement;
}

/** Fields only a consensus study has: how many trajectories to sample, and where gold comes from. */
function ConsensusFields({ available, problem }: StudyTypeFieldsProps) {
  return (
    <>
      <label>
        Trajectories to sample (stratified over domain × mediator) <input name="trajectories" type="number" min={1} max={available} required />
        <FieldError message={problem("trajectories")} />
      </label>
      <label>
        Gold snippets from study (id, optional) <input name="goldFromStudyId" type="number" min={1} />
      </label>
    </>
  );
}

/** Fields only an A/B study has: a bundle to import pairs from, or pair ids. */
function AbFields({ problem }: StudyTypeFieldsProps) {
  return (
    <>
      <label>
        Import pairs from a bundle (JSON with <code>ab_pairs</code>, optional) <input name="bundle" type="file" accept=".json,application/json" />
        <FieldError message={problem("bundle")} />
      </label>
      <label>
        Pair ids (blank = the uploaded bundle's pairs, or all stored pairs) <textarea name="pairIds" rows={2} />
        <FieldError message={problem("pairIds")} />
      </label>
    </>
  );
}

export const STUDY_TYPE_FORMS: { [Id in TaskTypeId]: StudyTypeForm } = {
  [CONSENSUS_SNIPPET]: { availability: (n) => `${n} evaluated trajectories available`, Fields: ConsensusFields },
  [AB_REACTIVENESS]: { availability: (n) => `${n} pairs available`, Fields: AbFields },
};
