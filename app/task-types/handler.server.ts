/**
 * What the server does differently per task type, declared once per type (one file beside this
 * one each) and listed by id in registry.server.ts. The pure per-type pieces live in the type's
 * definition (definition.ts beside its handlers); these are the ones that read or write the database.
 */
import type { AgreementSummary } from "../domain/validation/index.ts";
import type { LabelOf, LabelPayload, TaskTypeId, ViewOf } from "./registry.ts";
import type { StudyFormChoices } from "./study-form.ts";
import type { Db } from "../server/db.server.ts";
import type { ItemRow, StudyRow } from "../server/models/study.server.ts";
import type { SnippetContext } from "../server/annotation/task-view.server.ts";
import type { DashboardCharts } from "../domain/charts/chart-data.ts";
import type { ItemRecord, LabelRecord } from "../server/annotation/dashboard-data.server.ts";
import type { CommonStudyInput } from "../server/annotation/new-study.server.ts";

/** What the study dashboard has loaded and decided before the type's own figures. */
export interface DashboardContext {
  db: Db;
  study: StudyRow;
  items: ItemRecord[];
  labels: LabelRecord[];
  /** Annotators below the gold threshold. */
  flagged: string[];
  /** The annotators left out: the flagged ones when the admin excludes them, else none. */
  exclude: string[];
  /**
   * Labels under the minimum seconds on task are left out: `labels` is without this study's; other studies' labels a
   * type reads leave theirs out too (`withoutFastLabels`).
   */
  excludeFast: boolean;
  boot: { draws: number; seed: number };
}

export interface DashboardViewOptions {
  excludeFlagged: boolean;
  /** The backbone the page asked to compare the others against (`?reference=`), if any. */
  reference?: string | null;
}

/** The figures every type's dashboard page shows; a type fills the sections it has and nulls the others. */
export interface DashboardViewPart<Id extends TaskTypeId> {
  kind: Id;
  agreement: AgreementSummary;
  agreementWithoutFlagged: AgreementSummary | null;
  fidelity: unknown;
  alignment: unknown;
  trend: unknown;
  comparison: unknown;
}

/** The task page's part that depends on the type: the blinded view and what the form starts from. */
export interface TaskPartBase<Id extends TaskTypeId> {
  task: ViewOf<Id>;
  previousLabel: unknown;
  initialLabel: unknown;
  initialChoice: unknown;
}

export interface TaskTypeServer<Id extends TaskTypeId, Figures extends { kind: Id } = { kind: Id }> {
  /** The type's id (the registry's key). */
  id: Id;
  /** The item's blinded view (built in task-view.server.ts, where blinding is kept in one place). */
  view(db: Db, item: ItemRow): Promise<ViewOf<Id>>;
  /** How many units a new study of this type could draw on now (the New-study form shows it). */
  available(db: Db): Promise<number>;
  /** What the New-study form offers to choose from beyond the count (e.g. an A/B study's simulator backbones). */
  formChoices?(db: Db): Promise<StudyFormChoices>;
  /** Creates a study of this type from the New-study form: its own fields, plus the common ones already read. */
  createFromForm(db: Db, form: FormData, common: CommonStudyInput): Promise<number>;
  /**
   * The same from the form's typed fields only (no upload, so nothing but the database): the item-count preview runs
   * it in a rolled-back transaction.
   */
  createFromFields(db: Db, form: FormData, common: CommonStudyInput): Promise<number>;
  /**
   * A check a submit needs beyond the label's own (checkLabel), in the annotator's terms: throws
   * a 400 to refuse. `snippet` reads the item's place in its run (consensus items only).
   */
  refuseOnSubmit?(item: ItemRow, label: LabelOf<Id>, snippet: () => Promise<SnippetContext>): Promise<void>;
  /** The type's own dashboard figures. */
  dashboard(context: DashboardContext): Promise<Figures>;
  /** Those figures as the dashboard page shows them (no rating matrices). */
  dashboardView(figures: Figures, options: DashboardViewOptions): DashboardViewPart<Id>;
  /** The dashboard's drawn figures by key (e.g. "trend"), those the type has and the view has data for. */
  dashboardCharts?(view: DashboardViewPart<Id>): Promise<DashboardCharts>;
  /** The label CSV's own columns: one or more rows per latest label. */
  csv: { header: readonly string[]; rows(label: LabelRecord, item: ItemRecord): unknown[][] };
  /** The label JSONL's item fields. */
  jsonItemFields(item: ItemRecord): Record<string, unknown>;
  /**
   * The task page's typed part for an item; `annotatorId` is null for an anonymous preview,
   * `saved` is what the annotator left on it (their draft, their latest label).
   */
  taskPart(
    db: Db,
    item: ItemRow,
    annotatorId: number | null,
    saved: { draft: unknown; latest: LabelPayload | null },
  ): Promise<TaskPartBase<Id>>;
}
