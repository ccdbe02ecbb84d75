/** The keyboard cheat sheet: a modal list built from a task's shortcut table, so docs and handler never drift. */
import { useEffect, useId, useRef } from "react";
import { displayKey, type ShortcutSpec } from "../../domain/shortcuts.ts";

/** "1", "2", …, "5" reads as "1–5"; other key lists stay as they are. */
export function compactKeys(keys: readonly string[]): string[] {
  const singles = keys.every((k) => k.length === 1);
  const consecutive = keys.every((k, i) => i === 0 || k.charCodeAt(0) === keys[i - 1].charCodeAt(0) + 1);
  return singles && consecutive && keys.length > 3 ? [`${keys[0]}–${keys[keys.length - 1]}`] : [...keys];
}

export function ShortcutCheatSheet({
  open,
  onClose,
  shortcuts,
  title = "Keyboard shortcuts",
  notes = [],
}: {
  open: boolean;
  onClose: () => void;
  shortcuts: readonly ShortcutSpec[];
  title?: string;
  notes?: readonly string[];
}) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    // Give focus back to where the annotator was.
    return () => before?.focus?.();
  }, [open]);
  if (!open) return null;
  const groups = [...new Set(shortcuts.map((s) => s.group))];
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click outside closes it; the keyboard has Escape
    // biome-ignore lint/a11y/noStaticElementInteractions: as above
    <div className="cheat-sheet-backdrop" onClick={onClose}>
      <div
        className="cheat-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          // The close button is the only control: keep focus inside the dialog.
          if (e.key === "Tab") e.preventDefault();
        }}
      >
        <div className="cheat-sheet-head">
          <h2 id={titleId}>{title}</h2>
          <button ref={closeRef} type="button" className="button-secondary" onClick={onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </div>
        {groups.map((group) => (
          <section key={group}>
            <h3>{group}</h3>
            <table className="shortcut-table">
              <tbody>
                {shortcuts
                  .filter((s) => s.group === group)
                  .map((s) => (
                    <tr key={s.command}>
                      <th scope="row">
                        {compactKeys(s.keys).map((k, i) => (
                          <span key={k}>
                            {i > 0 ? " / " : null}
                            <kbd>{displayKey(k)}</kbd>
                          </span>
                        ))}
                      </th>
                      <td>{s.description}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </section>
        ))}
        {notes.map((note, i) => (
          <p key={i} className="muted">
            {note}
          </p>
        ))}
      </div>
    </div>
  );
}
