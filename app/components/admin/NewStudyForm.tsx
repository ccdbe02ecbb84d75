import { Form } from "@remix-run/react";
import { useState } from "react";

type StudyType = "consensus-snippet" | "ab-reactiveness";

export interface NewStudyFormProps {
  available: { trajectories: number; pairs: number };
  defaultGuidelines: Record<StudyType, string>;
  failure: { message: string; problems: { path: string; message: string }[] } | undefined;
  busy: boolean;
  /** Changes after each created study, so the form starts empty again. */
  formKey: number;
}

const FieldError = ({ message }: { message: string | undefined }) => (message ? <span className="field-error">{message}</span> : null);

/** Fields only a consensus study has: how many trajectories to sample, and where gold comes from. */
function ConsensusFields({ trajectories, problem }: { trajectories: number; problem: (path: string) => string | undefined }) {
  return (
    <>
      <label>
        Trajectories to sample (stratified over domain × mediator) <input name="trajectories" type="number" min={1} max={trajectories} required />
        <FieldError message={problem("trajectories")} />
      </label>
      <label>
        Gold snippets from study (id, optional) <input name="goldFromStudyId" type="number" min={1} />
      </label>
    </>
  );
}

/** Fields only an A/B study has: a bundle to import pairs from, or pair ids. */
function AbFields({ problem }: { problem: (path: string) => string | undefined }) {
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

/** The "New study" form: type, name, pool, the type's own fields, sampling and guidelines. */
export function NewStudyForm({ available, defaultGuidelines, failure, busy, formKey }: NewStudyFormProps) {
  const [type, setType] = useState<StudyType>("consensus-snippet");
  const [pool, setPool] = useState<"expert" | "crowd">("expert");
  const problem = (path: string) => failure?.problems.find((p) => p.path === path)?.message;
  return (
    <Form method="post" encType="multipart/form-data" className="stack-form wide" key={formKey}>
      <fieldset className="inline-choices">
        <legend>Type</legend>
        <label>
          <input type="radio" name="type" value="consensus-snippet" checked={type === "consensus-snippet"} onChange={() => setType("consensus-snippet")} /> Snippet
          consensus ({available.trajectories} evaluated trajectories available)
        </label>
        <label>
          <input type="radio" name="type" value="ab-reactiveness" checked={type === "ab-reactiveness"} onChange={() => setType("ab-reactiveness")} /> A/B
          reactiveness ({available.pairs} pairs available)
        </label>
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
      {type === "consensus-snippet" ? <ConsensusFields trajectories={available.trajectories} problem={problem} /> : <AbFields problem={problem} />}
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
