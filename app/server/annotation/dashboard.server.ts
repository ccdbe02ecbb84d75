/**
 * The study dashboard: progress, agreement (with and without flagged annotators), gold accuracy,
 * and the type's own figures (consensus: the alignment table and trend; A/B: fidelity), from its
 * handler in task-types/. Every figure comes from the pure analytics in app/domain/validation on
 * rows loaded here.
 */
import { flagAnnotators, goldAccuracy, goldFor, studyProgress } from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { assignedAnnotators } from "../models/assignment.server.ts";
import { labelStatusCounts } from "../models/label.server.ts";
import { forStatistics, loadActiveLeases, loadItems, loadLatestLabels } from "./dashboard-data.server.ts";
import { getStudy } from "./studies.server.ts";
import { TASK_SERVERS, type DashboardFigures } from "./task-types/registry.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import { LABEL_STATUSES, type LabelStatus } from "../../domain/label-status.ts";

export interface DashboardOptions {
  /** Leave annotators flagged on gold items out of agreement and alignment. */
  excludeFlagged?: boolean;
}

export function studyDashboard(db: Db, studyId: number, options: DashboardOptions = {}) {
  const study = getStudy(db, studyId);
  const config = parseStudyConfig(study.config);
  const items = loadItems(db, [studyId]);
  const stored = loadLatestLabels(db, [studyId], "stored");
  // Statistics and progress use the labels that count; gold accuracy judges each worker's own work, pending or not.
  const labels = forStatistics(db, stored);
  // Everyone who holds or held an item here, labelled or not, is shown by name.
  const names = Object.fromEntries(
    assignedAnnotators(db, studyId)
      .map((r) => [String(r.id), r.name])
      .concat(labels.map((l) => [l.annotatorId, l.annotatorName])),
  );

  const progress = studyProgress(
    items.map((i) => ({ itemId: i.itemId, isGold: i.isGold })),
    labels.map((l) => ({ itemId: l.itemId, annotatorId: l.annotatorId, secondsOnTask: l.secondsOnTask })),
    loadActiveLeases(db, studyId),
    study.labelsPerItem,
  );
  const gold = goldAccuracy(goldFor(items), stored);
  const flagged = flagAnnotators(gold, config.goldThreshold, config.goldMinAttempted);
  const exclude = options.excludeFlagged ? flagged : [];
  const boot = { draws: config.bootstrapDraws, seed: config.seed };
  const figures: DashboardFigures = TASK_SERVERS[study.type].dashboard({ db, study, items, labels, flagged, exclude, boot });
  return {
    study: { id: study.id, name: study.name, type: study.type, pool: study.pool, status: study.status, labelsPerItem: study.labelsPerItem, config },
    names,
    progress,
    gold,
    flagged,
    excludeFlagged: Boolean(options.excludeFlagged),
    labelStatus: labelStatusOf(db, studyId),
    ...figures,
  };
}

/** Every stored label of the study by status (counted, pending, surplus), zero where none. */
function labelStatusOf(db: Db, studyId: number): Record<LabelStatus, number> {
  const counts = labelStatusCounts(db, studyId);
  return Object.fromEntries(LABEL_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<LabelStatus, number>;
}

export type StudyDashboard = ReturnType<typeof studyDashboard>;
