/**
 * The annotator's session on a task page, kept in the tab's sessionStorage: which items were submitted and the
 * seconds each took. Pure, so the figures (items, median seconds per item, time left) are tested without a browser.
 */

export interface SessionEntry {
  itemId: number;
  seconds: number;
}

export interface SessionFigures {
  items: number;
  /** Null until an item has been submitted in this session. */
  medianSeconds: number | null;
  /** The median times the items still to do; null without a median. */
  secondsLeft: number | null;
}

/** Reads stored entries, dropping anything malformed (the storage is the browser's, not ours). */
export function parseSessionEntries(text: string | null): SessionEntry[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (e): e is SessionEntry =>
        typeof e === "object" &&
        e !== null &&
        Number.isInteger(e.itemId) &&
        typeof e.seconds === "number" &&
        Number.isFinite(e.seconds) &&
        e.seconds >= 0,
    );
  } catch {
    return [];
  }
}

/** A submit of an item already in the session (a revision, a resend) replaces its time: each item counts once. */
export function recordSessionItem(entries: readonly SessionEntry[], itemId: number, seconds: number): SessionEntry[] {
  return [...entries.filter((e) => e.itemId !== itemId), { itemId, seconds: Math.max(0, seconds) }];
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `remaining`: items of the assignment not yet done (the one on screen included). */
export function sessionFigures(entries: readonly SessionEntry[], remaining: number): SessionFigures {
  const medianSeconds = median(entries.map((e) => e.seconds));
  return {
    items: entries.length,
    medianSeconds,
    secondsLeft: medianSeconds === null ? null : medianSeconds * Math.max(0, remaining),
  };
}

/** "40 s", "3 min", "1 h 05 min": whole units, as an estimate should read. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
