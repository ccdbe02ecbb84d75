/**
 * The study dashboard: progress, agreement (with and without flagged annotators), gold accuracy,
 * the labels faster than the study's minimum seconds on task (left out on request),
 * and the type's own figures (consensus: the alignment table and trend; A/B: fidelity), from its
 * handler in task-types/. Every figure comes from the pure analytics in app/domain/validation on
 * rows loaded here. The figures that depend only on stored labels and data (`dashboardAnalytics`)
 * are what dashboard-cache.server.ts keeps under the data mark; those that depend on assignment leases (progress, the
 * names of everyone holding an item: `leaseParts`) it keeps under the lease mark too, until the first lease ends.
 */
import {
  fastLabels,
  flagAnnotators,
  goldAccuracy,
  goldFor,
  studyProgress,
  withoutFast,
  type ProgressItem,
  type ProgressLabel,
} from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { assignedAnnotators } from "../models/assignment.server.ts";
import { labelStatusCounts } from "../models/label.server.ts";
import { forStatistics, loadActiveLeases, loadItems, loadLatestLabels } from "./dashboard-data.server.ts";
import { getStudy } from "./studies.server.ts";
import { TASK_SERVERS, type DashboardFigures } from "../../task-types/registry.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { LABEL_STATUSES, type LabelStatus } from "../../domain/label-status.ts";

export interface DashboardOptions {
  /** Leave annotators flagged on gold items out of agreement and alignment. */
  excludeFlagged?: boolean;
  /** Leave labels faster than the study's minimum seconds on task out of agreement and alignment (issue 28). */
  excludeFast?: boolean;
}

/** Everything on the dashboard that assignment leases do not change, with what progress is computed from. */
export async function dashboardAnalytics(db: Db, studyId: number, options: DashboardOptions = {}) {
  const study = await getStudy(db, studyId);
  const config = parseStudyConfig(study.config);
  const items = await loadItems(db, [studyId]);
  const stored = await loadLatestLabels(db, [studyId], "stored");
  // Statistics and progress use the labels that count; gold accuracy judges each worker's own work, pending or not.
  const labels = await forStatistics(db, stored);
  const gold = goldAccuracy(goldFor(items), stored);
  const flagged = flagAnnotators(gold, config.goldThreshold, config.goldMinAttempted);
  const exclude = options.excludeFlagged ? flagged : [];
  const boot = { draws: config.bootstrapDraws, seed: config.seed };
  // Like gold accuracy, judged on each worker's own stored work; leaving them out touches the statistics only, not
  // progress.
  const fast = fastLabels(stored, config.minSecondsOnTask);
  const excludeFast = Boolean(options.excludeFast);
  const counted = excludeFast ? withoutFast(labels, fast) : labels;
  const figures: DashboardFigures = await TASK_SERVERS[study.type].dashboard({
    db,
    study,
    items,
    labels: counted,
    flagged,
    exclude,
    excludeFast,
    boot,
  });
  return {
    study: {
      id: study.id,
      name: study.name,
      type: study.type,
      pool: study.pool,
      status: study.status,
      labelsPerItem: study.labelsPerItem,
      config,
    },
    labelNames: labels.map((l): [string, string] => [l.annotatorId, l.annotatorName]),
    progressItems: items.map((i): ProgressItem => ({ itemId: i.itemId, isGold: i.isGold })),
    progressLabels: labels.map(
      (l): ProgressLabel => ({ itemId: l.itemId, annotatorId: l.annotatorId, secondsOnTask: l.secondsOnTask }),
    ),
    gold,
    flagged,
    excludeFlagged: Boolean(options.excludeFlagged),
    fast,
    excludeFast,
    labelStatus: await labelStatusOf(db, studyId),
    figures,
  };
}

export type DashboardAnalytics = Awaited<ReturnType<typeof dashboardAnalytics>>;

/**
 * What leases change, read at `now`: everyone's name (whoever holds or held an item here, labelled or not) and
 * progress, with when the first running lease ends (null: none runs). Until then they change only with a write to the
 * study's assignments, which moves its lease mark (dashboard-cache.server.ts keeps them on that).
 */
export async function leaseParts(db: Db, a: DashboardAnalytics, now = new Date()) {
  const studyId = a.study.id;
  const names = Object.fromEntries(
    (await assignedAnnotators(db, studyId)).map((r): [string, string] => [String(r.id), r.name]).concat(a.labelNames),
  );
  const leases = await loadActiveLeases(db, studyId, now);
  const progress = studyProgress(a.progressItems, a.progressLabels, leases, a.study.labelsPerItem);
  let endsAt: string | null = null;
  for (const l of leases) if (endsAt === null || l.leaseExpiresAt < endsAt) endsAt = l.leaseExpiresAt;
  return { names, progress, endsAt };
}

/** The dashboard from its analytics plus what leases change (read now unless given). */
export async function withLeaseParts(
  db: Db,
  a: DashboardAnalytics,
  partsGiven?: Awaited<ReturnType<typeof leaseParts>>,
) {
  const parts = partsGiven ?? (await leaseParts(db, a));
  const { names, progress } = parts;
  const { study, gold, flagged, excludeFlagged, fast, excludeFast, labelStatus, figures } = a;
  return { study, names, progress, gold, flagged, excludeFlagged, fast, excludeFast, labelStatus, ...figures };
}

/** The dashboard computed now, uncached (the CLI, reports and tests; the page reads it through the cache). */
export async function studyDashboard(db: Db, studyId: number, options: DashboardOptions = {}) {
  return await withLeaseParts(db, await dashboardAnalytics(db, studyId, options));
}

/** Every stored label of the study by status (counted, pending, surplus), zero where none. */
async function labelStatusOf(db: Db, studyId: number): Promise<Record<LabelStatus, number>> {
  const counts = await labelStatusCounts(db, studyId);
  return Object.fromEntries(LABEL_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<LabelStatus, number>;
}

export type StudyDashboard = Awaited<ReturnType<typeof studyDashboard>>;
