/**
 * The document-level keyboard handling both task kinds share: keys already handled by a focused
 * control or typed into a text field are left alone (a Ctrl/⌘ submit key still counts), and while the
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
  /** The task's submit keys: those with Ctrl/⌘ act even in a text field (default Ctrl/⌘+Enter). */
  submitKeys?: readonly string[];
}

export function useTaskKeys(options: TaskKeyOptions): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (handledElsewhere(event)) return;
      const now = latest.current;
      const name = keyName(event);
      const typingKeys = (now.submitKeys ?? ["Mod+Enter"]).filter((k) => k.startsWith("Mod+"));
      if (isTypingTarget(event.target) && !typingKeys.includes(name)) return;
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
