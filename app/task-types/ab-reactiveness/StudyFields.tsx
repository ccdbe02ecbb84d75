/** The New-study fields only an A/B study has: the simulator backbones, a bundle to import pairs from, or pair ids. */
import { FieldError, type StudyTypeFieldsProps } from "../../components/admin/StudyTypeFields.tsx";

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
          <input type="checkbox" name="backbones" value={b.backbone} defaultChecked={ticked.has(b.backbone)} />{" "}
          {b.backbone} ({b.pairs} pair{b.pairs === 1 ? "" : "s"})
        </label>
      ))}
      <FieldError message={problem("backbones")} />
    </fieldset>
  );
}

/** Fields only an A/B study has: the simulator backbones, a bundle to import pairs from, or pair ids. */
export function AbFields({ choices, problem, posted }: StudyTypeFieldsProps) {
  return (
    <>
      <BackboneChoices choices={choices} problem={problem} posted={posted} />
      <label>
        Import pairs from a bundle (JSON with <code>ab_pairs</code>, optional){" "}
        <input name="bundle" id="field-bundle" type="file" accept=".json,application/json" />
        <FieldError message={problem("bundle")} />
      </label>
      <label>
        Pair ids (blank = the uploaded bundle's pairs, or all stored pairs){" "}
        <textarea name="pairIds" id="field-pairIds" rows={2} defaultValue={posted.value("pairIds")} />
        <FieldError message={problem("pairIds")} />
      </label>
    </>
  );
}
