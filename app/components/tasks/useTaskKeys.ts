/**
 * The document-level keyboard handling both task kinds share: keys already handled by a focused
 * control or typed into a text field are left alone (Mod+Enter still counts), and while the
 * shortcut list is open only closing it does anything. The page's shortcuts come next; `onKey` sees every other key
 * event and is read through a ref, so the listener is registered once.
 */
import { useEffect, useRef } from "react";
import {
  handledElsewhere,
  isTypingTarget,
  keyName,
  pageShortcutOf,
  type PageShortcut,
} from "../../domain/shortcuts.ts";

export interface TaskKeyOptions {
  cheatSheetOpen: boolean;
  /** True when the event closes or toggles the shortcut list (the only keys while it is open). */
  closesCheatSheet: (event: KeyboardEvent) => boolean;
  closeCheatSheet: () => void;
  onKey: (event: KeyboardEvent) => void;
  /** The page's own shortcuts (skip, flag, undo); they win over the task's keys. */
  pageShortcuts?: readonly PageShortcut[];
}

export function useTaskKeys(options: TaskKeyOptions): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (handledElsewhere(event)) return;
      if (isTypingTarget(event.target) && keyName(event) !== "Mod+Enter") return;
      const now = latest.current;
      if (now.cheatSheetOpen) {
        if (now.closesCheatSheet(event)) {
          event.preventDefault();
          now.closeCheatSheet();
        }
        return;
      }
      const page = pageShortcutOf(now.pageShortcuts, event);
      if (page) {
        event.preventDefault();
        page.run();
        return;
      }
      now.onKey(event);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
