/** The New-study fields only a consensus study has: how many trajectories to sample, and where gold comes from. */
import { FieldError, type StudyTypeFieldsProps } from "../../components/admin/StudyTypeFields.tsx";

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
export function ConsensusFields({ available, choices, problem, posted }: StudyTypeFieldsProps) {
  return (
    <>
      <label>
        Trajectories to sample (stratified over domain × mediator){" "}
        <input
          name="trajectories"
          id="field-trajectories"
          type="number"
          min={1}
          max={available}
          required
          defaultValue={posted.value("trajectories")}
        />
        <FieldError message={problem("trajectories")} />
      </label>
      <GoldSourceChoice choices={choices} problem={problem} posted={posted} />
    </>
  );
}
