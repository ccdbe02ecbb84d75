/**
 * Imports a ProMediate transcript folder (conversation.txt, and when present attitudes.json and
 * agreement_scores.json) as a run with its per-turn evaluation. The folder is foreign input, so the
 * records go through the bundle importer: all-or-nothing, and a second import of the same folder
 * finds them stored and changes nothing. The scenario `promediate-<case>` and its general condition
 * must be stored already (`socrates promediate import`). Format: docs/promediate-transcripts.md.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Bundle } from "../../domain/bundle.ts";
import { AGREEMENT_FILE, ATTITUDES_FILE } from "../../domain/promediate/transcript-records.ts";
import {
  CONVERSATION_FILE,
  transcriptToRun,
  type TranscriptProblem,
  type TranscriptResult,
} from "../../domain/promediate/transcript-run.ts";
import { importBundleFiles, type ImportSummary } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { findCondition } from "../models/condition.server.ts";
import { findScenario } from "../models/scenario.server.ts";

export class TranscriptImportError extends Error {
  constructor(readonly problems: TranscriptProblem[]) {
    super(problems.map((p) => [p.file, p.where, p.message].filter(Boolean).join(": ")).join("\n"));
    this.name = "TranscriptImportError";
  }
}

export interface TranscriptImportOptions {
  /** A case name (flagship, williams, …) or the path of its case .json (then its config order is read too). */
  caseArg: string;
  mediatorName?: string;
  /** Default: from the folder's place in ProMediate's output tree (output/<case>/<method>/<model>_…). */
  mediatorBackbone?: string;
  dryRun?: boolean;
}

export interface TranscriptImportSummary {
  runId: string;
  evaluationId: string | null;
  turns: number;
  mediatorTurns: number;
  warnings: string[];
  imported: ImportSummary;
}

const METHODS = ["Naive", "Baseline1", "Baseline2", "NoAgent", "Social"];

/** "promediate-social:gpt-4.1" from …/Social/gpt-4.1_separate_…_5; "promediate" when the path says nothing. */
function backboneFromPath(folder: string): string {
  const method = basename(dirname(folder));
  if (!METHODS.includes(method)) return "promediate";
  const model = /^(.+?)_(separate|combined)_/.exec(basename(folder))?.[1];
  return `promediate-${method.toLowerCase()}${model ? `:${model}` : ""}`;
}

function readCase(caseArg: string, problems: TranscriptProblem[]): { caseId: string; configNames?: string[] } {
  if (!caseArg.endsWith(".json")) return { caseId: caseArg };
  const caseId = basename(caseArg, ".json");
  try {
    const value = JSON.parse(readFileSync(caseArg, "utf8")) as unknown;
    const config = (value as { config?: unknown }).config;
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
      problems.push({ file: caseArg, where: "$.config", message: "a case names its participants in config" });
      return { caseId };
    }
    return { caseId, configNames: Object.keys(config).filter((n) => n !== "Mediator") };
  } catch (err) {
    problems.push({
      file: caseArg,
      where: "$",
      message: `cannot read: ${(err as Error).message.replace(/\s+/g, " ")}`,
    });
    return { caseId };
  }
}

function readJson(folder: string, file: string, problems: TranscriptProblem[]): unknown {
  const path = join(folder, file);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch (err) {
    problems.push({ file, where: "$", message: `invalid JSON: ${(err as Error).message.replace(/\s+/g, " ")}` });
    return null;
  }
}

/** Reads and maps the folder; throws TranscriptImportError naming every problem (file, line or JSON path). */
async function readTranscript(db: Db, folder: string, options: TranscriptImportOptions): Promise<TranscriptResult> {
  const problems: TranscriptProblem[] = [];
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new TranscriptImportError([{ file: folder, where: "", message: "not a folder" }]);
  const conversationPath = join(folder, CONVERSATION_FILE);
  if (!existsSync(conversationPath))
    throw new TranscriptImportError([{ file: CONVERSATION_FILE, where: "", message: `missing in ${folder}` }]);
  const { caseId, configNames } = readCase(options.caseArg, problems);
  const scenario = await findScenario(db, `promediate-${caseId}`);
  if (!scenario || !(await findCondition(db, `promediate-${caseId}:general`)))
    problems.push({
      file: options.caseArg,
      where: "",
      message: `scenario "promediate-${caseId}" and its general condition are not stored: import the case first (socrates promediate import)`,
    });
  const attitudes = readJson(folder, ATTITUDES_FILE, problems);
  const agreement = readJson(folder, AGREEMENT_FILE, problems);
  if (problems.length > 0 || !scenario) throw new TranscriptImportError(problems);
  const result = transcriptToRun({
    caseId,
    scenario,
    configNames,
    conversation: readFileSync(conversationPath, "utf8"),
    attitudes,
    agreement,
    mediatorName: options.mediatorName ?? "Mediator",
    mediatorBackbone: options.mediatorBackbone ?? backboneFromPath(folder),
    folder: basename(folder),
  });
  if (result.problems.length > 0) throw new TranscriptImportError(result.problems);
  return result;
}

export async function importTranscript(
  db: Db,
  folder: string,
  options: TranscriptImportOptions,
): Promise<TranscriptImportSummary> {
  const { run, evaluation, warnings } = await readTranscript(db, folder, options);
  if (!run) throw new Error("unreachable: a transcript without problems has a run");
  const bundle: Bundle = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    description: `ProMediate transcript ${folder}`,
    scenarios: [],
    conditions: [],
    runs: [run],
    matched_pairs: [],
    ab_pairs: [],
    evaluations: evaluation ? [evaluation] : [],
  };
  const imported = await importBundleFiles(db, [{ file: `${folder} (as a bundle)`, text: JSON.stringify(bundle) }], {
    dryRun: options.dryRun,
  });
  return {
    runId: run.id,
    evaluationId: evaluation?.id ?? null,
    turns: run.turns.length,
    mediatorTurns: run.turns.filter((t) => t.role === "mediator").length,
    warnings,
    imported,
  };
}
