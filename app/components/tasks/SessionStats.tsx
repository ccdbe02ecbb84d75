/**
 * Session statistics on the task page: items submitted in this tab's session, the median seconds per item and the time
 * the rest of the assignment should take at that pace. Kept in sessionStorage, per study.
 */
import { useCallback, useEffect, useState } from "react";
import {
  formatDuration,
  parseSessionEntries,
  recordSessionItem,
  sessionFigures,
  type SessionEntry,
} from "./session-stats.ts";

const storageKey = (key: string) => `socrates.session.${key}`;

export function useSessionStats(key: string | undefined) {
  const [entries, setEntries] = useState<SessionEntry[]>([]);
  // sessionStorage exists only in the browser: read after the first render.
  useEffect(() => {
    if (key) setEntries(parseSessionEntries(window.sessionStorage.getItem(storageKey(key))));
  }, [key]);
  const record = useCallback(
    (itemId: number, seconds: number) => {
      if (!key) return;
      const next = recordSessionItem(
        parseSessionEntries(window.sessionStorage.getItem(storageKey(key))),
        itemId,
        seconds,
      );
      window.sessionStorage.setItem(storageKey(key), JSON.stringify(next));
      setEntries(next);
    },
    [key],
  );
  return { entries, record };
}

export function SessionStats({ entries, remaining }: { entries: readonly SessionEntry[]; remaining: number }) {
  const figures = sessionFigures(entries, remaining);
  return (
    <dl className="session-stats" data-testid="session-stats">
      <div>
        <dt>This session</dt>
        <dd data-stat="items">{figures.items === 1 ? "1 item" : `${figures.items} items`}</dd>
      </div>
      <div>
        <dt>Median per item</dt>
        <dd data-stat="median">{figures.medianSeconds === null ? "—" : formatDuration(figures.medianSeconds)}</dd>
      </div>
      <div>
        <dt>Time left (estimate)</dt>
        <dd data-stat="left">{figures.secondsLeft === null ? "—" : formatDuration(figures.secondsLeft)}</dd>
      </div>
    </dl>
  );
}
