/**
 * Every benchmark metric, in display order (CLI table columns, rows on the run page). Adding a
 * metric: a descriptor file in benchmark/, its test, and one line here.
 */
import { cc } from "./benchmark/cc.ts";
import { cg } from "./benchmark/cg.ts";
import { ec } from "./benchmark/ec.ts";
import { ef } from "./benchmark/ef.ts";
import { er } from "./benchmark/er.ts";
import { ev } from "./benchmark/ev.ts";
import { fi } from "./benchmark/fi.ts";
import { ie } from "./benchmark/ie.ts";
import { ifMetric } from "./benchmark/if.ts";
import { it } from "./benchmark/it.ts";
import { me } from "./benchmark/me.ts";
import { mi } from "./benchmark/mi.ts";
import { rl } from "./benchmark/rl.ts";
import { tle } from "./benchmark/tle.ts";
import type { MetricDescriptor } from "./descriptor.ts";

export const METRICS = [it, ie, ifMetric, fi, cc, tle, rl, me, mi, cg, er, ef, ev, ec] as const;

export type RegisteredMetric = (typeof METRICS)[number];
export type MetricId = RegisteredMetric["id"];

export const METRIC_IDS: readonly MetricId[] = METRICS.map((m) => m.id);

/** The mediator metrics (declared `mediatedOnly`), which unmediated runs do not have. */
export const MEDIATOR_METRIC_IDS: readonly MetricId[] = (METRICS as readonly MetricDescriptor[])
  .filter((m) => m.mediatedOnly)
  .map((m) => m.id as MetricId);

const byId = new Map<string, MetricDescriptor>(METRICS.map((m) => [m.id, m]));

/** The descriptor of a stored metric id, or undefined for an id no longer registered. */
export function metricById(id: string): MetricDescriptor | undefined {
  return byId.get(id);
}

/**
 * The current definition version of a metric id (descriptor `version`, 1 when absent); null for
 * an id no longer registered. A stored row with another version is stale: computed by an earlier
 * definition, it is not this metric's value.
 */
export function definitionVersion(id: string): number | null {
  const metric = byId.get(id);
  return metric ? (metric.version ?? 1) : null;
}

/**
 * Whether a stored row was computed by its metric's current definition. A row of a metric no
 * longer registered has no current definition to contradict: it is read as before.
 */
export function isCurrentDefinition(row: { metric: string; definitionVersion: number }): boolean {
  const current = definitionVersion(row.metric);
  return current === null || current === row.definitionVersion;
}

/** Display position of a metric id; unknown ids sort last. */
export function metricOrder(id: string): number {
  const index = METRIC_IDS.indexOf(id as MetricId);
  return index === -1 ? METRICS.length : index;
}

/**
 * Whether a metric's rows are stored under one of the run's evaluations (rather than the run, a
 * judge, a pair or an emotion trajectory).
 */
export function readsEvaluation(id: string): boolean {
  const input = metricById(id)?.input;
  return input === "topic-localized" || input === "per-turn";
}

/** Whether a metric reads an emotion trajectory (its rows carry `detail.source`, the run page groups them by it). */
export function readsEmotion(id: string): boolean {
  const input = metricById(id)?.input;
  return input === "emotion" || input === "emotion-consensus";
}
