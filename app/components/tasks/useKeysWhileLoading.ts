/**
 * Keys typed while the next item loads (after Ctrl/⌘+Enter, a skip or an undo) are held back
 * from the old form and replayed on the item that arrives.
 *
 * Why queue rather than "focus the new form first": the new form does not exist until the server
 * has answered (130–290 ms), so every key typed in that gap has to be kept somewhere. Held keys
 * are replayed one at a time, each rendered before the next (flushSync), so they act exactly as
 * if typed on the new item; a replayed Ctrl/⌘+Enter starts the next hold and the rest wait again.
 * When the post is refused (the same item comes back) the held keys are dropped, not applied to
 * the item they were not meant for, and the page says so.
 */
import { useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

type HeldKey = Pick<KeyboardEventInit, "key" | "code" | "location" | "repeat" | "shiftKey" | "ctrlKey" | "metaKey" | "altKey">;

const MODIFIERS = new Set(["Shift", "Control", "Meta", "Alt", "AltGraph", "CapsLock"]);

export interface KeysWhileLoading {
  /** True from a post that leads to another item until that item is on screen (other navigations: false). */
  busy: boolean;
  /** Call just before posting something that loads another item. */
  hold: () => void;
  /** How many held keys were dropped because the same item came back; 0 when none. */
  dropped: number;
}

export function useKeysWhileLoading(itemId: number): KeysWhileLoading {
  const navigation = useNavigation();
  const pending = useRef<{ from: number; seenBusy: boolean } | null>(null);
  const queue = useRef<HeldKey[]>([]);
  const current = useRef(itemId);
  current.current = itemId;
  const [holding, setHolding] = useState(false);
  const [dropped, setDropped] = useState(0);

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
      setDropped(queue.current.splice(0).length);
      return;
    }
    // This runs after the new item's own effects (children first), so its key handler is live;
    // the timeout leaves React's commit, where flushSync cannot render.
    const timer = setTimeout(() => {
      pending.current = null;
      setHolding(false);
      for (const init of queue.current.splice(0)) {
        const target = document.activeElement ?? document.body;
        flushSync(() => target.dispatchEvent(new KeyboardEvent("keydown", { ...init, bubbles: true, cancelable: true })));
      }
    }, 0);
    return () => clearTimeout(timer);
  }, [navigation.state, itemId]);

  const hold = useCallback(() => {
    pending.current = { from: current.current, seenBusy: false };
    setHolding(true);
    setDropped(0);
  }, []);

  return { busy: holding, hold, dropped };
}
