/**
 * Bundle import and export. An import parses and checks every file, then writes everything in
 * one transaction or nothing at all. Records are keyed by their bundle ids: a record already
 * stored with the same content is left alone (so importing twice changes nothing), and one
 * stored with different content is an error, never an overwrite.
 */
import { asc, eq } from "drizzle-orm";
import { ZodError } from "zod";
import * as schema from "../../db/schema.ts";
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  bundleSchema,
  type AbPairRecord,
  type Bundle,
  type BundleInput,
  type Condition,
  type Evaluation,
  type MatchedPair,
  type Run,
  type Scenario,
} from "../domain/bundle.ts";
import {
  canonicalJson,
  checkBundleReferences,
  playedScenario,
  summariseRun,
  type RecordLookup,
  type RunSummary,
} from "../domain/bundle-checks.ts";
import { checkJsonShape, decodeUtf8 } from "../domain/bundle-input.ts";
import { formatJsonPath } from "../domain/judge-problems.ts";
import { uniqueKeyProblems } from "./bundle-constraints.server.ts";
import { checkpointWal, type Db } from "./db.server.ts";
import { findCondition } from "./models/condition.server.ts";
import { findEvaluation, insertEvaluationRecord } from "./models/evaluation.server.ts";
import { allMatchedPairs, insertMatchedPair } from "./models/matched-pair.server.ts";
import { findRun, insertRunRecord, runSpeakers, runTurnRows } from "./models/run.server.ts";
import { findScenario } from "./models/scenario.server.ts";
import { transact } from "./db-transaction.server.ts";

export interface FileProblem {
  file: string;
  path: string;
  message: string;
}

export class BundleImportError extends Error {
  constructor(readonly problems: FileProblem[]) {
    super(problems.map((p) => `${p.file}: ${p.path}: ${p.message}`).join("\n"));
    this.name = "BundleImportError";
  }
}

type RecordKind = "scenarios" | "conditions" | "runs" | "matched_pairs" | "ab_pairs" | "evaluations";
/** Dependency order: a kind only refers to kinds before it. */
const KINDS: RecordKind[] = ["scenarios", "conditions", "runs", "matched_pairs", "ab_pairs", "evaluations"];
export type RecordCounts = Record<RecordKind, number>;

export interface ImportSummary {
  files: string[];
  dryRun: boolean;
  inserted: RecordCounts;
  unchanged: RecordCounts;
}

const zeroCounts = (): RecordCounts => ({
  scenarios: 0,
  conditions: 0,
  runs: 0,
  matched_pairs: 0,
  ab_pairs: 0,
  evaluations: 0,
});

// ---------- reading records back into bundle shape ----------

function scenarioRecord(row: typeof schema.scenarios.$inferSelect): Scenario {
  return {
    id: row.id,
    domain: row.domain as Scenario["domain"],
    title: row.title,
    background: row.background,
    topics: row.topics,
    parties: row.parties,
    source: row.source,
  };
}

function conditionRecord(row: typeof schema.conditions.$inferSelect): Condition {
  return {
    id: row.id,
    scenario_id: row.scenarioId,
    axis: row.axis as Condition["axis"],
    variant: row.variant,
    ...(row.expanded ? { expanded: row.expanded } : {}),
    ...(row.provenance ? { provenance: row.provenance } : {}),
  };
}

function runRecord(row: typeof schema.runs.$inferSelect, turnRows: (typeof schema.turns.$inferSelect)[]): Run {
  return {
    id: row.id,
    condition_id: row.conditionId,
    mediated: row.mediated,
    mediator_backbone: row.mediatorBackbone,
    simulator_backbone: row.simulatorBackbone,
    outcome: row.outcome as Run["outcome"],
    party_order: row.partyOrder,
    ...(row.turnOrder === "free" ? { turn_order: row.turnOrder } : {}),
    turns: turnRows.map((t) => ({
      turn_id: t.turnId,
      speaker: t.speaker,
      role: t.role as "party" | "mediator",
      utterance: t.utterance,
      ...(t.thought !== null ? { thought: t.thought } : {}),
      ...(t.signal !== null ? { signal: t.signal as NonNullable<Run["turns"][number]["signal"]> } : {}),
      ...(t.emotion !== null ? { emotion: t.emotion } : {}),
      ...(t.emotionReason !== null ? { emotion_reason: t.emotionReason } : {}),
    })),
    ...(row.mediatorDecisions ? { mediator_decisions: row.mediatorDecisions } : {}),
    config: row.config,
    seed: row.seed,
    ...(row.recordedAt ? { created_at: row.recordedAt } : {}),
  };
}

