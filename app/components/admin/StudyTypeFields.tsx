/**
 * The New-study form's part that differs by task type, keyed by task-type id (app/domain/tasks):
 * what the type's choice says is available, and the type's own fields. The mapped type makes a
 * new task type a compile error here until its fields are added.
 */
import type { ReactElement } from "react";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../../domain/tasks/ids.ts";
import type { StudyFormChoices } from "../../domain/tasks/study-form.ts";

export const FieldError = ({ message }: { message: string | undefined }) => (message ? <span className="field-error">{message}</span> : null);

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

interface StudyTypeForm {
  /** The type's own fields by form name, as the error summary names them. */
  fieldLabels: Record<string, string>;
  /** Follows the type's name on its radio button: "(… available)". */
  availability: (available: number) => string;
  Fields: (props: StudyTypeFieldsProps) => ReactElement;
}

/** Where a consensus study's gold snippets come from: one of the consensus studies, or none. */
function GoldSourceChoice({ choices, problem, posted }: Pick<StudyTypeFieldsProps, "choices" | "problem" | "posted">) {
  const sources = choices.goldSources ?? [];
  const chosen = posted.value("goldFromStudyId") ?? "";
  // A posted id the list no longer offers (a study since removed) stays shown, so its error reads against it.
  const stale = chosen !== "" && !sources.some((s) => String(s.id) === chosen);
  return (
    // The label names the select alone (wrapped, it would read out every option).
    <div className="field-block">
      <label htmlFor="field-goldFromStudyId">Gold snippets from (used when the gold rate is above 0)</label>
      <select name="goldFromStudyId" id="field-goldFromStudyId" defaultValue={chosen}>
        <option value="">none</option>
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            #{s.id} {s.name} ({s.pool})
          </option>
        ))}
        {stale ? <option value={chosen}>study {chosen}</option> : null}
      </select>
      <FieldError message={problem("goldFromStudyId")} />
    </div>
  );
}

/** Fields only a consensus study has: how many trajectories to sample, and where gold comes from. */
function ConsensusFields({ available, choices, problem, posted }: StudyTypeFieldsProps) {
  return (
    <>
      <label>
        Trajectories to sample (stratified over domain × mediator){" "}
        <input name="trajectories" id="field-trajectories" type="number" min={1} max={available} required defaultValue={posted.value("trajectories")} />
        <FieldError message={problem("trajectories")} />
      </label>
      <GoldSourceChoice choices={choices} problem={problem} posted={posted} />
    </>
  );
}

/** One checkbox per simulator backbone with its pair count; none ticked = every backbone. */
function BackboneChoices({ choices, problem, posted }: Pick<StudyTypeFieldsProps, "choices" | "problem" | "posted">) {
  const backbones = choices.backbones ?? [];
  if (backbones.length === 0) return null;
  const ticked = new Set(posted.values("backbones"));
  return (
    <fieldset className="inline-choices backbone-choices" id="field-backbones">
      <legend>Simulator backbones (none ticked = all; the dashboard shows fidelity and alpha per backbone)</legend>
      {backbones.map((b) => (
        <label key={b.backbone}>
          <input type="checkbox" name="backbones" value={b.backbone} defaultChecked={ticked.has(b.backbone)} /> {b.backbone} ({b.pairs} pair{b.pairs === 1 ? "" : "s"})
        </label>
      ))}
      <FieldError message={problem("backbones")} />
    </fieldset>
  );
}

/** Fields only an A/B study has: the simulator backbones, a bundle to import pairs from, or pair ids. */
function AbFields({ choices, problem, posted }: StudyTypeFieldsProps) {
  return (
    <>
      <BackboneChoices choices={choices} problem={problem} posted={posted} />
      <label>
        Import pairs from a bundle (JSON with <code>ab_pairs</code>, optional) <input name="bundle" id="field-bundle" type="file" accept=".json,application/json" />
        <FieldError message={problem("bundle")} />
      </label>
      <label>
        Pair ids (blank = the uploaded bundle's pairs, or all stored pairs) <textarea name="pairIds" id="field-pairIds" rows={2} defaultValue={posted.value("pairIds")} />
        <FieldError message={problem("pairIds")} />
      </label>
    </>
  );
}

export const STUDY_TYPE_FORMS: { [Id in TaskTypeId]: StudyTypeForm } = {
  [CONSENSUS_SNIPPET]: {
    availability: (n) => `${n} evaluated trajectories available`,
    fieldLabels: { trajectories: "Trajectories to sample", goldFromStudyId: "Gold snippets from" },
    Fields: ConsensusFields,
  },
  [AB_REACTIVENESS]: {
    availability: (n) => `${n} pairs available`,
    fieldLabels: { backbones: "Simulator backbones", bundle: "Bundle", pairIds: "Pair ids" },
    Fields: AbFields,
  },
};
