/**
 * Table 5: the socio-cognitive conditions. The paper lists the 15 conditions by axis (general 1,
 * strategic posture 3, party composition 1, history length 1, emotional reactivity 3, cultural
 * identity 6); here each scenario of the plan is a row and each condition a column under its
 * axis, saying whether the database holds it and, where the plan selects it, how many of the
 * plan's runs on it are stored. A condition not stored is "—", with a note naming the probe
 * command that makes it.
 */
import { CONDITION_VARIANTS, DOMAINS, type ConditionAxis } from "../domain/bundle.ts";
import { PROBE_CONDITIONS } from "../domain/probing/conditions.ts";
import { isWriterAxis } from "../domain/probing/expand.ts";
import { conditionKeyOf } from "../domain/benchmark/plan.ts";
import type { ReportColumn, ReportRow, ReportTable, ReportText } from "../domain/benchmark/report-model.ts";
import type { ReportInput, ScenarioConditions } from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { text } from "../domain/benchmark/report/rows.ts";

type Variant = (typeof CONDITION_VARIANTS)[ConditionAxis][number];

/** The paper's names of the axes and variants (our keys stay in the csv's column key and the notes). */
export const AXIS_LABELS: Record<ConditionAxis, string> = {
  general: "General",
  strategy: "Strategic posture",
  parties: "Party composition",
  history: "History length",
  emotion: "Emotional reactivity",
  culture: "Cultural identity",
};
const VARIANT_LABELS: Record<Variant, string> = {
  default: "Default",
  competing: "Competing",
  avoiding: "Avoiding",
  accommodating: "Accommodating",
  "three-party": "Three-party",
  extended: "Extended",
  CC: "Com-Com",
  CR: "Com-React",
  RR: "React-React",
  "US-US": "US-US",
  "CN-CN": "CN-CN",
  "KR-KR": "KR-KR",
  "US-CN": "US-CN",
  "US-KR": "US-KR",
  "CN-KR": "CN-KR",
};

/** Keys of the summary row and column; a scenario id or condition key never starts with "*". */
export const TOTAL_ROW = "*scenarios";
export const TOTAL_COLUMN = "*stored";
export const MISSING = "—";

const WRITER_NOTE =
  "Party composition and history length call the scenario writer (an LLM configuration with a writer role: socrates.config.json, or `--config F`); the other axes are fixed templates and call nothing.";

const TITLE = "Table 5: socio-cognitive conditions";
const CONDITIONS = PROBE_CONDITIONS.map((c) => ({ ...c, key: conditionKeyOf(c.axis, c.variant) }));

/** The plan's stored runs per `scenario|condition key`: its mediated subjects and unmediated runs. */
function storedRuns(input: ReportInput): Map<string, number> {
  const out = new Map<string, number>();
  for (const run of [...input.subjects, ...input.unmediated]) {
    const key = `${run.scenarioId}|${run.conditionKey}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

function conditionCell(scenario: ScenarioConditions, key: string, stored: Map<string, number>): ReportText {
  if (!scenario.stored.includes(key)) return text(null, MISSING);
  const planned = scenario.plannedRuns[key];
  if (planned === undefined) return text(0, "✓");
  const have = stored.get(`${scenario.scenarioId}|${key}`) ?? 0;
  return text(have, `✓ ${have}/${planned} runs`);
}

/** Rows in the paper's domain order (the plan's order within a domain); scenarios the database lacks last. */
function ordered(scenarios: readonly ScenarioConditions[]): ScenarioConditions[] {
  const rank = (s: ScenarioConditions) =>
    s.domain === null ? DOMAINS.length : Math.max(0, (DOMAINS as readonly string[]).indexOf(s.domain));
  return [...scenarios].sort((a, b) => rank(a) - rank(b));
}

/** The axes a list of condition keys belongs to, in Table 5 order (what `probe --conditions` takes). */
function axesOf(keys: readonly string[]): ConditionAxis[] {
  return [...new Set(CONDITIONS.filter((c) => keys.includes(c.key)).map((c) => c.axis))];
}

/**
 * One note per scenario with a missing condition: the keys in Table 5 order (saying which the plan selects) and the
 * probe command.
 */
function missingNotes(scenarios: readonly ScenarioConditions[], selected: readonly string[]): string[] {
  const notes: string[] = [];
  for (const s of scenarios) {
    const absent = CONDITIONS.filter((c) => !s.stored.includes(c.key)).map((c) => c.key);
    if (absent.length === 0) continue;
    const probe = `npx socrates probe --scenario ${s.scenarioId} --conditions ${absent.length === CONDITIONS.length ? "all" : axesOf(absent).join(",")}`;
    if (s.domain === null) {
      notes.push(
        `${s.scenarioId}: the plan names it but the database does not hold this scenario: import its bundle (\`npx socrates import FILE\`), then \`${probe}\`.`,
      );
      continue;
    }
    const planned = absent.filter((k) => selected.includes(k));
    const which =
      planned.length > 0 ? `${absent.join(", ")} (the plan selects ${planned.join(", ")})` : absent.join(", ");
    notes.push(`${s.scenarioId}: ${MISSING} ${which}; fill with \`${probe}\`.`);
  }
  return notes;
}