function pairRecord(row: typeof schema.matchedPairs.$inferSelect): MatchedPair {
  return {
    id: row.id,
    condition_id: row.conditionId,
    mediated_run_id: row.mediatedRunId,
    unmediated_run_id: row.unmediatedRunId,
  };
}

function abPairRecord(row: typeof schema.abPairs.$inferSelect): AbPairRecord {
  return {
    id: row.id,
    scenario_id: row.scenarioId,
    run_a_id: row.runAId,
    run_b_id: row.runBId,
    target_party: row.targetParty,
    level_a: row.levelA,
    level_b: row.levelB,
    ...(row.opponentLevel !== null ? { opponent_level: row.opponentLevel } : {}),
  };
}

function evaluationRecord(row: typeof schema.evaluations.$inferSelect): Evaluation {
  return {
    id: row.id,
    run_id: row.runId,
    method: row.method,
    backbone: row.backbone,
    output: row.output,
    ...(row.promptVersion ? { prompt_version: row.promptVersion } : {}),
    ...(row.errors ? { errors: row.errors } : {}),
    ...(row.recordedAt ? { created_at: row.recordedAt } : {}),
  } as Evaluation;
}

async function loadRun(db: Db, id: string): Promise<Run | undefined> {
  const row = await findRun(db, id);
  return row && runRecord(row, await runTurnRows(db, id));
}

/** Each record kind's stored version, in bundle shape, by id. */
async function storedRecord(db: Db, kind: RecordKind, id: string): Promise<unknown> {
  switch (kind) {
    case "scenarios": {
      const row = await findScenario(db, id);
      return row && scenarioRecord(row);
    }
    case "conditions": {
      const row = await findCondition(db, id);
      return row && conditionRecord(row);
    }
    case "runs":
      return await loadRun(db, id);
    case "matched_pairs": {
      const row = (await db.select().from(schema.matchedPairs).where(eq(schema.matchedPairs.id, id)).limit(1))[0];
      return row && pairRecord(row);
    }
    case "ab_pairs": {
      const row = (await db.select().from(schema.abPairs).where(eq(schema.abPairs.id, id)).limit(1))[0];
      return row && abPairRecord(row);
    }
    case "evaluations": {
      const row = await findEvaluation(db, id);
      return row && evaluationRecord(row);
    }
  }
}

// ---------- parsing ----------

/** A bundle file as read from disk or an upload (bytes, decoded strictly here) or built in memory (text). */
export type BundleFile = { file: string; text: string } | { file: string; bytes: Uint8Array };

function parseFile(input: BundleFile): { bundle?: Bundle; problems: FileProblem[] } {
  let text: string;
  if ("bytes" in input) {
    const decoded = decodeUtf8(input.bytes);
    if ("failure" in decoded) return { problems: [{ file: input.file, path: "$", message: decoded.failure.message }] };
    text = decoded.text;
  } else text = input.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return {
      problems: [
        { file: input.file, path: "$", message: `invalid JSON: ${(err as Error).message.replace(/\s+/g, " ")}` },
      ],
    };
  }
  return parseBundleValue(input.file, json);
}

function parseBundleValue(file: string, json: unknown): { bundle?: Bundle; problems: FileProblem[] } {
  // Depth and well-formed strings first: everything after this recurses into the records.
  const shape = checkJsonShape(json);
  if (shape.length > 0)
    return { problems: shape.map((p) => ({ file, path: formatJsonPath(p.path), message: p.message })) };
  try {
    return { bundle: bundleSchema.parse(json), problems: [] };
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    return {
      problems: err.issues.map((issue) => ({ file, path: formatJsonPath(issue.path), message: issue.message })),
    };
  }
}

