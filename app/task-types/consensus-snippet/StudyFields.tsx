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

/**
 * How the trajectories are chosen: all at once (stratified) or one at a time where the judge is least sure (active,
 * docs/active-labelling.md), with the judge backbone(s) an active study reads.
 */
function AllocationChoice({ choices, problem, posted }: Pick<StudyTypeFieldsProps, "choices" | "problem" | "posted">) {
  const judges = choices.judges ?? [];
  // The first select carries the id an error about the judges links to.
  const judgeSelect = (name: string, id: string, label: string, optional: boolean) => (
    <div className="field-block">
      <label htmlFor={id}>{label}</label>
      <select name={name} id={id} defaultValue={posted.value(name) ?? (optional ? "" : judges[0])}>
        {optional ? <option value="">none</option> : null}
        {judges.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <fieldset className="active-allocation">
      <legend>Allocation</legend>
      <div className="field-block">
        <label htmlFor="field-allocation">How trajectories are chosen</label>
        <select name="allocation" id="field-allocation" defaultValue={posted.value("allocation") ?? "stratified"}>
          <option value="stratified">stratified: all sampled now, over domain × mediator</option>
          <option value="active">active: drawn one at a time, favouring runs the judge is least sure of</option>
        </select>
      </div>
      <p className="active-help">
        Active: each mediator&apos;s runs are drawn as annotators ask for work, with known probabilities that favour the
        runs where the judge is least certain, so the dashboard can estimate each mediator&apos;s expert-scale score
        with a valid interval and tell you when to stop. The trajectories number is then the most runs it will draw.
      </p>
      {judges.length ? (
        <>
          {judgeSelect(
            "judgeBackbone",
            "field-judgeBackbones",
            "Judge (active: the evaluator backbone to calibrate)",
            false,
          )}
          {judgeSelect(
            "judgeBackbone2",
            "field-judgeBackbone2",
            "Second judge (optional: their disagreement is the uncertainty)",
            true,
          )}
        </>
      ) : (
        <p className="active-help">No topic-localized evaluation is stored, so an active study cannot be made yet.</p>
      )}
      <FieldError message={problem("judgeBackbones") ?? problem("allocation")} />
    </fieldset>
  );
}

/** Fields only a consensus study has: how many trajectories, how they are chosen, and where gold comes from. */
export function ConsensusFields({ available, choices, problem, posted }: StudyTypeFieldsProps) {
  return (
    <>
      <label>
        Trajectories to sample (stratified over domain × mediator; active: the most to draw){" "}
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
      <AllocationChoice choices={choices} problem={problem} posted={posted} />
      <GoldSourceChoice choices={choices} problem={problem} posted={posted} />
    </>
  );
}
