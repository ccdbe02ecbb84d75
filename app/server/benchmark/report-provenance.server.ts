/**
 * The provenance of a benchmark report: the rows of the database its numbers came from, hashed
 * row by row (report-manifest.server.ts writes them into manifest.json and compares them on
 * --verify). Read-only. The rows are the metric rows of the plan's grid that the report reads
 * (report-data.server.ts: IT, IE, IF, FI and the emotion metrics of its runs, CG of its pairs),
 * and for Tables 1, 2 and 6 the named studies, their items, labels and the judges' evaluations
 * of their runs (with the crowd studies on the same snippets, whose labels Table 2 reads).
 */
import { createHash } from "node:crypto";
import type { SourceRows } from "../../domain/benchmark/provenance/manifest.ts";
import { loadItems, loadLatestLabels } from "../annotation/dashboard-data.server.ts";
import type { Db } from "../db.server.ts";
import { evaluationsOfRun } from "../models/evaluation.server.ts";
import { metricRowsOfMetrics } from "../models/metric-value.server.ts";
import { crowdStudiesOnSameSnippets, findStudy } from "../models/study.server.ts";
import { planGrid, type LoadedPlan } from "./plan-file.server.ts";
import { EMOTION_METRICS } from "./report-data.server.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** JSON with object keys sorted, so equal content hashes equal whatever the key order. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value)) ?? "null";
}

/** Hashes each row's content under its key; the digest covers every key and hash in key order. */
export function hashRows(rows: Iterable<[key: string, content: unknown]>): SourceRows {
  const hashes: Record<string, string> = {};
  for (const [key, content] of rows) hashes[key] = sha256(canonicalJson(content)).slice(0, 16);
  const keys = Object.keys(hashes).sort();
  return {
    rows: keys.length,
    digest: sha256(keys.map((k) => `${k} ${hashes[k]}`).join("\n")),
    hashes: Object.fromEntries(keys.map((k) => [k, hashes[k]])),
  };
}

/**
 * The metric rows of the grid's runs and pairs that the report reads (computed_at left out: a recomputation to the same
 * values is the same row).
 */
async function metricSource(db: Db, loaded: LoadedPlan): Promise<SourceRows> {
  const runs = new Set<string>();
  const pairs = new Set<string>();
  for (const unit of (await planGrid(db, loaded.plan)).units) {
    runs.add(unit.unmediatedRunId);
    for (const m of unit.mediated) {
      runs.add(m.runId);
      pairs.add(m.pairId);
    }
  }
  const rows: [string, unknown][] = [];
  const take = async (kind: "run" | "pair", ids: Set<string>, metrics: readonly string[]) => {
    for (const r of await metricRowsOfMetrics(db, kind, metrics)) {
      if (ids.has(r.subjectId))
        rows.push([
          `${kind}:${r.subjectId}|${r.evaluationId}|${r.metric}`,
          { value: r.value, detail: r.detail, params: r.params },
        ]);
    }
  };
  await take("run", runs, ["IT", "IE", "IF", "FI", ...EMOTION_METRICS]);
  await take("pair", pairs, ["CG"]);
  return hashRows(rows);
}

/**
 * The named studies with the crowd studies on their snippets: their settings, items, stored labels and the evaluations
 * of their runs.
 */
async function studySources(db: Db, studyIds: readonly number[]): Promise<Record<string, SourceRows>> {
  const named: number[] = [];
  for (const id of studyIds) if ((await findStudy(db, id)) !== undefined) named.push(id);
  const crowd: number[] = [];
  for (const id of named) crowd.push(...(await crowdStudiesOnSameSnippets(db, id)));
  const all = [...new Set([...named, ...crowd])].sort((a, b) => a - b);
  const studies = await Promise.all(
    all.map(async (id): Promise<[string, unknown]> => {
      const s = (await findStudy(db, id))!;
      return [
        `study:${id}`,
        { name: s.name, type: s.type, pool: s.pool, labelsPerItem: s.labelsPerItem, config: s.config },
      ];
    }),
  );
  const items = await loadItems(db, all);
  const labels = (await loadLatestLabels(db, all, "stored")).map((l): [string, unknown] => [
    `label:${l.labelId}`,
    {
      itemId: l.itemId,
      annotatorId: l.annotatorId,
      status: l.status,
      revision: l.revision,
      payload: l.payload,
      secondsOnTask: l.secondsOnTask,
    },
  ]);
  const runIds = [...new Set(items.flatMap((i) => (i.runId ? [i.runId] : [])))].sort();
  const evaluations: [string, unknown][] = [];
  for (const runId of runIds) {
    for (const e of await evaluationsOfRun(db, runId)) {
      evaluations.push([
        `evaluation:${e.id}`,
        { method: e.method, backbone: e.backbone, output: e.output, errors: e.errors },
      ]);
    }
  }
  return {
    studies: hashRows(studies),
    study_items: hashRows(items.map((i): [string, unknown] => [`item:${i.itemId}`, i])),
    labels: hashRows(labels),
    evaluations: hashRows(evaluations),
  };
}

/** Every source table's rows, hashed: metric_values always; the study tables when the report names studies. */
export async function reportSources(
  db: Db,
  loaded: LoadedPlan,
  studyIds: readonly number[],
): Promise<Record<string, SourceRows>> {
  return {
    metric_values: await metricSource(db, loaded),
    ...(studyIds.length > 0 ? await studySources(db, studyIds) : {}),
  };
}
