/**
 * Writes a report folder's manifest.json and checks a folder against the database
 * (`socrates report --verify DIR`): the report is rebuilt from the plan, studies and settings the
 * manifest recorded, and passes only when every number is identical. Format: docs/report.md.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { writeFileInFolder } from "../output-folder.server.ts";
import { basename, join, resolve } from "node:path";
import { parseBenchmarkPlan } from "../../domain/benchmark/plan.ts";
import {
  MANIFEST_FORMAT,
  MANIFEST_VERSION,
  ManifestError,
  parseManifest,
  sourceChanges,
  type ReportManifest,
  type SourceChange,
} from "../../domain/benchmark/provenance/manifest.ts";
import { firstDifference, reportNumbers, type NumberDifference } from "../../domain/benchmark/provenance/numbers.ts";
import type { BenchmarkReport } from "../../domain/benchmark/report-model.ts";
import type { Db } from "../db.server.ts";
import { planHash, type LoadedPlan } from "./plan-file.server.ts";
import { canonicalJson, reportSources } from "./report-provenance.server.ts";
import { buildBenchmarkReport } from "./report.server.ts";

export const MANIFEST_FILE = "manifest.json";
const PROJECT_ROOT = resolve(import.meta.dirname, "../../..");
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/**
 * The project's name and version, and the git commit of the checkout (and whether it has uncommitted changes);
 * "unknown"/null outside git.
 */
export function projectInfo(root = PROJECT_ROOT): ReportManifest["project"] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name: string; version: string };
  const git = (args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
  const head = git(["rev-parse", "HEAD"]);
  if (head.status !== 0 || !/^[0-9a-f]{40}$/.test(head.stdout.trim()))
    return { name: pkg.name, version: pkg.version, commit: "unknown", dirty: null };
  const status = git(["status", "--porcelain", "--untracked-files=no"]);
  return {
    name: pkg.name,
    version: pkg.version,
    commit: head.stdout.trim(),
    dirty: status.status === 0 ? status.stdout.trim() !== "" : null,
  };
}

/** Keys that may hold a secret (an API key, a token, a password) or name one: left out before hashing. */
const SECRET_KEY = /key|secret|token|password|credential/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !SECRET_KEY.test(k))
      .map(([k, v]) => [k, withoutSecrets(v)]),
  );
}

/** sha256 of the LLM configuration's canonical JSON with every secret-bearing key removed; null without a file. */
export function configHash(path: string): ReportManifest["config"] {
  if (!existsSync(path)) return { path, hash: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    // An unreadable configuration still identifies itself, by its bytes less any line naming a secret.
    parsed = readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => !SECRET_KEY.test(l))
      .join("\n");
  }
  return { path, hash: sha256(canonicalJson(withoutSecrets(parsed))) };
}

function modelsOf(loaded: LoadedPlan): ReportManifest["models"] {
  const { plan } = loaded;
  return {
    simulator: plan.simulator,
    evaluator: plan.evaluator,
    mediators: plan.mediators,
    ablationEvaluators: plan.ablations.evaluators,
    ablationSimulators: plan.ablations.simulators,
    ...(plan.emotion?.judge ? { emotionJudge: plan.emotion.judge } : {}),
  };
}

export interface ManifestInput {
  loaded: LoadedPlan;
  report: BenchmarkReport;
  configPath: string;
  /** The files the report wrote (their sha256 goes into the manifest). */
  files: readonly string[];
}

export async function buildManifest(
  db: Db,
  { loaded, report, configPath, files }: ManifestInput,
): Promise<ReportManifest> {
  const numbers = reportNumbers(report);
  return {
    format: MANIFEST_FORMAT,
    version: MANIFEST_VERSION,
    generatedAt: report.generatedAt,
    project: projectInfo(),
    plan: { name: loaded.plan.name, hash: loaded.hash, source: loaded.source, definition: loaded.plan },
    config: configHash(configPath),
    models: modelsOf(loaded),
    seeds: { plan: loaded.plan.seed, bootstrap: report.constants.bootstrap.seed },
    studyIds: report.studyIds,
    options: { bins: report.constants.bins, bootstrap: report.constants.bootstrap },
    counts: {
      ...report.coverage,
      tables: report.tables.length,
      figures: report.figures.length,
      numbers: numbers.length,
    },
    files: Object.fromEntries(files.map((f) => [basename(f), sha256(readFileSync(f))])),
    sources: await reportSources(db, loaded, report.studyIds),
    numbers,
  };
}

export function writeManifest(outDir: string, manifest: ReportManifest): string {
  const path = join(outDir, MANIFEST_FILE);
  // Like the report's files: never through a symbolic link planted in the folder.
  writeFileInFolder(path, `${JSON.stringify(manifest, null, 1)}\n`);
  return path;
}

export interface Verification {
  manifest: ReportManifest;
  /** Numbers compared. */
  numbers: number;
  /** The first number that is not identical; null: all are. */
  difference: NumberDifference | null;
  /** Source rows whose content hash changed, appeared or went. */
  changes: SourceChange[];
}

/** The manifest of a report folder, parsed; a ManifestError names the file and the JSON path. */
export function readManifest(dir: string): ReportManifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) throw new ManifestError(`${path}: no such file (a folder \`socrates report\` wrote has one)`);
  return parseManifest(readFileSync(path, "utf8"), path);
}

/** Rebuilds the report the manifest describes from the database and compares every number and every source row. */
export async function verifyReport(db: Db, dir: string): Promise<Verification> {
  const manifest = readManifest(dir);
  const source = `${join(dir, MANIFEST_FILE)}: $.plan.definition`;
  const plan = parseBenchmarkPlan(manifest.plan.definition, source);
  const hash = planHash(plan);
  if (hash !== manifest.plan.hash)
    throw new ManifestError(
      `${source}: the plan hashes to ${hash}, not the recorded ${manifest.plan.hash}: the manifest was edited`,
    );
  const loaded = { plan, hash, source: manifest.plan.source };
  const report = await buildBenchmarkReport(db, loaded, {
    studyIds: manifest.studyIds,
    studyIdsSource: `${join(dir, MANIFEST_FILE)}: $.studyIds`,
    bins: manifest.options.bins,
    bootstrap: manifest.options.bootstrap,
    now: new Date(manifest.generatedAt),
  });
  const difference = firstDifference(manifest.numbers, reportNumbers(report));
  return {
    manifest,
    numbers: manifest.numbers.length,
    difference,
    changes: sourceChanges(manifest.sources, await reportSources(db, loaded, report.studyIds)),
  };
}
