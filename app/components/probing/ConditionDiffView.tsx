/** What one condition changed against the general scenario: background text, topics, and each party. */
import type { ConditionDiff, FieldChange, PartyDiff, TextDiff } from "../../domain/probing/condition-diff.ts";
import { formatLevel } from "../../domain/probing/personas.ts";

/** Text with the condition's additions as <ins> and its removals as <del>. */
export function TextDiffView({ diff }: { diff: TextDiff }) {
  return (
    <p className="text-diff">
      {diff.segments.map((s, i) =>
        s.kind === "added" ? (
          <ins key={i}>{s.text}</ins>
        ) : s.kind === "removed" ? (
          <del key={i}>{s.text}</del>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </p>
  );
}

const BACKGROUND_CHANGE = {
  unchanged: "Background unchanged.",
  appended: "Background: text added after the original.",
  prepended: "Background: text added before the original, which follows unchanged.",
  changed: "Background: changed in the middle.",
} as const;

export function PersonaChips({ chips }: { chips: string[] }) {
  return chips.map((c) => (
    <span key={c} className="chip persona-chip">
      {c}
    </span>
  ));
}

/** A field's value as people read it: reactiveness levels as 0, 1/3, 2/3, 1; absent as a dash. */
const show = (field: FieldChange["field"], v: string | number | null) =>
  v === null ? "—" : field === "reactiveness" && typeof v === "number" ? formatLevel(v) : String(v);

/** The changed fields other than persona text (shown as a diff below them). */
function FieldChanges({ changes }: { changes: FieldChange[] }) {
  const shown = changes.filter((c) => c.field !== "persona");
  if (shown.length === 0) return null;
  return (
    <ul className="field-changes">
      {shown.map((c) => (
        <li key={`${c.field}:${c.topic ?? ""}`}>
          {c.field}
          {c.topic ? <code> {c.topic}</code> : null}: <del>{show(c.field, c.before)}</del> →{" "}
          <ins>{show(c.field, c.after)}</ins>
        </li>
      ))}
    </ul>
  );
}

function AddedParty({ party }: { party: NonNullable<PartyDiff["party"]> }) {
  return (
    <ul className="field-changes">
      <li>role: {party.role}</li>
      <li>relation: {party.relation}</li>
      {Object.keys(party.preferences).map((t) => (
        <li key={t}>
          <code>{t}</code> ({party.weights[t]}/10): {party.preferences[t]}
        </li>
      ))}
    </ul>
  );
}

function PartyChange({ party }: { party: PartyDiff }) {
  return (
    <li className={`party-diff party-${party.status}`}>
      <strong>{party.name}</strong> <code>{party.id}</code> <span className="badge">{party.status}</span>{" "}
      <PersonaChips chips={party.chips} />
      {party.party ? <AddedParty party={party.party} /> : <FieldChanges changes={party.changes} />}
      {party.persona ? <TextDiffView diff={party.persona} /> : null}
    </li>
  );
}

export function ConditionDiffView({ diff }: { diff: ConditionDiff }) {
  const { added, removed, changed } = diff.topics;
  const topicChanges = [
    ...added.map((t) => `${t} added`),
    ...removed.map((t) => `${t} removed`),
    ...changed.map((t) => `${t} changed`),
  ];
  const same = diff.parties.filter((p) => p.status === "unchanged");
  const changedParties = diff.parties.filter((p) => p.status !== "unchanged");
  return (
    <div className="condition-diff-body">
      <p>{BACKGROUND_CHANGE[diff.background.change]}</p>
      {diff.background.change === "unchanged" ? null : <TextDiffView diff={diff.background} />}
      <p className={topicChanges.length ? "form-error" : "muted"}>
        {topicChanges.length ? `Topics: ${topicChanges.join(", ")}.` : "Topics unchanged."}
      </p>
      {changedParties.length ? (
        <ul className="party-diffs">
          {changedParties.map((p) => (
            <PartyChange key={p.id} party={p} />
          ))}
        </ul>
      ) : null}
      {same.length ? <p className="muted">Unchanged: {same.map((p) => p.name).join(", ")}.</p> : null}
    </div>
  );
}