type Stored<T> = Map<string, T | undefined>;

/**
 * Looks records up in the bundles being imported first, then in the database. The checks are
 * synchronous (app/domain), the database is not: a lookup answers from what is loaded and notes
 * what it missed; `settle` runs the checks again after loading the missed records, until nothing
 * new is asked for (a run leads to its condition, a condition to its scenario: three rounds at most).
 */
class CombinedLookup implements RecordLookup {
  private readonly scenarios: Map<string, Scenario>;
  private readonly conditions: Map<string, ReturnType<RecordLookup["condition"]>>;
  private readonly runs: Map<string, RunSummary>;
  private readonly stored = {
    scenarios: new Map() as Stored<Scenario>,
    conditions: new Map() as Stored<ReturnType<RecordLookup["condition"]>>,
    runs: new Map() as Stored<RunSummary>,
  };
  private readonly missed = { scenarios: new Set<string>(), conditions: new Set<string>(), runs: new Set<string>() };

  constructor(bundles: Bundle[]) {
    this.scenarios = new Map(bundles.flatMap((b) => b.scenarios.map((s) => [s.id, s] as const)));
    this.conditions = new Map(
      bundles.flatMap((b) =>
        b.conditions.map((c) => [c.id, { id: c.id, scenarioId: c.scenario_id, expanded: c.expanded ?? null }] as const),
      ),
    );
    this.runs = new Map(bundles.flatMap((b) => b.runs.map((r) => [r.id, summariseRun(r)] as const)));
  }

  private find<T>(kind: keyof CombinedLookup["missed"], own: Map<string, T>, stored: Stored<T>, id: string) {
    if (own.has(id)) return own.get(id);
    if (!stored.has(id)) this.missed[kind].add(id);
    return stored.get(id);
  }

  scenario = (id: string) => this.find("scenarios", this.scenarios, this.stored.scenarios, id);
  condition = (id: string) => this.find("conditions", this.conditions, this.stored.conditions, id);
  run = (id: string) => this.find("runs", this.runs, this.stored.runs, id);

  /** Loads what the lookups missed; false when they missed nothing. */
  private async loadMissed(db: Db): Promise<boolean> {
    const { scenarios, conditions, runs } = this.missed;
    if (scenarios.size + conditions.size + runs.size === 0) return false;
    for (const id of scenarios) {
      const row = await findScenario(db, id);
      this.stored.scenarios.set(id, row && scenarioRecord(row));
    }
    for (const id of conditions) {
      const row = await findCondition(db, id);
      this.stored.conditions.set(id, row && { id: row.id, scenarioId: row.scenarioId, expanded: row.expanded ?? null });
    }
    for (const id of runs) this.stored.runs.set(id, await storedRunSummary(db, id));
    for (const set of [scenarios, conditions, runs]) set.clear();
    return true;
  }

  /** `check`'s answer once every record it asks for has been loaded. */
  async settle<T>(db: Db, check: () => T): Promise<T> {
    for (;;) {
      const result = check();
      if (!(await this.loadMissed(db))) return result;
    }
  }
}

async function storedRunSummary(db: Db, id: string): Promise<RunSummary | undefined> {
  const row = await findRun(db, id);
  return (
    row && {
      id: row.id,
      conditionId: row.conditionId,
      mediated: row.mediated,
      simulatorBackbone: row.simulatorBackbone,
      speakers: await runSpeakers(db, id),
      mediatorBackbone: row.mediatorBackbone,
      partyOrder: row.partyOrder,
      seed: row.seed,
      config: row.config,
    }
  );
}

// ---------- writing ----------

