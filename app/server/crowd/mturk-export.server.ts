/**
 * `socrates mturk export`: a batch for Mechanical Turk's requester site, written to one folder.
 *
 *   template.html           the HIT layout (annotation-templates/mturk/<type>.html with the
 *                           study's guidelines rendered in), pasted into the project's source
 *   input.csv               one row per HIT (= study item still short of counted labels); the header is
 *                           exactly the template's `${…}` variables
 *   hit-config.json         title, reward, assignments, durations, qualification requirements
 *   qualification-test.xml  the English test as a QuestionForm
 *   answer-key.xml          its AnswerKey (MTurk scores the test itself)
 *
 * Workers see what the web task shows and no more: the rows are built from the same blinded task
 * views. Gold items go out like any other item.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { hitConfigJson, estimateCost, type CostEstimate, type HitSettings } from "../../domain/crowd/hit-config.ts";
import { answerKeyXml, questionFormXml } from "../../domain/crowd/qualification-xml.ts";
import { markdownToHtml } from "../../domain/crowd/hit-render.ts";
import { fillTemplate, insertGuidelines, templateVariables } from "../../domain/crowd/mturk-template.ts";
import { toCsv } from "../../domain/csv.ts";
import { hitValues, isTaskTypeId, taskType } from "../../domain/tasks/registry.ts";
import type { Db } from "../db.server.ts";
import { ServiceError } from "../http/errors.server.ts";
import { loadItem } from "../annotation/task-view.server.ts";
import { taskView } from "../annotation/task-types/registry.server.ts";
import { latestLabelRows } from "../models/label.server.ts";
import { studyItemIds } from "../models/study.server.ts";
import { loadGuidelines, loadQualificationTest, templatesDir, TemplateError, type GuidelineKind } from "../templates.server.ts";
import { checkFairPay, planHits, type HitOverrides } from "./hit-settings.server.ts";

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
  /** Where annotation-templates/ lives (default: the working directory's). */
  templatesDir?: string;
}

export interface ExportSummary {
  studyId: number;
  studyType: GuidelineKind;
  studyName: string;
  outDir: string;
  /** Absolute paths of the files written, by role. */
  files: Record<keyof typeof EXPORT_FILES, string>;
  /** HITs written (one per item). */
  rows: number;
  /** Items left out because they already have the study's labels per item, counted. */
  leftOut: number;
  /** Gold items among the rows (indistinguishable in the files). */
  goldRows: number;
  settings: HitSettings;
  estimate: CostEstimate;
  warnings: string[];
}

/** `exports/mturk/study-<id>-<YYYYMMDD-HHMMSS>` (UTC), relative to the working directory. */
export function defaultExportDir(studyId: number, now = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, "").replace(/-|:/g, "").replace("T", "-");
  return join("exports", "mturk", `study-${studyId}-${stamp}`);
}

