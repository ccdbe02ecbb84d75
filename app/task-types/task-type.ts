/**
 * One task type, declared once: everything the studies, the label store, the crowd channels and
 * the UI need to know about it that is pure. Each type's folder (app/task-types/<id>/) holds its
 * definition.ts of this shape; registry.ts lists them, and the id list, the label payload union
 * and the view union are derived from that list. Typed by the type's own label and view, so this
 * file needs nothing from the registry.
 */
import type { z } from "zod";
import type { AnswerResult, AnswerScenario } from "../domain/crowd/answer-fields.ts";
import type { Party, Topic } from "../domain/bundle.ts";
import type { ShortcutSpec } from "../domain/shortcuts.ts";
import type { PlaceItem, RevisionChange, SummaryScenario } from "../domain/label-review/words.ts";

export interface LabelProblem {
  /** Dotted path into the payload, e.g. `topics.PRICE.positions.BUYER`. */
  path: string;
  message: string;
}

/** What a label check may need beyond the label; read lazily, so a type that needs nothing costs nothing. */
export interface LabelCheckContext<Label> {
  /** The scenario as played in the labelled conversation. */
  scenario: () => Promise<{ topics: readonly Topic[]; parties: readonly Pick<Party, "id">[] }>;
  /** The annotator's own label on the preceding item of the same conversation, if any. */
  previousLabel: () => Promise<Label | null>;
}

/** A HIT's title, description and search keywords on Mechanical Turk. */
export interface HitTexts {
  title: string;
  description: string;
  keywords: string[];
}

export interface MturkTemplateSpec<Label, View> {
  /** The input-CSV columns the template may use. */
  variables: readonly string[];
  /** Columns the template must use for an answer to come back. */
  requiredVariables: readonly string[];
  /** Form-field markup the template must contain (the results import reads these fields). */
  requiredFields: readonly string[];
  texts: HitTexts;
  /** One HIT's values (safe HTML) from the blinded task view. */
  hitValues: (input: View & { studyId: number; itemId: number }) => Record<string, string>;
  /** A worker's `taskAnswers` as a label payload; `scenario` is read only by types that need it. */
  payloadFromAnswers: (
    answers: Record<string, unknown>,
    scenario: () => Promise<AnswerScenario>,
  ) => Promise<AnswerResult<Label>>;
}

/** How the study dashboard words this type's figures. */
export interface DashboardTexts {
  /** What leaving flagged annotators out changes besides agreement: "alignment", "fidelity". */
  flaggedExcludedFrom: string;
  /** The agreement note's first sentence: what a unit is and who the raters are. */
  agreementUnits: (pool: string | null) => string;
}

/** How a type's answers read in words (My labels, a label's history, an item's place). */
export interface ReviewWords<Label, Summary> {
  /** A label in words; `targetParty` names the compared party where the type has one. */
  summarise: (label: Label, scenario: SummaryScenario, targetParty: string) => Summary;
  /** What changed from one revision's summary to the next ([] when nothing did). */
  changes: (before: Summary, after: Summary) => RevisionChange[];
  /** The place of each of a study's items of this type (given in study order) by item id. */
  places: (items: readonly PlaceItem[], snippetCounts: ReadonlyMap<string, number>) => Map<number, string>;
}

/** What goldFor reads of a study item. */
export interface GoldItemSource {
  itemId: number;
  kind: string;
  isGold: boolean;
  gold: unknown;
  levelA: number | null;
  levelB: number | null;
}

/** How a type's gold items are read and checked (validation/gold.ts applies them). */
export interface GoldRules<Label, Item extends { itemId: number | string }> {
  /** How messages name one: "a consensus gold item". */
  itemName: string;
  /** The gold item from a study item marked gold (throws a RangeError naming the item when its gold is malformed). */
  fromItem: (source: GoldItemSource) => Item;
  /** Throws a RangeError when a gold item cannot be checked against. */
  checkItem?: (item: Item) => void;
  /** Whether a label on the item passes; `tolerance` is the largest score difference that does. */
  passes: (label: Label, item: Item, tolerance: number) => boolean;
  /**
   * Gold feedback in plain words: what was expected and what the label gave, one sentence per line, against the
   * scenario as played (`targetParty` names the compared party where the type has one).
   */
  explain: (label: Label, item: Item, tolerance: number, scenario: SummaryScenario, targetParty: string) => string[];
}

/**
 * A type's definition; `Label` is its payload (with `kind: Id`), `View` its blinded view and
 * `Summary` its answer in words. The defaults describe any type, for code that handles one it
 * does not know statically.
 */
export interface TaskTypeDefinition<
  Id extends string = string,
  Label extends { kind: Id } = { kind: Id },
  View extends { kind: Id } = { kind: Id },
  Summary extends { kind: Id } = { kind: Id },
  GoldItem extends { itemId: number | string } = { itemId: number | string },
> {
  /** The one name: study type, study item kind and label payload kind. */
  id: Id;
  /** For people: "Snippet consensus". */
  displayName: string;
  /** The study form's choice: "Snippet". */
  shortName: string;
  /** The payload shape (zod); the registry's union of these is what a submit must match. */
  labelSchema: z.ZodType<Label>;
  /** Checks a well-formed label against the item it labels; [] when it is fine. */
  checkLabel: (label: Label, context: LabelCheckContext<Label>) => Promise<LabelProblem[]>;
  /** Seconds per item assumed for pay and cost before a study has timed labels. */
  defaultSecondsPerItem: number;
  /** The folder under app/task-types/ holding guidelines.md and mturk.html. */
  templateName: Id;
  mturk: MturkTemplateSpec<Label, View>;
  /**
   * What a task page reopens with: the autosaved draft when it is one of this type's (drafts are
   * stored unchecked, and may be incomplete), else the latest submitted label when it is.
   */
  resume: (draft: unknown, latest: { kind: string } | null) => Label | null;
  dashboard: DashboardTexts;
  review: ReviewWords<Label, Summary>;
  /**
   * The task's keyboard shortcuts, and the commands among them that may still act on an item when
   * typed while it loads (components/tasks/queued-keys.ts): only keys that move around or open
   * reading aids, never an answer.
   */
  keys: { shortcuts: readonly ShortcutSpec[]; queue: readonly string[] };
  gold: GoldRules<Label, GoldItem>;
}
