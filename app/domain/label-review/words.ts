/**
 * What every task type's answer words share (each type words its own answers in its folder's
 * review.ts): the scenario they are worded from, a change between revisions, an item's place,
 * and how long text is cut.
 */

/** The blinded scenario a summary is worded from (a subset of the task page's TaskScenario). */
export interface SummaryScenario {
  topics: readonly { id: string; name: string; options: readonly { label: string; description: string }[] }[];
  parties: readonly { id: string; name: string }[];
}

/** One change between two revisions of a label. */
export interface RevisionChange {
  /** The payload path of the changed answer (`topics.PRICE.score`, `choice`); "" for the whole answer. */
  path: string;
  /** "Price: score 3 → 4", "Price, Ada: A · Keep → B · Cut", "Choice: A → B". */
  text: string;
}

/** One study item as the place needs it, in study order. */
export interface PlaceItem {
  itemId: number;
  kind: string;
  /** Consensus items: the trajectory (run) and the snippet's position in it. */
  runId: string | null;
  snippetPosition: number | null;
  /** A/B items: the name of the party whose reactions are compared. */
  targetName: string | null;
}

/** Longest option text shown before it is cut with an ellipsis. */
export const OPTION_TEXT_LIMIT = 40;

/** Cuts text to `limit` characters at a word boundary where one is near, adding "…". */
export function shorten(text: string, limit = OPTION_TEXT_LIMIT): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= limit) return flat;
  const cut = flat.slice(0, limit - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > limit / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}
