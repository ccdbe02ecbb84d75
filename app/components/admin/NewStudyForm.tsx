import { Form } from "@remix-run/react";
import { useState } from "react";
import { TASK_TYPE_IDS, type TaskTypeId } from "../../domain/tasks/ids.ts";
import { TASK_TYPES } from "../../domain/tasks/registry.ts";
import type { StudyFormChoices } from "../../domain/tasks/study-form.ts";
import { FieldError, STUDY_TYPE_FORMS } from "./StudyTypeFields.tsx";

export interface NewStudyFormProps {
  /** Per task type: how many units a new study can draw on. */
  available: Record<TaskTypeId, number>;
  /** Per task type: what its own fields offer to choose from. */
  choices: Record<TaskTypeId, StudyFormChoices>;
  defaultGuidelines: Record<TaskTypeId, string>;
  failure: { message: string; problems: { path: string; message: string }[] } | undefined;
  busy: boolean;
  /** Changes after each created study, so the form starts empty again. */
  formKey: number;
}

/** The "New study" form: type, name, pool, the type's own fields, sampling and guidelines. */
export function NewStudyForm({ available, choices, defaultGuidelines, failure, busy, formKey }: NewStudyFormProps) {
  const [type, setType] = useState<TaskTypeId>(TASK_TYPE_IDS[0]);
  const [pool, setPool] = useState<"expert" | "crowd">("expert");
  const problem = (path: string) => failure?.problems.find((p) => p.path === path)?.message;
  const { Fields } = STUDY_TYPE_FORMS[type];
  return (
    <Form method="post" encType="multipart/form-data" className="stack-form wide" key={formKey}>
      <fieldset className="inline-choices">
        <legend>Type</legend>
        {TASK_TYPE_IDS.map((id) => (
          <label key={id}>
            <input type="radio" name="type" value={id} checked={type === id} onChange={() => setType(id)} />
            {` ${TASK_TYPES[id].displayName} (${STUDY_TYPE_FORMS[id].availability(available[id])})`}
          </label>
        ))}
      </fieldset>
      <label>
        Name <input name="name" required />
        <FieldError message={problem("name")} />
      </label>
      <fieldset className="inline-choices">
        <legend>Pool</legend>
        <label>
          <input type="radio" name="pool" value="expert" checked={pool === "expert"} onChange={() => setPool("expert")} /> Expert
        </label>
        <label>
          <input type="radio" name="pool" value="crowd" checked={pool === "crowd"} onChange={() => setPool("crowd")} /> Crowd
        </label>
      </fieldset>
      <label>
        Labels per item <input name="labelsPerItem" type="number" min={1} max={20} placeholder={pool === "expert" ? "2" : "3"} />
      </label>
      <Fields available={available[type]} choices={choices[type]} problem={problem} />
      <label>
        Gold rate (gold items per regular item) <input name="goldRate" type="number" step="0.05" min={0} max={1} placeholder="0" />
      </label>
      <label>
        Sampling seed <input name="seed" type="number" placeholder="1" />
      </label>
      <label>
        Lease (minutes) <input name="leaseMinutes" type="number" min={1} placeholder="30" />
      </label>
      <label>
        Guidelines (Markdown)
        <textarea name="guidelines" rows={12} key={type} defaultValue={defaultGuidelines[type]} className="code-input" />
      </label>
      {failure ? (
        <p className="form-error" role="alert">
          {failure.message}
          {failure.problems.length ? `: ${failure.problems.map((p) => `${p.path} ${p.message}`).join("; ")}` : ""}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        Create study
      </button>
    </Form>
  );
}
