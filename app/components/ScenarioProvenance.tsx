/** Where an imported scenario came from: the source file, its hash and the fields derived by rule. */
import type { ScenarioSource } from "../domain/bundle.ts";

export function ScenarioProvenance({ source }: { source: ScenarioSource }) {
  if (source.kind !== "promediate") return null;
  return (
    <p className="muted" data-provenance="promediate">
      Imported from ProMediate's <code>{source.file}</code> (sha256 <code title={source.sha256}>{source.sha256}</code>
      ). Derived by the importer's rules, not stated by the case: {source.derived.join(", ")}. {source.note}
    </p>
  );
}
