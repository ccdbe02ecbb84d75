/**
 * Keys typed while the next item loads (after a submit, a skip or an undo) are held back from the
 * old form. Once the new item has been painted, the held keys that only move around or open
 * reading aids (queued-keys.ts) are replayed on it; answer keys — a choice, a score, a submit —
 * are dropped and the page says so: an answer typed before the item was visible would be stored
 * for an item its annotator never saw (issue 28; the server also refuses a submit that arrives
 * before the item was first served, item-shown.server.ts).
 *
 * Why hold rather than "focus the new form first": the new form does not exist until the server
 * has answered (130–290 ms), so every key typed in that gap has to be caught somewhere, or it would
 * act on the old item. Kept keys are replayed one at a time, each rendered before the next
 * (flushSync), so they act exactly as if typed on the new item. When the post is refused (the same
 * item comes back) every held key is dropped, not applied to the item they were not meant for.
 */
import { useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

type HeldKey = Pick<
  KeyboardEventInit,
  "key" | "code" | "location" | "repeat" | "shiftKey" | "ctrlKey" | "metaKey" | "altKey"
>;

/** What the held keys have in common with a KeyboardEvent that `mayQueue` reads. */
export type QueuedKey = { key: string } & Omit<HeldKey, "key">;

const MODIFIERS = new Set(["Shift", "Control", "Meta", "Alt", "AltGraph", "CapsLock"]);

/**
 * Why held keys were not applied: the post was refused (same item back), or they answered an item not yet on screen.
 */
export type DroppedKeys = { count: number; reason: "refused" | "unseen" };

export interface KeysWhileLoading {
  /** True from a post that leads to another item until that item has been painted (other navigations: false). */
  busy: boolean;
  /** Call just before posting something that loads another item. */
  hold: () => void;
  /** Held keys that were not applied, and why; count 0 when none. */
  dropped: DroppedKeys;
}

const NONE: DroppedKeys = { count: 0, reason: "unseen" };

/** `mayQueue` says which held keys may act on the new item; it is read when they are replayed. */
export function useKeysWhileLoading(itemId: number, mayQueue: (key: QueuedKey) => boolean): KeysWhileLoading {
  const navigation = useNavigation();
  const pending = useRef<{ from: number; seenBusy: boolean } | null>(null);
  const queue = useRef<HeldKey[]>([]);
  const current = useRef(itemId);
  current.current = itemId;
  const filter = useRef(mayQueue);
  filter.current = mayQueue;
  const [holding, setHolding] = useState(false);
  const [dropped, setDropped] = useState<DroppedKeys>(NONE);

  useEffect(() => {
    // Capture phase on window: runs before the old form's document listener and any control's own handler.
    const onKeyDown = (event: KeyboardEvent) => {
      if (!pending.current || MODIFIERS.has(event.key)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      const { key, code, location, repeat, shiftKey, ctrlKey, metaKey, altKey } = event;
      queue.current.push({ key, code, location, repeat, shiftKey, ctrlKey, metaKey, altKey });
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, []);

  useEffect(() => {
    const now = pending.current;
    if (!now) return;
    if (navigation.state !== "idle") {
      now.seenBusy = true;
      return;
    }
    if (!now.seenBusy) return;
    if (itemId === now.from) {
      pending.current = null;
      setHolding(false);
      setDropped({ count: queue.current.splice(0).length, reason: "refused" });
      return;
    }
    return afterNextPaint(() => {
      // Keys typed until now were typed before the new item could be seen: still held, still judged.
      pending.current = null;
      setHolding(false);
      const held = queue.current.splice(0);
      const kept = held.filter((key) => filter.current(key as QueuedKey));
      setDropped({ count: held.length - kept.length, reason: "unseen" });
      for (const init of kept) {
        const target = document.activeElement ?? document.body;
        flushSync(() =>
          target.dispatchEvent(new KeyboardEvent("keydown", { ...init, bubbles: true, cancelable: true })),
        );
      }
    });
  }, [navigation.state, itemId]);

  const hold = useCallback(() => {
    pending.current = { from: current.current, seenBusy: false };
    setHolding(true);
    setDropped(NONE);
  }, []);

  return { busy: holding, hold, dropped };
}

/**
 * Runs `fn` once the browser has painted the current DOM: a frame callback runs just before the
 * paint, a task queued from it runs after. This runs after the new item's own effects (children
 * first), so its key handler is live, and outside React's commit, where flushSync cannot render.
 * Returns the cancel function.
 */
function afterNextPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
