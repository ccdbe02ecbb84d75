/**
 * The study dashboard as the page shows it: figures only, never the full rating matrix, with
 * excluded annotators by name. Each type shapes its own figures (task-types/<id>.server.ts).
 */
import type { Db } from "../db.server.ts";
import { studyDashboard } from "./dashboard.server.ts";
import type { DashboardViewOptions, TaskTypeServer } from "./task-types/handler.server.ts";
import { TASK_SERVERS, type DashboardFigures, type DashboardView } from "./task-types/registry.server.ts";

/** The type's own view of its figures; the handler is looked up by the figures' own kind, so they match. */
function typeView(figures: DashboardFigures, options: DashboardViewOptions): DashboardView {
  const server = TASK_SERVERS[figures.kind] as TaskTypeServer<DashboardFigures["kind"], DashboardFigures>;
  return server.dashboardView(figures, options) as DashboardView;
}

export function studyDashboardView(db: Db, studyId: number, options: { excludeFlagged: boolean; reference?: string | null }) {
  const d = studyDashboard(db, studyId, options);
  const named = <T extends { excluded: string[] }>(summary: T): T => ({ ...summary, excluded: summary.excluded.map((id) => d.names[id] ?? id) });
  const common = { study: d.study, names: d.names, progress: d.progress, gold: d.gold, flagged: d.flagged, excludeFlagged: d.excludeFlagged, labelStatus: d.labelStatus };
  return { ...common, ...typeView(d, { excludeFlagged: options.excludeFlagged, reference: options.reference, named }) };
}
