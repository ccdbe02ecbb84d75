/**
 * The database's unique keys on bundle records other than ids, checked before anything is
 * written, against every file of the import together and against what is stored. Without them
 * a new id on an old key reached SQLite and came back as "UNIQUE constraint failed".
 *
 * The other constraints the bundle tables carry are checked elsewhere: ids (primary keys) by the
 * import's own content comparison, references (foreign keys) by checkBundleReferences, NOT NULL
 * columns by the zod schemas; turns, snippets and derived scores get their keys from numbering
 * the import itself makes unique.
 */
import type { Bundle } from "./bundle.ts";

export interface ConstraintProblem {
  file: string;
  path: (string | number)[];
  message: string;
}

/** The stored record (its id) holding a unique key, if any. */
export interface StoredKeys {
  /** conditions_scenario_axis_variant_uq */
  conditionWithKey(scenarioId: string, axis: string, variant: string): string | undefined;
  /** matched_pairs_mediated_uq */
  matchedPairOfMediatedRun(runId: string): string | undefined;
}

interface Holder {
  file: string;
  id: string;
}

interface KeyRule<K extends "conditions" | "matched_pairs"> {
  kind: K;
  key(record: Bundle[K][number]): string;
  stored(record: Bundle[K][number], keys: StoredKeys): string | undefined;
  describe(record: Bundle[K][number]): string;
  field: string;
}

const conditionRule: KeyRule<"conditions"> = {
  kind: "conditions",
  key: (c) => JSON.stringify([c.scenario_id, c.axis, c.variant]),
  stored: (c, keys) => keys.conditionWithKey(c.scenario_id, c.axis, c.variant),
  describe: (c) => `scenario "${c.scenario_id}", axis "${c.axis}", variant "${c.variant}"`,
  field: "variant",
};

const matchedPairRule: KeyRule<"matched_pairs"> = {
  kind: "matched_pairs",
  key: (p) => p.mediated_run_id,
  stored: (p, keys) => keys.matchedPairOfMediatedRun(p.mediated_run_id),
  describe: (p) => `mediated run "${p.mediated_run_id}"`,
  field: "mediated_run_id",
};

function checkRule<K extends "conditions" | "matched_pairs">(
  rule: KeyRule<K>,
  files: { file: string; bundle: Bundle }[],
  keys: StoredKeys,
): ConstraintProblem[] {
  const problems: ConstraintProblem[] = [];
  const seen = new Map<string, Holder>();
  const noun = rule.kind === "conditions" ? "condition" : "matched pair";
  for (const { file, bundle } of files) {
    (bundle[rule.kind] as Bundle[K][number][]).forEach((record, index) => {
      const at = (message: string) => problems.push({ file, path: [rule.kind, index, rule.field], message });
      const key = rule.key(record);
      const earlier = seen.get(key);
      if (earlier && earlier.id !== record.id) {
        const where = earlier.file === file ? "this bundle" : earlier.file;
        at(
          `${noun} "${earlier.id}" in ${where} already has ${rule.describe(record)}; one ${noun} per ${rule.kind === "conditions" ? "scenario, axis and variant" : "mediated run"}`,
        );
        return;
      }
      if (!earlier) seen.set(key, { file, id: record.id });
      const stored = rule.stored(record, keys);
      if (stored !== undefined && stored !== record.id) {
        at(
          `the stored ${noun} "${stored}" already has ${rule.describe(record)}; use its id "${stored}" instead of "${record.id}", or another ${rule.field.replace(/_/g, " ")}`,
        );
      }
    });
  }
  return problems;
}

/** Every unique key a bundle record would break, within the files and against the stored records. */
export function checkUniqueKeys(files: { file: string; bundle: Bundle }[], keys: StoredKeys): ConstraintProblem[] {
  return [...checkRule(conditionRule, files, keys), ...checkRule(matchedPairRule, files, keys)];
}
