import { Form } from "@remix-run/react";
import { useState } from "react";
import { DEFAULT_LABELS_PER_ITEM, POOLS, type Pool } from "../../domain/study-config.ts";
import { isTaskTypeId, TASK_TYPE_IDS, type TaskTypeId, TASK_TYPES } from "../../task-types/registry.ts";
import type { StudyFormChoices } from "../../task-types/study-form.ts";
import { FormErrorSummary, type FormFailure } from "./FormErrorSummary.tsx";
import { FieldError, type FormValues } from "./StudyTypeFields.tsx";
import { STUDY_TYPE_FORMS } from "../../task-types/registry.tsx";

/** What the action answered: a refusal or a preview, each with the values that were posted. */
export type NewStudyResult =
  | (FormFailure & { ok: false; values?: Record<string, string | string[]> })
  | {
      ok: true;
      preview: { items: number; gold: number; uploadIgnored: boolean };
      values: Record<string, string | string[]>;
    };

export interface NewStudyFormProps {
  /** Per task type: how many units a new study can draw on. */
  available: Record<TaskTypeId, number>;
  /** Per task type: what its own fields offer to choose from. */
  choices: Record<TaskTypeId, StudyFormChoices>;
  defaultGuidelines: Record<TaskTypeId, string>;
  result: NewStudyResult | undefined;
  busy: boolean;
}

/** The fields every type has, by form name, as the error summary names them. */
const COMMON_LABELS: Record<string, string> = {
  type: "Type",
  name: "Name",
  pool: "Pool",
  labelsPerItem: "Labels per item",
  goldRate: "Gold rate",
  goldFeedback: "Gold feedback",
  seed: "Sampling seed",
  leaseMinutes: "Lease",
  guidelines: "Guidelines",
};

function formValues(posted: Record<string, string | string[]> | undefined): FormValues {
  return {
    value: (name) => {
      const v = posted?.[name];
      return Array.isArray(v) ? v[0] : v;
    },
    values: (name) => ([] as string[]).concat(posted?.[name] ?? []),
  };
}

function PreviewLine({ preview }: { preview: { items: number; gold: number; uploadIgnored: boolean } }) {
  return (
    <p className="notice" role="status" data-testid="study-preview">
      This study would have <strong>{preview.items}</strong> item{preview.items === 1 ? "" : "s"}
      {preview.gold ? `, ${preview.gold} of them gold` : ""}.
      {preview.uploadIgnored ? " Pairs in the uploaded bundle are added when the study is created." : ""}
    </p>
  );
}

/** Where a field's problems come from: the refusal's messages for that field, or nothing. */
type ProblemAt = (path: string) => string | undefined;

/** The task-type radio buttons, each with how many units a study of that type could draw on. */
function TypeChoice({
  type,
  onChange,
  available,
  problem,
}: {
  type: TaskTypeId;
  onChange: (type: TaskTypeId) => void;
  available: Record<TaskTypeId, number>;
  problem: ProblemAt;
}) {
  return (
    <fieldset className="inline-choices" id="field-type">
      <legend>Type</legend>
      {TASK_TYPE_IDS.map((id) => (
        <label key={id}>
          <input type="radio" name="type" value={id} checked={type === id} onChange={() => onChange(id)} />
          {` ${TASK_TYPES[id].displayName} (${STUDY_TYPE_FORMS[id].availability(available[id])})`}
        </label>
      ))}
      <FieldError message={problem("type")} />
    </fieldset>
  );
}

