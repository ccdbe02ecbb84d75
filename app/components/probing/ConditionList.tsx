/**
 * The scenario page's Conditions section: the 15 benchmark conditions in Table 5 order (the
 * missing ones with the command that expands them), then the persona-fidelity conditions in a
 * collapsed list. Each shows how it was made, its runs, and what it changed.
 */
import { Link } from "@remix-run/react";
import type { ConditionEntry, ConditionListing } from "../../domain/probing/condition-listing.ts";
import { ConditionDiffView, PersonaChips } from "./ConditionDiffView.tsx";
import { Term } from "../Term.tsx";

/** Method, writer model, seed, length ratio and prompt version, as far as the condition records them. */
function Provenance({ entry }: { entry: ConditionEntry }) {
  const p = entry.provenance;
  if (!p) return entry.axis === "general" ? null : <span className="muted">no provenance recorded</span>;
  const parts = [
    p.method === "writer" ? `writer${p.writer_model ? ` ${p.writer_model}` : ""}` : "template (no LLM call)",
    p.seed_id === null ? "from the background (no seed report)" : p.seed_id ? `seed ${p.seed_id}` : null,
    p.length_ratio !== undefined ? `length ×${p.length_ratio.toFixed(2)}` : null,
    p.repaired ? "repaired" : null,
  ].filter(Boolean);
  return (
    <span className="provenance">
      {parts.join(" · ")} · <Term k="prompt-version">prompt</Term> {p.prompt_version}
    </span>
  );
}

function RunsLink({ entry }: { entry: ConditionEntry }) {
  if (entry.runs === 0) return <span className="muted">no runs</span>;
  return (
    <Link
      to={`/runs?condition=${encodeURIComponent(entry.id)}`}
    >{`${entry.runs} run${entry.runs === 1 ? "" : "s"}`}</Link>
  );
}

function ConditionItem({ entry, probeCommand }: { entry: ConditionEntry; probeCommand: string }) {
  const chips = entry.diff ? [...new Set(entry.diff.parties.flatMap((p) => p.chips.map((c) => `${p.id} ${c}`)))] : [];
  return (
    <li className={entry.stored ? "condition-item" : "condition-item condition-missing"} data-condition={entry.id}>
      <div className="condition-head">
        <span className="condition-axis">{entry.axis}</span> <strong>{entry.variant}</strong>{" "}
        {entry.stored ? (
          <>
            <PersonaChips chips={chips} /> <Provenance entry={entry} /> <RunsLink entry={entry} />
          </>
        ) : (
          <span className="muted">
            not expanded yet — <code>{probeCommand}</code>
          </span>
        )}
      </div>
      {entry.axis === "general" && entry.stored && !entry.diff ? (
        <p className="muted">Plays the scenario as written above.</p>
      ) : null}
      {entry.diff ? (
        <details className="condition-diff">
          <summary>What it changed</summary>
          <ConditionDiffView diff={entry.diff} />
        </details>
      ) : null}
    </li>
  );
}

function FidelityConditions({ entries, probeCommand }: { entries: ConditionEntry[]; probeCommand: string }) {
  if (entries.length === 0) return null;
  const runs = entries.reduce((s, e) => s + e.runs, 0);
  return (
    <details className="fidelity-conditions">
      <summary>
        Persona-fidelity conditions: {entries.length} ({runs} run{runs === 1 ? "" : "s"})
      </summary>
      <p className="muted">
        One party at a reactiveness level, every other party at a reference level; played by the A/B pairs of{" "}
        <code>npx socrates fidelity pairs</code>.
      </p>
      <ol className="condition-list">
        {entries.map((e) => (
          <ConditionItem key={e.id} entry={e} probeCommand={probeCommand} />
        ))}
      </ol>
    </details>
  );
}

export function ConditionList({ listing }: { listing: ConditionListing }) {
  const stored = listing.benchmark.length - listing.missing;
  return (
    <section aria-labelledby="conditions-title" className="conditions">
      <h2 id="conditions-title">Conditions</h2>
      <p className="muted">
        {stored} of the {listing.benchmark.length} benchmark conditions stored (the paper's Table 5 order); each was
        expanded from the general scenario.
      </p>
      {listing.missing > 0 ? (
        <p className="empty-state">
          {listing.missing === listing.benchmark.length
            ? "No condition is stored yet."
            : `${listing.missing} not expanded yet.`}{" "}
          Expand them with <code>{listing.probeCommand}</code>.
        </p>
      ) : null}
      <ol className="condition-list">
        {listing.benchmark.map((e) => (
          <ConditionItem key={e.id} entry={e} probeCommand={listing.probeCommand} />
        ))}
      </ol>
      <FidelityConditions entries={listing.fidelity} probeCommand={listing.probeCommand} />
    </section>
  );
}
