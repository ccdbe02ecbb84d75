/**
 * Time the annotator has spent on the current item with the tab visible; the clock pauses while the
 * tab is hidden. Returns a reader giving seconds (fractional) at the moment it is called, so the
 * page reads it when it submits and nothing re-renders while the clock runs. Never shown to the
 * annotator. A new `resetKey` (e.g. the item id) restarts the count.
 */
import { useCallback, useEffect, useRef } from "react";
import { VisibleClock } from "./time-on-task.ts";

export function useTimeOnTask(resetKey?: string | number): () => number {
  const clockRef = useRef<VisibleClock | null>(null);

  useEffect(() => {
    const visible = () => document.visibilityState !== "hidden";
    const clock = new VisibleClock(performance.now(), visible());
    clockRef.current = clock;
    const onVisibility = () => clock.setVisible(visible(), performance.now());
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [resetKey]);

  // Before the effect has run (server render) no time has passed.
  return useCallback(() => (clockRef.current ? clockRef.current.elapsedMs(performance.now()) / 1000 : 0), []);
}