function scenarioRow(scenario: ScenarioConditions, stored: Map<string, number>): ReportRow {
  const cells: ReportRow["cells"] = Object.fromEntries(
    CONDITIONS.map((c) => [c.key, conditionCell(scenario, c.key, stored)]),
  );
  const count = CONDITIONS.filter((c) => scenario.stored.includes(c.key)).length;
  cells[TOTAL_COLUMN] = text(count, `${count} of ${CONDITIONS.length}`);
  return {
    key: scenario.scenarioId,
    label: scenario.scenarioId,
    group: scenario.domain ?? "not in the database",
    cells,
  };
}

function totalRow(scenarios: readonly ScenarioConditions[]): ReportRow {
  const holding = (key: string) => scenarios.filter((s) => s.stored.includes(key)).length;
  const cells: ReportRow["cells"] = Object.fromEntries(
    CONDITIONS.map((c) => [c.key, text(holding(c.key), `${holding(c.key)} of ${scenarios.length}`)]),
  );
  const all = CONDITIONS.reduce((sum, c) => sum + holding(c.key), 0);
  cells[TOTAL_COLUMN] = text(all, `${all} of ${CONDITIONS.length * scenarios.length}`);
  return { key: TOTAL_ROW, label: "Scenarios holding it", cells };
}

export function buildTable5(input: ReportInput): ReportTable {
  const { selected } = input.conditions;
  const scenarios = ordered(input.conditions.scenarios);
  const stored = storedRuns(input);
  const columns: ReportColumn[] = [
    ...CONDITIONS.map((c) => ({ key: c.key, label: VARIANT_LABELS[c.variant as Variant], group: AXIS_LABELS[c.axis] })),
    { key: TOTAL_COLUMN, label: `Stored (of ${CONDITIONS.length})` },
  ];
  const perAxis = (Object.keys(CONDITION_VARIANTS) as ConditionAxis[]).map(
    (a) => `${AXIS_LABELS[a].toLowerCase()} ${CONDITION_VARIANTS[a].length}`,
  );
  const notes = missingNotes(scenarios, selected);
  const writerMissing = scenarios.some((s) =>
    CONDITIONS.some((c) => isWriterAxis(c.axis) && !s.stored.includes(c.key)),
  );
  return {
    id: "table5",
    title: TITLE,
    caption: `The ${CONDITIONS.length} conditions of every scenario of the plan (${perAxis.join(", ")}): which the database holds, and for those the plan selects (${selected.join(", ")}), how many of the plan's runs on them are stored.`,
    scale: "raw",
    rowLabel: "Scenario",
    columns,
    rows: [...scenarios.map((s) => scenarioRow(s, stored)), totalRow(scenarios)],
    notes: [
      `✓: stored; "✓ s/p runs": the plan selects it and s of its p planned runs there are stored (every part of the grid, mediated and unmediated). ${MISSING}: not stored.`,
      "Com-Com, Com-React, React-React are emotion:CC, CR, RR (with more than two parties, the first party takes the first letter and every other party the second); the cultural pairs likewise (US-CN: the first party American, the others Chinese).",
      ...notes,
      ...(writerMissing ? [WRITER_NOTE] : []),
    ],
  };
}

export const table5: TablePart = {
  id: "table5",
  kind: "table",
  section: "paper",
  order: 50,
  title: TITLE,
  build: buildTable5,
};
