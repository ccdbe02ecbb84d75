/**
 * The metric parameters `socrates metrics` last computed with, kept in the settings table
 * (key `metric-params`), so what reads stored results beside the metric rows — the dashboard's
 * alignment, which needs s0 — uses the same constants and can show them.
 */
import { DEFAULT_METRIC_PARAMS, parseMetricParams, type MetricParams } from "../../domain/metrics/metric-params.ts";
import type { Db } from "../db.server.ts";
import { readSetting, SETTING_KEYS, writeSetting } from "../models/setting.server.ts";

/** The recorded parameters, or the defaults when `socrates metrics` has not run yet. */
export async function currentMetricParams(db: Db): Promise<MetricParams> {
  const stored = await readSetting(db, SETTING_KEYS.metricParams);
  if (stored === undefined) return DEFAULT_METRIC_PARAMS;
  return parseMetricParams(stored, `settings "${SETTING_KEYS.metricParams}"`);
}

/**
 * Records the parameters, unless they are the ones recorded: every write of a setting bumps the
 * global data version, one row that, on PostgreSQL, concurrent writers wait for and then fail on
 * (a benchmark stores metrics per run, always with the same parameters).
 */
export async function recordMetricParams(db: Db, params: MetricParams): Promise<void> {
  const stored = await readSetting(db, SETTING_KEYS.metricParams);
  if (stored !== undefined && JSON.stringify(stored) === JSON.stringify(params)) return;
  await writeSetting(db, SETTING_KEYS.metricParams, params);
}
