/**
 * `socrates probe`: expands scenarios into their conditions (the paper's 15, Table 5) and stores
 * each through the bundle import, one condition at a time, so an interrupted probe resumes where
 * it stopped and a re-run changes nothing. Strategy, emotion and culture are fixed templates (no
 * LLM); three-party and history go through the writer (writer.server.ts).
 */
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Condition, type ConditionAxis } from "../../domain/bundle.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { conditionId, PROBE_CONDITIONS, type ConditionKey } from "../../domain/probing/conditions.ts";
import {
  generalCondition,
  isTemplateAxis,
  isWriterAxis,
  templateCondition,
  templateTexts,
  type TemplateAxis,
} from "../../domain/probing/expand.ts";
import type { ProbeScenario } from "../../domain/probing/expand-values.ts";
import { BundleImportError, importBundleFiles } from "../bundle-store.server.ts";
import type { Db } from "../db.server.ts";
import { conditionsOfScenario, generalCondition as storedGeneralCondition } from "../models/condition.server.ts";
import { findScenario } from "../models/scenario.server.ts";
import { textVersion } from "../pipeline/prompt-templates.server.ts";
import { seedOfScenario } from "./seed-lookup.server.ts";
import { writeHistory, writeThreeParty, type WriterOutcome } from "./writer.server.ts";

export class ProbeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProbeInputError";
  }
}

export interface PlannedCondition extends ConditionKey {
  scenarioId: string;
  id: string;
  /** Stored already (by this axis and variant): skipped, no call made. */
  stored: boolean;
  /** Needs the writer (an LLM call). */
  writer: boolean;
}

export type ProbeEvent =
  | { type: "created"; condition: PlannedCondition }
  | { type: "already-stored"; condition: PlannedCondition }
  | { type: "rejected"; condition: PlannedCondition; reason: string }
  | { type: "failed"; condition: PlannedCondition; reason: string };

export interface ProbeSummary {
  created: string[];
  alreadyStored: string[];
  rejected: { id: string; reason: string }[];
  failed: { id: string; reason: string }[];
  /** Interrupted (signal) before every planned condition was tried. */
  stopped: boolean;
}

/** The conditions the probe would store for these scenarios and axes, in Table 5 order per scenario. */
export async function planProbe(
  db: Db,
  scenarioIds: readonly string[],
  axes: readonly ConditionAxis[],
): Promise<PlannedCondition[]> {
  const planned: PlannedCondition[] = [];
  for (const scenarioId of scenarioIds) {
    if (!(await findScenario(db, scenarioId))) throw new ProbeInputError(`unknown scenario "${scenarioId}"`);
    const stored = new Set((await conditionsOfScenario(db, scenarioId)).map((c) => `${c.axis}/${c.variant}`));
    for (const k of PROBE_CONDITIONS.filter((k) => axes.includes(k.axis))) {
      planned.push({
        ...k,
        scenarioId,
        id: conditionId(scenarioId, k.axis, k.variant),
        stored: stored.has(`${k.axis}/${k.variant}`),
        writer: isWriterAxis(k.axis),
      });
    }
  }
  return planned;
}

async function probeScenario(db: Db, scenarioId: string): Promise<ProbeScenario> {
  const row = (await findScenario(db, scenarioId))!;
  return { id: row.id, title: row.title, background: row.background, topics: row.topics, parties: row.parties };
}

/** The prompt_version of a template condition: a short hash of the fixed texts it appends. */
export function templateVersionOf(texts: readonly string[]): string {
  return textVersion(texts.join("\n\n"));
}

export function expandTemplate(s: ProbeScenario, axis: TemplateAxis, variant: string): Condition {
  return templateCondition(s, axis, variant, templateVersionOf(templateTexts(s, axis, variant)));
}

async function expandOne(db: Db, llm: Llm | null, planned: PlannedCondition): Promise<WriterOutcome> {
  const s = await probeScenario(db, planned.scenarioId);
  if (planned.axis === "general") return { ok: true, condition: generalCondition(s.id) };
  if (isTemplateAxis(planned.axis)) return { ok: true, condition: expandTemplate(s, planned.axis, planned.variant) };
  if (!llm)
    throw new ProbeInputError("the parties and history conditions need the writer role of an LLM configuration");
  const seed = await seedOfScenario(db, s.id);
  return planned.axis === "parties" ? writeThreeParty(llm, s, seed) : writeHistory(llm, s, seed);
}

/** Stores one condition (and the scenario's general condition when it has none), all-or-nothing. */
async function store(db: Db, condition: Condition): Promise<void> {
  const hasGeneral = (await storedGeneralCondition(db, condition.scenario_id)) !== undefined;
  const conditions =
    hasGeneral || condition.axis === "general" ? [condition] : [generalCondition(condition.scenario_id), condition];
  await importBundleFiles(db, [
    {
      file: `probe:${condition.id}`,
      text: JSON.stringify({ format: BUNDLE_FORMAT, version: BUNDLE_VERSION, conditions }),
    },
  ]);
}

export interface ProbeOptions {
  db: Db;
  /** Needed only when a writer condition (parties, history) is still to be made. */
  llm: Llm | null;
  plan: readonly PlannedCondition[];
  onEvent?: (e: ProbeEvent) => void;
  signal?: AbortSignal;
}

export async function probe(options: ProbeOptions): Promise<ProbeSummary> {
  const { db, llm, plan } = options;
  if (!llm && plan.some((c) => c.writer && !c.stored))
    throw new ProbeInputError("the parties and history conditions need the writer role of an LLM configuration");
  const summary: ProbeSummary = { created: [], alreadyStored: [], rejected: [], failed: [], stopped: false };
  const emit = (e: ProbeEvent) => options.onEvent?.(e);
  for (const planned of plan) {
    if (options.signal?.aborted) return { ...summary, stopped: true };
    if (planned.stored) {
      summary.alreadyStored.push(planned.id);
      emit({ type: "already-stored", condition: planned });
      continue;
    }
    const outcome = await expandOne(db, llm, planned);
    if (!outcome.ok) {
      (outcome.invalid ? summary.rejected : summary.failed).push({ id: planned.id, reason: outcome.reason });
      emit({ type: outcome.invalid ? "rejected" : "failed", condition: planned, reason: outcome.reason });
      continue;
    }
    try {
      await store(db, outcome.condition);
    } catch (err) {
      if (!(err instanceof BundleImportError)) throw err;
      summary.rejected.push({ id: planned.id, reason: err.message });
      emit({ type: "rejected", condition: planned, reason: err.message });
      continue;
    }
    summary.created.push(planned.id);
    emit({ type: "created", condition: planned });
  }
  return summary;
}
