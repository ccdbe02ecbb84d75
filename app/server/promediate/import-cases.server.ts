/**
 * `socrates promediate import`: ProMediate case files -> scenarios and their general conditions.
 * Every file is read and checked before anything is written; the records then go through the
 * bundle store in one transaction, so an import is all-or-nothing and a repeat changes nothing.
 * A case whose file changed after its import is refused (its scenario id is already stored with
 * other content), as for any bundle record: delete the database's copy or keep both under new ids.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { BUNDLE_FORMAT, BUNDLE_VERSION } from "../../domain/bundle.ts";
import { decodeUtf8 } from "../../domain/bundle-input.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import { promediateTopicsSchema, type PromediateTopics } from "../../domain/promediate/case-schema.ts";
import { caseToScenario, type CaseResult } from "../../domain/promediate/case-to-scenario.ts";
import type { RankRule } from "../../domain/promediate/case-weights.ts";
import { BundleImportError, importBundleFiles, type FileProblem, type ImportSummary } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";

/** A problem or warning with one file, at a JSON path in it. */
type CaseFileProblem = FileProblem;

export class PromediateImportError extends Error {
  constructor(
    readonly problems: CaseFileProblem[],
    readonly warnings: CaseFileProblem[],
  ) {
    super(`ProMediate import refused: ${problems.length} problem(s)`);
  }
}

export interface CaseSummary {
  file: string;
  scenarioId: string;
  topics: number;
  /** Options per topic, in topic order. */
  options: number[];
  parties: string[];
  weightRules: Record<string, RankRule>;
  warnings: CaseFileProblem[];
}

export interface PromediateImportResult {
  cases: CaseSummary[];
  stored: ImportSummary;
}

export const TOPICS_FILE = "topics.json";

/** The case files a path names: the file itself, or every *.json of a directory but topics.json. */
function caseFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith(".json") && name !== TOPICS_FILE)
    .sort()
    .map((name) => join(path, name));
}

function readJson(file: string, problems: CaseFileProblem[]): { json: unknown; bytes: Buffer } | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    problems.push({ file, path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` });
    return null;
  }
  const decoded = decodeUtf8(bytes);
  if ("failure" in decoded) {
    problems.push({ file, path: "$", message: decoded.failure.message });
    return null;
  }
  try {
    return { json: JSON.parse(decoded.text), bytes };
  } catch (err) {
    problems.push({ file, path: "$", message: `not valid JSON: ${(err as Error).message}` });
    return null;
  }
}

/** topics.json read once per path; undefined when the file does not exist (or had a problem, recorded). */
function topicsReader(problems: CaseFileProblem[]) {
  const cache = new Map<string, PromediateTopics | undefined>();
  return (file: string, required: boolean): PromediateTopics | undefined => {
    if (cache.has(file)) return cache.get(file);
    let topics: PromediateTopics | undefined;
    if (required || existsSync(file)) {
      const read = readJson(file, problems);
      const parsed = read ? promediateTopicsSchema.safeParse(read.json) : null;
      if (parsed?.success) topics = parsed.data;
      else if (parsed)
        for (const i of parsed.error.issues) problems.push({ file, path: formatJsonPath(i.path), message: i.message });
    }
    cache.set(file, topics);
    return topics;
  };
}

function summarize(file: string, result: CaseResult, warnings: CaseFileProblem[]): CaseSummary {
  const s = result.scenario!;
  return {
    file,
    scenarioId: s.id,
    topics: s.topics.length,
    options: s.topics.map((t) => t.options.length),
    parties: s.parties.map((p) => p.id),
    weightRules: result.weightRules,
    warnings,
  };
}

/** Reads and converts every case, collecting all problems; converts nothing to records if any. */
function convertCases(path: string, topicsPath: string | undefined) {
  const problems: CaseFileProblem[] = [];
  const warnings: CaseFileProblem[] = [];
  let files: string[];
  try {
    files = caseFiles(path);
  } catch (err) {
    throw new PromediateImportError(
      [{ file: path, path: "$", message: `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})` }],
      [],
    );
  }
  if (files.length === 0) problems.push({ file: path, path: "$", message: "no case .json files in this directory" });
  const topicsOf = topicsReader(problems);
  const converted: { file: string; result: CaseResult }[] = [];
  for (const file of files) {
    const read = readJson(file, problems);
    if (!read) continue;
    const topics = topicsOf(topicsPath ?? join(dirname(file), TOPICS_FILE), topicsPath !== undefined);
    const name = basename(file).replace(/\.json$/i, "");
    const sha256 = createHash("sha256").update(read.bytes).digest("hex");
    const result = caseToScenario({ name, file: basename(file), sha256, json: read.json, topics });
    problems.push(...result.problems.map((p) => ({ file, ...p })));
    warnings.push(...result.warnings.map((w) => ({ file, ...w })));
    converted.push({ file, result });
  }
  if (problems.length > 0) throw new PromediateImportError(problems, warnings);
  return { converted, warnings };
}

/**
 * Imports the case file at `path`, or every case file in the directory `path`, with topic lists
 * from `topicsPath` (else a topics.json beside each case, when the case has no list of its own).
 * Throws PromediateImportError naming every problem, with nothing written.
 */
export async function importPromediateCases(
  db: Db,
  path: string,
  options: { topicsPath?: string; dryRun?: boolean } = {},
): Promise<PromediateImportResult> {
  const { converted, warnings } = convertCases(path, options.topicsPath);
  const bundles = converted.map(({ file, result }) => ({
    file,
    text: JSON.stringify({
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      scenarios: [result.scenario],
      conditions: [result.condition],
    }),
  }));
  let stored: ImportSummary;
  try {
    stored = await importBundleFiles(db, bundles, { dryRun: options.dryRun });
  } catch (err) {
    if (!(err instanceof BundleImportError)) throw err;
    const problems = err.problems.map((p) => ({
      file: p.file,
      path: "$",
      message: `the records built from it, at ${p.path}: ${p.message}`,
    }));
    throw new PromediateImportError(problems, warnings);
  }
  return {
    cases: converted.map(({ file, result }) =>
      summarize(
        file,
        result,
        warnings.filter((w) => w.file === file),
      ),
    ),
    stored,
  };
}