/** The template source for a study type, with its variables checked against what the export can fill. */
function loadMturkTemplate(kind: GuidelineKind, dir: string): { file: string; source: string } {
  const file = join(dir, "mturk", `${taskType(kind).templateName}.html`);
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch (err) {
    throw new TemplateError(file, [{ path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` }]);
  }
  const { variables, requiredVariables: required, requiredFields: requiredText } = taskType(kind).mturk;
  const used = templateVariables(source);
  const problems = [
    ...used.filter((v) => !variables.includes(v)).map((v) => ({ path: "${" + v + "}", message: `unknown variable (known: ${variables.join(", ")})` })),
    ...required.filter((v) => !used.includes(v)).map((v) => ({ path: "${" + v + "}", message: "must appear in the template" })),
    ...requiredText.filter((t) => !source.includes(t)).map((t) => ({ path: t, message: "this form field must appear in the template (the results import reads it)" })),
  ];
  if (problems.length) throw new TemplateError(file, problems);
  return { file, source };
}

function isNonEmptyDir(dir: string): boolean {
  return existsSync(dir) && (!statSync(dir).isDirectory() || readdirSync(dir).length > 0);
}

/**
 * Counted and pending labels per item. An item still needs labels while it has fewer than k
 * counted ones: a surplus label fills no place, and a pending one may never be confirmed (its
 * worker id is unverified), so neither keeps an item out of the batch.
 */
function labelCounts(db: Db, studyId: number): { counted: Map<number, number>; pending: Set<number> } {
  const counted = new Map<number, number>();
  const pending = new Set<number>();
  for (const label of latestLabelRows(db, [studyId])) {
    if (label.status === "counted") counted.set(label.itemId, (counted.get(label.itemId) ?? 0) + 1);
    if (label.status === "pending") pending.add(label.itemId);
  }
  return { counted, pending };
}

/**
 * Writes a batch for the study's items that still need labels. Refuses (ServiceError) an
 * expert or closed study, an underpaying reward unless forced, a study with nothing left to
 * label, and an output folder that already holds files; on refusal nothing is written.
 */
export function exportBatch(db: Db, studyId: number, options: ExportOptions): ExportSummary {
  // Refuses expert studies and invalid settings before any work; the estimate is redone below for the real count.
  const plan = planHits(db, studyId, 0, options.overrides);
  const { study } = plan;
  if (study.status !== "open") throw new ServiceError(409, `Study ${studyId} is closed; reopen it before exporting HITs`);
  const kind = study.type;
  if (!isTaskTypeId(kind)) throw new ServiceError(409, `Study ${studyId} has type "${study.type}", which has no Mechanical Turk template`);
  const outDir = resolve(options.outDir);
  if (isNonEmptyDir(outDir)) throw new ServiceError(409, `${outDir} already exists and is not empty; choose a new --out folder so no earlier batch is overwritten`);

  const dir = options.templatesDir ?? templatesDir();
  const { source } = loadMturkTemplate(kind, dir);
  const guidelines = study.guidelines.trim() ? study.guidelines : loadGuidelines(kind, dir);
  const template = insertGuidelines(source, markdownToHtml(guidelines));
  const header = templateVariables(template);
  const test = loadQualificationTest();

  const counts = labelCounts(db, studyId);
  const items = studyItemIds(db, studyId);
  const pending = items.filter((itemId) => (counts.counted.get(itemId) ?? 0) < study.labelsPerItem).map((itemId) => loadItem(db, studyId, itemId));
  if (pending.length === 0) {
    throw new ServiceError(409, `Nothing to export: all ${items.length} items of study ${studyId} already have ${study.labelsPerItem} counted labels`);
  }

  const warnings: string[] = [];
  const awaiting = pending.filter((item) => counts.pending.has(item.id)).length;
  if (awaiting) {
    warnings.push(
      `${awaiting} of these items hold answers still pending MTurk's confirmation; run \`socrates mturk sync\` first if they came from published HITs, or the batch may bring surplus labels`,
    );
  }
  const oversized: number[] = [];
  const rows = pending.map((item) => {
    const values = hitValues(taskView(db, item), { studyId, itemId: item.id });
    if (Buffer.byteLength(fillTemplate(template, values), "utf8") > MTURK_QUESTION_LIMIT_BYTES) oversized.push(item.id);
    return header.map((name) => values[name]);
  });
  if (oversized.length) {
    warnings.push(`${oversized.length} HIT${oversized.length === 1 ? " is" : "s are"} larger than MTurk's 64 KB question limit and may be refused (item ids ${oversized.join(", ")})`);
  }

  const estimate = estimateCost(rows.length, plan.settings, plan.estimate.secondsPerAssignment, plan.estimate.secondsSource);
  const payWarning = checkFairPay(estimate, options.force ?? false);
  if (payWarning) warnings.unshift(`${payWarning} (forced)`);

  const config = {
    ...hitConfigJson(plan.settings, estimate),
    Batch: { StudyId: studyId, StudyType: kind, ExportedAt: (options.now ?? new Date()).toISOString(), Rows: rows.length, LeftOut: items.length - pending.length },
  };
  const contents: Record<keyof typeof EXPORT_FILES, string> = {
    template,
    inputCsv: toCsv(header, rows, { verbatim: true }), // MTurk puts these values into the worker's page as they are (docs/formats.md)
    hitConfig: JSON.stringify(config, null, 2) + "\n",
    qualificationTest: questionFormXml(test),
    answerKey: answerKeyXml(test),
  };
  // Everything is built before the first write, so a refusal above leaves no half batch behind.
  mkdirSync(outDir, { recursive: true });
  const files = {} as Record<keyof typeof EXPORT_FILES, string>;
  for (const key of Object.keys(EXPORT_FILES) as (keyof typeof EXPORT_FILES)[]) {
    files[key] = join(outDir, EXPORT_FILES[key]);
    writeFileSync(files[key], contents[key], { flag: "wx" });
  }
  return {
    studyId,
    studyType: kind,
    studyName: study.name,
    outDir,
    files,
    rows: rows.length,
    leftOut: items.length - pending.length,
    goldRows: pending.filter((i) => i.isGold).length,
    settings: plan.settings,
    estimate,
    warnings,
  };
}

