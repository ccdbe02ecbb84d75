/**
 * Debounced autosave for drafts: saves `value` `delayMs` after the last change, and at once when
 * the tab is hidden or the component unmounts, so a draft survives closing the tab. The value
 * present on first render counts as already saved. Call `cancel()` when the label is submitted.
 * `save` should report its own failures; it may change identity between renders.
 */
import { useEffect, useMemo, useRef } from "react";
import { DebouncedSaver } from "./autosave.ts";

export function useAutosave<T>(
  value: T,
  save: (value: T) => void,
  delayMs = 800,
): { flush: () => void; cancel: () => void } {
  const saveRef = useRef(save);
  saveRef.current = save;
  const saverRef = useRef<DebouncedSaver<T> | null>(null);
  if (saverRef.current === null) saverRef.current = new DebouncedSaver<T>((v) => saveRef.current(v), delayMs, value);
  const saver = saverRef.current;

  useEffect(() => {
    saver.schedule(value);
  }, [saver, value]);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === "hidden") saver.flush();
    };
    const onPageHide = () => saver.flush();
    document.addEventListener("visibilitychange", onHide);
    window.addEventListener("pagehide", onPageHide);
    return () => {
      document.removeEventListener("visibilitychange", onHide);
      window.removeEventListener("pagehide", onPageHide);
      saver.flush();
    };
  }, [saver]);

  return useMemo(() => ({ flush: () => saver.flush(), cancel: () => saver.cancel() }), [saver]);
}
