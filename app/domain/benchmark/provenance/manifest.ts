/**
 * A report folder's `manifest.json`: what the report was built from and with (project version
 * and commit, the plan and its hash, the hash of the LLM configuration with its secrets removed,
 * models per role, seeds, studies, counts, the date), a content hash of every database row its
 * numbers came from, and the numbers themselves, so `socrates report --verify DIR` can rebuild
 * the report and name the first number that is no longer identical. Format: docs/report.md.
 */
import { z } from "zod";
import { formatJsonPath } from "../../judge-problems.ts";

export const MANIFEST_FORMAT = "socrates-report-manifest";
export const MANIFEST_VERSION = 1;

/** One database table's rows that fed the report: each row's content hash by its key. */
export interface SourceRows {
  rows: number;
  /** sha256 over the sorted "key hash" lines: equal digests, equal rows. */
  digest: string;
  /** Row key → the first 16 hex digits of the sha256 of its content. */
  hashes: Record<string, string>;
}

const numberSchema = z
  .object({
    table: z.string(),
    row: z.string(),
    column: z.string(),
    field: z.string(),
    value: z.union([z.number(), z.string(), z.null()]),
    rowLabel: z.string().optional(),
    columnLabel: z.string().optional(),
  })
  .strict();

const sourceSchema = z
  .object({ rows: z.number().int().min(0), digest: z.string(), hashes: z.record(z.string(), z.string()) })
  .strict();

export const manifestSchema = z
  .object({
    format: z.literal(MANIFEST_FORMAT),
    version: z.literal(MANIFEST_VERSION),
    generatedAt: z.string(),
    project: z
      .object({ name: z.string(), version: z.string(), commit: z.string(), dirty: z.boolean().nullable() })
      .strict(),
    plan: z.object({ name: z.string(), hash: z.string(), source: z.string(), definition: z.unknown() }).strict(),
    /** sha256 of the LLM configuration (canonical JSON, secrets removed); null when there is no configuration file. */
    config: z.object({ path: z.string(), hash: z.string().nullable() }).strict(),
    models: z.record(z.string(), z.unknown()),
    seeds: z.record(z.string(), z.number()),
    studyIds: z.array(z.number().int()),
    options: z
      .object({
        bins: z.number().int(),
        bootstrap: z.object({ draws: z.number(), seed: z.number(), level: z.number() }).strict(),
      })
      .strict(),
    counts: z.record(z.string(), z.number()),
    files: z.record(z.string(), z.string()),
    sources: z.record(z.string(), sourceSchema),
    numbers: z.array(numberSchema),
  })
  .strict();

export type ReportManifest = z.output<typeof manifestSchema>;

/** A manifest that does not parse; the message names the file and the JSON path. */
export class ManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ManifestError";
  }
}

export function parseManifest(text: string, source: string): ReportManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ManifestError(`${source}: $: invalid JSON: ${(err as Error).message}`);
  }
  const result = manifestSchema.safeParse(value);
  if (!result.success)
    throw new ManifestError(
      result.error.issues.map((i) => `${source}: ${formatJsonPath(i.path)}: ${i.message}`).join("\n"),
    );
  return result.data;
}

export interface SourceChange {
  table: string;
  changed: string[];
  added: string[];
  removed: string[];
}

/** Per table, the row keys whose content hash changed, appeared or went since the manifest was written. */
export function sourceChanges(stored: Record<string, SourceRows>, now: Record<string, SourceRows>): SourceChange[] {
  const tables = [...new Set([...Object.keys(stored), ...Object.keys(now)])].sort();
  return tables.flatMap((table) => {
    const before = stored[table]?.hashes ?? {};
    const after = now[table]?.hashes ?? {};
    const changed = Object.keys(before).filter((k) => k in after && after[k] !== before[k]);
    const removed = Object.keys(before).filter((k) => !(k in after));
    const added = Object.keys(after).filter((k) => !(k in before));
    return changed.length + added.length + removed.length > 0 ? [{ table, changed, added, removed }] : [];
  });
}

/** "metric_values: 1 changed (run:r1|e1|IT)" — at most `limit` keys per kind. */
export function describeSourceChange(c: SourceChange, limit = 5): string {
  const list = (keys: string[]) =>
    `${keys.slice(0, limit).join(", ")}${keys.length > limit ? `, … (${keys.length - limit} more)` : ""}`;
  const parts = [
    c.changed.length > 0 ? `${c.changed.length} changed (${list(c.changed)})` : null,
    c.added.length > 0 ? `${c.added.length} added (${list(c.added)})` : null,
    c.removed.length > 0 ? `${c.removed.length} removed (${list(c.removed)})` : null,
  ].filter(Boolean);
  return `${c.table}: ${parts.join("; ")}`;
}
