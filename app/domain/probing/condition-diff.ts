/**
 * What a condition changed against the general scenario it was expanded from: the background
 * (text added before or after it, or a changed middle), the topics (a condition should change
 * none), and each party (added, removed, or which fields changed). Pure; the scenario page
 * renders it.
 */
import type { Party, ScenarioBody, Topic } from "../bundle.ts";
import { formatLevel } from "./personas.ts";

/** A piece of text in reading order: kept as it was, added by the condition, or removed by it. */
export interface TextSegment {
  kind: "same" | "added" | "removed";
  text: string;
}

/** How the new text relates to the old: unchanged, old text with text after it, before it, or a changed middle. */
export type TextChange = "unchanged" | "appended" | "prepended" | "changed";

export interface TextDiff {
  change: TextChange;
  segments: TextSegment[];
}

/**
 * A common-prefix / common-suffix diff: everything between the longest shared start and the
 * longest shared end counts as removed and added. That is exact for what the conditions do
 * (append a paragraph, prepend dated entries, append a statement to a persona); for an edit
 * in several places it reports one changed middle spanning them, which is enough to see it.
 */
export function textDiff(before: string, after: string): TextDiff {
  const pieces = (kinds: TextSegment[]) => kinds.filter((s) => s.text.length > 0);
  if (before === after) return { change: "unchanged", segments: pieces([{ kind: "same", text: before }]) };
  // Whole-text checks first, so a prepended text that happens to start like the old one is still "prepended".
  if (after.startsWith(before))
    return {
      change: "appended",
      segments: pieces([
        { kind: "same", text: before },
        { kind: "added", text: after.slice(before.length) },
      ]),
    };
  if (after.endsWith(before))
    return {
      change: "prepended",
      segments: pieces([
        { kind: "added", text: after.slice(0, after.length - before.length) },
        { kind: "same", text: before },
      ]),
    };
  const max = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return {
    change: "changed",
    segments: pieces([
      { kind: "same", text: before.slice(0, prefix) },
      { kind: "removed", text: before.slice(prefix, before.length - suffix) },
      { kind: "added", text: after.slice(prefix, after.length - suffix) },
      { kind: "same", text: before.slice(before.length - suffix) },
    ]),
  };
}

export type PartyField = "name" | "role" | "relation" | "stance" | "weight" | "persona" | "reactiveness" | "culture";

/** One changed field of a party; `topic` names the topic of a stance or weight. */
export interface FieldChange {
  field: PartyField;
  topic?: string;
  before: string | number | null;
  after: string | number | null;
}

export interface PartyDiff {
  id: string;
  name: string;
  status: "added" | "removed" | "changed" | "unchanged";
  /** Changed fields (changed parties only); an added party's own fields are in `party`. */
  changes: FieldChange[];
  /** The persona text diff, when the persona changed (or the whole persona of an added party). */
  persona: TextDiff | null;
  /** Short labels of the party's persona settings in the condition ("reactiveness 1/3", "culture CN"). */
  chips: string[];
  /** The added party as the condition stores it. */
  party: Party | null;
}

export interface ConditionDiff {
  background: TextDiff;
  topics: { added: string[]; removed: string[]; changed: string[] };
  parties: PartyDiff[];
  /** True when the expanded body equals the general one in everything shown here. */
  unchanged: boolean;
}

/** The persona settings a party carries, as short labels. */
export function personaChips(party: Party): string[] {
  const chips: string[] = [];
  if (party.reactiveness !== undefined) chips.push(`reactiveness ${formatLevel(party.reactiveness)}`);
  if (party.culture !== undefined) chips.push(`culture ${party.culture}`);
  return chips;
}

function perTopicChanges(
  field: "stance" | "weight",
  before: Record<string, string | number>,
  after: Record<string, string | number>,
): FieldChange[] {
  const topics = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return topics
    .filter((t) => before[t] !== after[t])
    .map((t) => ({ field, topic: t, before: before[t] ?? null, after: after[t] ?? null }));
}

function partyChanges(before: Party, after: Party): FieldChange[] {
  const scalar = (field: "name" | "role" | "relation" | "reactiveness" | "culture"): FieldChange[] =>
    before[field] === after[field] ? [] : [{ field, before: before[field] ?? null, after: after[field] ?? null }];
  return [
    ...scalar("name"),
    ...scalar("role"),
    ...scalar("relation"),
    ...perTopicChanges("stance", before.preferences, after.preferences),
    ...perTopicChanges("weight", before.weights, after.weights),
    ...(before.persona === after.persona
      ? []
      : [{ field: "persona" as const, before: before.persona ?? null, after: after.persona ?? null }]),
    ...scalar("reactiveness"),
    ...scalar("culture"),
  ];
}

function diffParty(before: Party | undefined, after: Party | undefined): PartyDiff {
  const shown = (after ?? before) as Party;
  const base = { id: shown.id, name: shown.name, chips: after ? personaChips(after) : [] };
  if (!before)
    return {
      ...base,
      status: "added",
      changes: [],
      persona: after?.persona ? textDiff("", after.persona) : null,
      party: after ?? null,
    };
  if (!after) return { ...base, status: "removed", changes: [], persona: null, party: null };
  const changes = partyChanges(before, after);
  const persona = before.persona === after.persona ? null : textDiff(before.persona ?? "", after.persona ?? "");
  return { ...base, status: changes.length ? "changed" : "unchanged", changes, persona, party: null };
}

function diffTopics(before: Topic[], after: Topic[]): ConditionDiff["topics"] {
  const old = new Map(before.map((t) => [t.id, t]));
  const now = new Map(after.map((t) => [t.id, t]));
  return {
    added: after.filter((t) => !old.has(t.id)).map((t) => t.id),
    removed: before.filter((t) => !now.has(t.id)).map((t) => t.id),
    changed: after.filter((t) => old.has(t.id) && JSON.stringify(old.get(t.id)) !== JSON.stringify(t)).map((t) => t.id),
  };
}

/** The expanded body against the general one: parties in the general order, then the added ones. */
export function conditionDiff(general: ScenarioBody, expanded: ScenarioBody): ConditionDiff {
  const now = new Map(expanded.parties.map((p) => [p.id, p]));
  const old = new Set(general.parties.map((p) => p.id));
  const parties = [
    ...general.parties.map((p) => diffParty(p, now.get(p.id))),
    ...expanded.parties.filter((p) => !old.has(p.id)).map((p) => diffParty(undefined, p)),
  ];
  const background = textDiff(general.background, expanded.background);
  const topics = diffTopics(general.topics, expanded.topics);
  const topicsSame = topics.added.length + topics.removed.length + topics.changed.length === 0;
  const unchanged = background.change === "unchanged" && topicsSame && parties.every((p) => p.status === "unchanged");
  return { background, topics, parties, unchanged };
}
