/**
 * `socrates mturk export`: a batch for Mechanical Turk's requester site, written to one folder.
 *
 *   template.html           the HIT layout (app/task-types/<type>/mturk.html with the
 *                           study's guidelines rendered in), pasted into the project's source
 *   input.csv               one row per HIT (= study item still missing labels); the header is
 *                           exactly the template's `${…}` variables. Items missing different
 *                           numbers of labels go to one file per number instead
 *                           (input-<n>-assignments.csv, one requester-site batch each), since a
 *                           batch has one "assignments per task" for all its rows
 *   hit-config.json         title, reward, assignments, durations, qualification requirements
 *   qualification-test.xml  the English test as a QuestionForm
 *   answer-key.xml          its AnswerKey (MTurk scores the test itself)
 *
 * Workers see what the web task shows and no more: the rows are built from the same blinded task
 * views. Gold items go out like any other item.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  hitConfigJson,
  estimateBatchesCost,
  type CostEstimate,
  type HitSettings,
} from "../../domain/crowd/hit-config.ts";
import {
  describeLabelOrder,
  planLabelOrder,
  type ItemLabelCounts,
  type LabelOrder,
  type OrderGroup,
} from "../../domain/crowd/missing-labels.ts";
import { answerKeyXml, questionFormXml } from "../../domain/crowd/qualification-xml.ts";
import { markdownToHtml } from "../../domain/crowd/hit-render.ts";
import { fillTemplate, insertGuidelines, templateVariables } from "../../domain/crowd/mturk-template.ts";
import { toCsv } from "../../domain/csv.ts";
import { hitValues, isTaskTypeId, taskType } from "../../task-types/registry.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError } from "../../server/http/errors.server.ts";
import { checkOutputFolder, OutputFolderError } from "../../server/output-folder.server.ts";
import { writeOutputFile } from "../../server/storage-full.server.ts";
import { loadItem } from "../../server/annotation/task-view.server.ts";
import { taskView } from "../../task-types/registry.server.ts";
import { latestLabelRows } from "../../server/models/label.server.ts";
import { studyItemIds, type ItemRow } from "../../server/models/study.server.ts";
import {
  loadGuidelines,
  loadQualificationTest,
  templatesDir,
  TemplateError,
  type GuidelineKind,
} from "../../server/templates.server.ts";
import { checkFairPay, planHits, type HitOverrides, type StudyHitPlan } from "./hit-settings.server.ts";

/** MTurk refuses a HIT whose question is larger than this (bytes, UTF-8). */
export const MTURK_QUESTION_LIMIT_BYTES = 65_535;

export const EXPORT_FILES = {
  template: "template.html",
  inputCsv: "input.csv",
  hitConfig: "hit-config.json",
  qualificationTest: "qualification-test.xml",
  answerKey: "answer-key.xml",
} as const;

export interface ExportOptions {
  outDir: string;
  overrides?: HitOverrides;
  /** Go ahead even when the reward pays below the federal minimum wage. */
  force?: boolean;
  /** Recorded in hit-config.json; defaults to the current time. */
  now?: Date;
  /** Where the task types' folders live (default: app/task-types). */
  templatesDir?: string;
}

export interface ExportSummary {
  studyId: number;
  studyType: GuidelineKind;
  studyName: string;
  outDir: string;
  /** Absolute paths of the files written, by role. */
  files: Record<keyof typeof EXPORT_FILES, string>;
  /** HITs written (one per item missing labels). */
  rows: number;
  /** Items left out: already complete, or waiting only on pending labels. */
  leftOut: number;
  /** How many labels were ordered for which items, and what was left out (app/domain/crowd/missing-labels.ts). */
  order: LabelOrder;
  /** The input CSVs: one per number of assignments per HIT (largest first; `files.inputCsv` is the first). */
  batches: { file: string; assignmentsPerHit: number; rows: number }[];
  /** Gold items among the rows (indistinguishable in the files). */
  goldRows: number;
  settings: HitSettings;
  estimate: CostEstimate;
  warnings: string[];
}

/** `exports/mturk/study-<id>-<YYYYMMDD-HHMMSS>` (UTC), relative to the working directory. */
export function defaultExportDir(studyId: number, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/-|:/g, "")
    .replace("T", "-");
  return join("exports", "mturk", `study-${studyId}-${stamp}`);
}