async function insertRecord(db: Db, kind: RecordKind, record: unknown, lookup: RecordLookup): Promise<void> {
  switch (kind) {
    case "scenarios": {
      const s = record as Scenario;
      await db.insert(schema.scenarios).values({
        id: s.id,
        domain: s.domain,
        title: s.title,
        background: s.background,
        topics: s.topics,
        parties: s.parties,
        source: s.source,
      });
      return;
    }
    case "conditions": {
      const c = record as Condition;
      await db.insert(schema.conditions).values({
        id: c.id,
        scenarioId: c.scenario_id,
        axis: c.axis,
        variant: c.variant,
        expanded: c.expanded ?? null,
        provenance: c.provenance ?? null,
      });
      return;
    }
    case "runs":
      await insertRun(db, record as Run, lookup);
      return;
    case "matched_pairs":
      await insertMatchedPair(db, record as MatchedPair);
      return;
    case "ab_pairs": {
      const p = record as AbPairRecord;
      await db.insert(schema.abPairs).values({
        id: p.id,
        scenarioId: p.scenario_id,
        runAId: p.run_a_id,
        runBId: p.run_b_id,
        targetParty: p.target_party,
        levelA: p.level_a,
        levelB: p.level_b,
        opponentLevel: p.opponent_level ?? null,
      });
      return;
    }
    case "evaluations":
      await insertEvaluation(db, record as Evaluation, lookup);
      return;
  }
}

async function insertRun(db: Db, run: Run, lookup: RecordLookup): Promise<void> {
  await insertRunRecord(db, run, lookup.condition(run.condition_id)!.scenarioId);
}

async function insertEvaluation(db: Db, evaluation: Evaluation, lookup: RecordLookup): Promise<void> {
  const run = lookup.run(evaluation.run_id)!;
  const played = playedScenario(lookup, run.conditionId)!;
  const topicIds = played.topics.map((t) => t.id);
  const partyIds = played.parties.map((p) => p.id);
  await insertEvaluationRecord(db, evaluation, { topicIds, partyIds, speakers: run.speakers });
}

/**
 * Imports bundle files all-or-nothing. Throws BundleImportError listing every problem found
 * (file, JSON path, message) and leaves the database unchanged.
 */
export async function importBundleFiles(
  db: Db,
  files: BundleFile[],
  options: { dryRun?: boolean } = {},
): Promise<ImportSummary> {
  const summary = await importParsed(
    db,
    files.map((f) => ({ file: f.file, parsed: parseFile(f) })),
    options,
  );
  // After the commit, hand back the write-ahead log's disk space (no-op inside a caller's transaction).
  if (!summary.dryRun) checkpointWal(db);
  return summary;
}

/**
 * Imports records this process built exactly as importBundleFiles would import them as a file named
 * `label` — the same schema, checks, rows and all-or-nothing transaction — without writing them out
 * as JSON text and reading them back. The pipeline's own records whose id is already stored come
 * here (pipeline/own-records.server.ts), so an equal one is kept and a different one refused.
 */
export async function importBundleRecords(
  db: Db,
  label: string,
  records: Omit<BundleInput, "format" | "version">,
): Promise<ImportSummary> {
  return await importParsed(
    db,
    [{ file: label, parsed: parseBundleValue(label, { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, ...records }) }],
    {},
  );
}

