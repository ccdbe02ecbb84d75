/**
 * The New-study form's part that differs by task type, keyed by task-type id (app/domain/tasks):
 * what the type's choice says is available, and the type's own fields. The mapped type makes a
 * new task type a compile error here until its fields are added.
 */
import type { ReactElement } from "react";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../../domain/tasks/ids.ts";
import type { StudyFormChoices } from "../../domain/tasks/study-form.ts";

export const FieldError = ({ message }: { message: string | undefined }) => (message ? <span className="field-error">{message}</span> : null);

export interface StudyTypeFieldsProps {
  /** How many units a study of this type can draw on (the server's count for this type). */
  available: number;
  /** What the server offers this type to choose from (an A/B study's simulator backbones). */
  choices: StudyFormChoices;
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

/** One checkbox per simulator backbone with its pair count; none ticked = every backbone. */
function BackboneChoices({ choices, problem }: Pick<StudyTypeFieldsProps, "choices" | "problem">) {
  const backbones = choices.backbones ?? [];
  if (backbones.length === 0) return null;
  return (
    <fieldset className="inline-choices backbone-choices">
      <legend>Simulator backbones (none ticked = all; the dashboard shows fidelity and alpha per backbone)</legend>
      {backbones.map((b) => (
        <label key={b.backbone}>
          <input type="checkbox" name="backbones" value={b.backbone} /> {b.backbone} ({b.pairs} pair{b.pairs === 1 ? "" : "s"})
        </label>
      ))}
      <FieldError message={problem("backbones")} />
    </fieldset>
  );
}

/** Fields only an A/B study has: the simulator backbones, a bundle to import pairs from, or pair ids. */
function AbFields({ choices, problem }: StudyTypeFieldsProps) {
  return (
    <>
      <BackboneChoices choices={choices} problem={problem} />
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