/** Gold rate, sampling seed and lease: fields every type has, after the type's own. */
function SamplingFields({ posted, problem }: { posted: FormValues; problem: ProblemAt }) {
  return (
    <>
      <label>
        Gold rate (gold items per regular item){" "}
        <input
          name="goldRate"
          id="field-goldRate"
          type="number"
          step="0.05"
          min={0}
          max={1}
          placeholder="0"
          defaultValue={posted.value("goldRate")}
        />
        <FieldError message={problem("goldRate")} />
      </label>
      <label className="settings-check">
        <input
          type="checkbox"
          name="goldFeedback"
          id="field-goldFeedback"
          defaultChecked={posted.value("goldFeedback") === "on"}
        />{" "}
        Gold feedback: after answering a gold item, the annotator is told whether the answer matched and what was
        expected (off: gold items look like any other)
      </label>
      <label>
        Sampling seed{" "}
        <input name="seed" id="field-seed" type="number" placeholder="1" defaultValue={posted.value("seed")} />
        <FieldError message={problem("seed")} />
      </label>
      <label>
        Lease (minutes){" "}
        <input
          name="leaseMinutes"
          id="field-leaseMinutes"
          type="number"
          min={1}
          placeholder="30"
          defaultValue={posted.value("leaseMinutes")}
        />
        <FieldError message={problem("leaseMinutes")} />
      </label>
    </>
  );
}

/**
 * The "New study" form: type, name, pool, the type's own fields, sampling and guidelines. A refused form keeps every
 * value.
 */
export function NewStudyForm({ available, choices, defaultGuidelines, result, busy }: NewStudyFormProps) {
  const posted = formValues(result?.values);
  const postedType = posted.value("type");
  const postedPool = posted.value("pool");
  const [type, setType] = useState<TaskTypeId>(isTaskTypeId(postedType) ? postedType : TASK_TYPE_IDS[0]);
  const [pool, setPool] = useState<Pool>(postedPool === "crowd" ? "crowd" : "expert");
  const failure = result && !result.ok ? result : undefined;
  const problem = (path: string) =>
    failure?.problems
      .filter((p) => p.path === path)
      .map((p) => p.message)
      .join("; ") || undefined;
  const { Fields, fieldLabels } = STUDY_TYPE_FORMS[type];
  // The posted guidelines belong to the type they were posted with.
  const guidelines =
    postedType === type ? (posted.value("guidelines") ?? defaultGuidelines[type]) : defaultGuidelines[type];
  return (
    <Form method="post" encType="multipart/form-data" className="stack-form wide" aria-label="New study">
      {failure ? <FormErrorSummary failure={failure} labels={{ ...COMMON_LABELS, ...fieldLabels }} /> : null}
      <TypeChoice type={type} onChange={setType} available={available} problem={problem} />
      <label>
        Name{" "}
        <input
          name="name"
          id="field-name"
          required
          defaultValue={posted.value("name")}
          aria-invalid={problem("name") ? true : undefined}
        />
        <FieldError message={problem("name")} />
      </label>
      <fieldset className="inline-choices" id="field-pool">
        <legend>Pool</legend>
        {POOLS.map((p) => (
          <label key={p}>
            <input type="radio" name="pool" value={p} checked={pool === p} onChange={() => setPool(p)} />{" "}
            {p === "expert" ? "Expert" : "Crowd"}
          </label>
        ))}
        <FieldError message={problem("pool")} />
      </fieldset>
      <label>
        Labels per item{" "}
        <input
          name="labelsPerItem"
          id="field-labelsPerItem"
          type="number"
          min={1}
          max={20}
          placeholder={String(DEFAULT_LABELS_PER_ITEM[pool])}
          defaultValue={posted.value("labelsPerItem")}
        />
        <FieldError message={problem("labelsPerItem")} />
      </label>
      <Fields available={available[type]} choices={choices[type]} problem={problem} posted={posted} />
      <SamplingFields posted={posted} problem={problem} />
      <label>
        Guidelines (Markdown)
        <textarea
          name="guidelines"
          id="field-guidelines"
          rows={12}
          key={type}
          defaultValue={guidelines}
          className="code-input"
        />
        <FieldError message={problem("guidelines")} />
      </label>
      {result?.ok ? <PreviewLine preview={result.preview} /> : null}
      <div className="actions">
        <button type="submit" disabled={busy}>
          Create study
        </button>
        <button type="submit" name="intent" value="preview" className="button-secondary" formNoValidate disabled={busy}>
          Preview item count
        </button>
      </div>
    </Form>
  );
}