async function importParsed(
  db: Db,
  inputs: { file: string; parsed: { bundle?: Bundle; problems: FileProblem[] } }[],
  options: { dryRun?: boolean },
): Promise<ImportSummary> {
  const problems: FileProblem[] = [];
  const parsed: { file: string; bundle: Bundle }[] = [];
  for (const { file, parsed: result } of inputs) {
    problems.push(...result.problems);
    if (result.bundle) parsed.push({ file, bundle: result.bundle });
  }
  if (problems.length > 0) throw new BundleImportError(problems);

  const summary: ImportSummary = {
    files: inputs.map((f) => f.file),
    dryRun: Boolean(options.dryRun),
    inserted: zeroCounts(),
    unchanged: zeroCounts(),
  };
  // Everything that needs no database is worked out before the write lock is taken: while the
  // lock is held, the web server's writes wait.
  const plan = planRecords(parsed);
  await transact(
    db,
    async (db) => {
      // PostgreSQL may run this again after a conflict: it starts from nothing each time.
      summary.inserted = zeroCounts();
      summary.unchanged = zeroCounts();
      problems.length = 0;
      const lookup = new CombinedLookup(parsed.map((p) => p.bundle));
      const referenceProblems = await lookup.settle(db, () =>
        parsed.flatMap(({ file, bundle }) =>
          checkBundleReferences(bundle, lookup).map((p) => ({
            file,
            path: formatJsonPath(p.path),
            message: p.message,
          })),
        ),
      );
      problems.push(...referenceProblems);
      for (const p of await uniqueKeyProblems(db, parsed))
        problems.push({ file: p.file, path: formatJsonPath(p.path), message: p.message });
      if (problems.length > 0) throw new BundleImportError(problems);
      for (const step of plan) {
        if ("problem" in step) {
          problems.push(step.problem);
          continue;
        }
        const { kind, record, content, file, index } = step;
        const stored = await storedRecord(db, kind, record.id);
        if (stored === undefined) {
          await insertRecord(db, kind, record, lookup);
          summary.inserted[kind] += 1;
        } else if (canonicalJson(stored) === content) {
          summary.unchanged[kind] += 1;
        } else {
          problems.push({
            file,
            path: formatJsonPath([kind, index]),
            message: `"${record.id}" is already stored with different content; nothing was changed (use a new id to keep both)`,
          });
        }
      }
      if (problems.length > 0) throw new BundleImportError(problems);
    },
    { dryRun: options.dryRun, bulk: true },
  );
  return summary;
}

type PlanStep =
  | { problem: FileProblem }
  | { kind: RecordKind; record: { id: string }; content: string; file: string; index: number };

/**
 * The records to store, kinds in dependency order across all files (so a file may refer to
 * another's records), each with its canonical content; a record repeated with the same content
 * is listed once, one repeated with other content becomes a problem in its place.
 */
function planRecords(parsed: { file: string; bundle: Bundle }[]): PlanStep[] {
  const plan: PlanStep[] = [];
  const firstSeen = new Map<string, { file: string; content: string }>();
  for (const kind of KINDS) {
    for (const { file, bundle } of parsed) {
      (bundle[kind] as { id: string }[]).forEach((record, index) => {
        const content = canonicalJson(record);
        const key = `${kind}/${record.id}`;
        const earlier = firstSeen.get(key);
        if (!earlier) {
          firstSeen.set(key, { file, content });
          plan.push({ kind, record, content, file, index });
        } else if (earlier.content !== content) {
          plan.push({
            problem: {
              file,
              path: formatJsonPath([kind, index]),
              message: `"${record.id}" differs from the record with the same id in ${earlier.file}`,
            },
          });
        }
      });
    }
  }
  return plan;
}

/** Every bundle record in the database, ordered by id so the output is reproducible. */
export async function exportBundle(db: Db): Promise<Bundle> {
  const turnRows = await db.select().from(schema.turns).orderBy(asc(schema.turns.runId), asc(schema.turns.turnId));
  const turnsByRun = new Map<string, (typeof schema.turns.$inferSelect)[]>();
  for (const t of turnRows) {
    const list = turnsByRun.get(t.runId) ?? [];
    list.push(t);
    turnsByRun.set(t.runId, list);
  }
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    scenarios: (await db.select().from(schema.scenarios).orderBy(asc(schema.scenarios.id))).map(scenarioRecord),
    conditions: (await db.select().from(schema.conditions).orderBy(asc(schema.conditions.id))).map(conditionRecord),
    runs: (await db.select().from(schema.runs).orderBy(asc(schema.runs.id))).map((r) =>
      runRecord(r, turnsByRun.get(r.id) ?? []),
    ),
    matched_pairs: (await allMatchedPairs(db)).map(pairRecord),
    ab_pairs: (await db.select().from(schema.abPairs).orderBy(asc(schema.abPairs.id))).map(abPairRecord),
    evaluations: (await db.select().from(schema.evaluations).orderBy(asc(schema.evaluations.id))).map(evaluationRecord),
  };
}