/** The template source for a study type, with its variables checked against what the export can fill. */
function loadMturkTemplate(kind: GuidelineKind, dir: string): { file: string; source: string } {
  const file = join(dir, taskType(kind).templateName, "mturk.html");
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    throw new TemplateError(file, [
      { path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` },
    ]);
  }
  const { variables, requiredVariables: required, requiredFields: requiredText } = taskType(kind).mturk;
  const used = templateVariables(source);
  const problems = [
    ...used
      .filter((v) => !variables.includes(v))
      .map((v) => ({ path: "${" + v + "}", message: `unknown variable (known: ${variables.join(", ")})` })),
    ...required
      .filter((v) => !used.includes(v))
      .map((v) => ({ path: "${" + v + "}", message: "must appear in the template" })),
    ...requiredText
      .filter((t) => !source.includes(t))
      .map((t) => ({ path: t, message: "this form field must appear in the template (the results import reads it)" })),
  ];
  if (problems.length) throw new TemplateError(file, problems);
  return { file, source };
}

/**
 * A symbolically linked --out folder would send the batch elsewhere, even when empty (the same check as
 * `report --out`).
 */
function refuseLinkedFolder(dir: string): void {
  try {
    checkOutputFolder(dir);
  } catch (err) {
    if (err instanceof OutputFolderError) throw new ServiceError(409, err.message);
    throw err;
  }
}

function isNonEmptyDir(dir: string): boolean {
  return existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0);
}

/** Counted and pending labels per item of the study (surplus labels fill no place). */
async function labelCounts(db: Db, studyId: number, itemIds: readonly number[]): Promise<ItemLabelCounts[]> {
  const counts = new Map(itemIds.map((itemId) => [itemId, { itemId, counted: 0, pending: 0 }]));
  for (const label of await latestLabelRows(db, [studyId])) {
    const item = counts.get(label.itemId);
    if (item && label.status === "counted") item.counted++;
    if (item && label.status === "pending") item.pending++;
  }
  return [...counts.values()];
}

/** `input.csv` for a single batch; with several, each is named after its assignments per HIT. */
function inputFileName(group: OrderGroup, order: LabelOrder): string {
  return order.groups.length === 1 ? EXPORT_FILES.inputCsv : `input-${group.assignments}-assignments.csv`;
}

/** Items in study order within each group, so a trajectory's snippets stay in sequence. */
function orderedGroups(order: LabelOrder, itemIds: readonly number[]): OrderGroup[] {
  const position = new Map(itemIds.map((id, i) => [id, i]));
  return order.groups.map((g) => ({
    ...g,
    itemIds: [...g.itemIds].sort((a, b) => position.get(a)! - position.get(b)!),
  }));
}

function orderWarnings(order: LabelOrder): string[] {
  if (!order.awaiting) return [];
  const items = `${order.awaiting} item${order.awaiting === 1 ? "" : "s"}`;
  return [
    `${items} short of counted labels hold pending answers that fill the gap and were left out; once \`socrates mturk sync\` (or the Prolific import) confirms or refuses them, export again for whatever is still missing`,
  ];
}

/** One input CSV: the HITs of the items that miss the same number of labels. */
interface InputCsv {
  name: string;
  assignmentsPerHit: number;
  rows: number;
  text: string;
}

/**
 * The study's HIT plan, task type and output folder, refusing an expert or closed study, a type without a
 * Mechanical Turk template, and a linked or non-empty output folder.
 */
async function checkExportable(
  db: Db,
  studyId: number,
  options: ExportOptions,
): Promise<{ plan: StudyHitPlan; kind: GuidelineKind; outDir: string }> {
  // Refuses expert studies and invalid settings before any work; the estimate is redone below for the real count.
  const plan = await planHits(db, studyId, 0, options.overrides);
  const { study } = plan;
  if (study.status !== "open")
    throw new ServiceError(409, `Study ${studyId} is closed; reopen it before exporting HITs`);
  const kind = study.type;
  if (!isTaskTypeId(kind))
    throw new ServiceError(409, `Study ${studyId} has type "${study.type}", which has no Mechanical Turk template`);
  const outDir = resolve(options.outDir);
  refuseLinkedFolder(outDir);
  if (isNonEmptyDir(outDir))
    throw new ServiceError(
      409,
      `${outDir} already exists and is not empty; choose a new --out folder so no earlier batch is overwritten`,
    );
  return { plan, kind, outDir };
}

/** One CSV per group, with the ids of the items whose HIT is over MTurk's question limit. */
async function inputCsvs(
  db: Db,
  studyId: number,
  groups: (OrderGroup & { items: ItemRow[] })[],
  order: LabelOrder,
  template: string,
): Promise<{ csvs: InputCsv[]; oversized: number[] }> {
  const header = templateVariables(template);
  const oversized: number[] = [];
  const csvs: InputCsv[] = [];
  for (const group of groups) {
    const filled = await Promise.all(
      group.items.map(async (item) => {
        const values = hitValues(await taskView(db, item), { studyId, itemId: item.id });
        const tooLarge = Buffer.byteLength(fillTemplate(template, values), "utf8") > MTURK_QUESTION_LIMIT_BYTES;
        return { itemId: item.id, tooLarge, row: header.map((name) => values[name]) };
      }),
    );
    for (const f of filled) if (f.tooLarge) oversized.push(f.itemId);
    const rows = filled.map((f) => f.row);
    // MTurk puts these values into the worker's page as they are (docs/formats.md).
    csvs.push({
      name: inputFileName(group, order),
      assignmentsPerHit: group.assignments,
      rows: rows.length,
      text: toCsv(header, rows, { verbatim: true }),
    });
  }
  return { csvs, oversized };
}

/** hit-config.json: the HIT settings and estimate, plus what this batch holds. */
function batchConfig(
  batch: { studyId: number; kind: GuidelineKind; now: Date; order: LabelOrder; leftOut: number; csvs: InputCsv[] },
  settings: HitSettings,
  estimate: CostEstimate,
): string {
  const { order, csvs } = batch;
  const config = {
    ...hitConfigJson(settings, estimate),
    Batch: {
      StudyId: batch.studyId,
      StudyType: batch.kind,
      ExportedAt: batch.now.toISOString(),
      Rows: order.items,
      LeftOut: batch.leftOut,
      Order: describeLabelOrder(order),
      InputFiles: csvs.map((c) => ({ File: c.name, MaxAssignments: c.assignmentsPerHit, Rows: c.rows })),
    },
  };
  return JSON.stringify(config, null, 2) + "\n";
}

/** Writes the files into a new folder, refusing to overwrite any; returns their paths by role. */
function writeBatch(outDir: string, contents: Record<string, string>, csvs: InputCsv[]): ExportSummary["files"] {
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(contents)) writeOutputFile(join(outDir, name), text, { flag: "wx" });
  const files = Object.fromEntries(
    (Object.keys(EXPORT_FILES) as (keyof typeof EXPORT_FILES)[]).map((key) => [key, join(outDir, EXPORT_FILES[key])]),
  ) as ExportSummary["files"];
  files.inputCsv = join(outDir, csvs[0].name);
  return files;
}

/**
 * Writes a batch for the study's items that still need labels. Refuses (ServiceError) an
 * expert or closed study, an underpaying reward unless forced, a study with nothing left to
 * label, and an output folder that already holds files; on refusal nothing is written.
 */
export async function exportBatch(db: Db, studyId: number, options: ExportOptions): Promise<ExportSummary> {
  const { plan, kind, outDir } = await checkExportable(db, studyId, options);
  const { study } = plan;

  const dir = options.templatesDir ?? templatesDir();
  const { source } = loadMturkTemplate(kind, dir);
  const guidelines = study.guidelines.trim() ? study.guidelines : loadGuidelines(kind, dir);
  const template = insertGuidelines(source, markdownToHtml(guidelines));
  const test = loadQualificationTest();

  const items = await studyItemIds(db, studyId);
  const order = planLabelOrder(await labelCounts(db, studyId, items), study.labelsPerItem);
  if (order.items === 0) {
    throw new ServiceError(
      409,
      `Nothing to export: all ${items.length} items of study ${studyId} already have ${study.labelsPerItem} counted labels or pending ones that fill the gap`,
    );
  }
  const groups = await Promise.all(
    orderedGroups(order, items).map(async (g) => ({
      ...g,
      items: await Promise.all(g.itemIds.map(async (itemId) => await loadItem(db, studyId, itemId))),
    })),
  );
  const warnings = orderWarnings(order);
  const { csvs, oversized } = await inputCsvs(db, studyId, groups, order, template);
  if (oversized.length) {
    warnings.push(
      `${oversized.length} HIT${oversized.length === 1 ? " is" : "s are"} larger than MTurk's 64 KB question limit and may be refused (item ids ${oversized.join(", ")})`,
    );
  }

  const estimate = estimateBatchesCost(
    csvs.map((c) => ({ hits: c.rows, assignmentsPerHit: c.assignmentsPerHit })),
    plan.settings.rewardUsd,
    plan.estimate.secondsPerAssignment,
    plan.estimate.secondsSource,
  );
  const payWarning = checkFairPay(estimate, options.force ?? false);
  if (payWarning) warnings.unshift(`${payWarning} (forced)`);
  const settings = { ...plan.settings, assignmentsPerHit: csvs[0].assignmentsPerHit };
  const leftOut = order.complete + order.awaiting;

  const now = options.now ?? new Date();
  const contents: Record<string, string> = {
    [EXPORT_FILES.template]: template,
    ...Object.fromEntries(csvs.map((c) => [c.name, c.text])),
    [EXPORT_FILES.hitConfig]: batchConfig({ studyId, kind, now, order, leftOut, csvs }, settings, estimate),
    [EXPORT_FILES.qualificationTest]: questionFormXml(test),
    [EXPORT_FILES.answerKey]: answerKeyXml(test),
  };
  // Everything is built before the first write, so a refusal above leaves no half batch behind.
  const files = writeBatch(outDir, contents, csvs);
  return {
    studyId,
    studyType: kind,
    studyName: study.name,
    outDir,
    files,
    rows: order.items,
    leftOut,
    order,
    batches: csvs.map((c) => ({ file: join(outDir, c.name), assignmentsPerHit: c.assignmentsPerHit, rows: c.rows })),
    goldRows: groups.reduce((n, g) => n + g.items.filter((i) => i.isGold).length, 0),
    settings,
    estimate,
    warnings,
  };
}
