/**
 * The study dashboard as the page shows it: figures only, never the full rating matrix, with
 * excluded annotators by name. Each type shapes its own figures (task-types/<id>.server.ts);
 * that shape (`figuresView`) is cached with the figures, the names are put in on each request
 * (`namedView`) because who holds an item follows the leases.
 */
import type { Db } from "../db.server.ts";
import { studyDashboard, type StudyDashboard } from "./dashboard.server.ts";
import type { DashboardViewOptions, TaskTypeServer } from "../../task-types/handler.server.ts";
import { TASK_SERVERS, type DashboardFigures, type DashboardView } from "../../task-types/registry.server.ts";

/** What the page asks for: leave flagged annotators out or not, fast labels out or not, and the reference backbone. */
export type ViewOptions = DashboardViewOptions & { excludeFast?: boolean };

/** The view options a dashboard address asks for (`?exclude=flagged`, `?fast=exclude`, `?reference=<backbone>`). */
export function dashboardOptions(url: URL): ViewOptions {
  return {
    excludeFlagged: url.searchParams.get("exclude") === "flagged",
    excludeFast: url.searchParams.get("fast") === "exclude",
    reference: url.searchParams.get("reference") || null,
  };
}

/**
 * The type's own view of its figures, excluded annotators by id; the handler is looked up by the figures' own kind, so
 * they match.
 */
export function figuresView(figures: DashboardFigures, options: ViewOptions): DashboardView {
  const server = TASK_SERVERS[figures.kind] as TaskTypeServer<DashboardFigures["kind"], DashboardFigures>;
  return server.dashboardView(figures, options) as DashboardView;
}

/** The page's dashboard: the common parts and the type's view, with excluded annotators by name. */
export function namedView(d: Omit<StudyDashboard, keyof DashboardFigures>, part: DashboardView) {
  const named = <T extends { excluded: string[] }>(summary: T): T => ({
    ...summary,
    excluded: summary.excluded.map((id) => d.names[id] ?? id),
  });
  const common = {
    study: d.study,
    names: d.names,
    progress: d.progress,
    gold: d.gold,
    flagged: d.flagged,
    excludeFlagged: d.excludeFlagged,
    fast: d.fast,
    excludeFast: d.excludeFast,
    labelStatus: d.labelStatus,
  };
  return {
    ...common,
    ...part,
    agreement: named(part.agreement),
    agreementWithoutFlagged: part.agreementWithoutFlagged ? named(part.agreementWithoutFlagged) : null,
  };
}

/** The page's dashboard computed now, uncached. */
export async function studyDashboardView(db: Db, studyId: number, options: ViewOptions) {
  const d = await studyDashboard(db, studyId, options);
  return namedView(d, figuresView(d, options));
}

export type StudyDashboardView = Awaited<ReturnType<typeof studyDashboardView>>;
