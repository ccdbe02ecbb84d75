/**
 * The frame both task kinds share: the header (kind, title, progress, shortcuts button), the live regions and the
 * submit row.
 */
import type { ReactNode } from "react";
import { Markdown } from "./Markdown.tsx";
import { ariaKeys, displayKey } from "../../domain/shortcuts.ts";
import { TaskProgress } from "./TaskProgress.tsx";
import { plainProblem } from "../../domain/crowd/plain-problems.ts";
import type { FieldProblem, TaskProgressValue } from "../../task-types/task-view.ts";

export function TaskTop({
  kind,
  title,
  progress,
  onShowShortcuts,
  shortcutsKey = "?",
}: {
  kind: string;
  title: ReactNode;
  progress: TaskProgressValue;
  onShowShortcuts: () => void;
  /** The key that opens the list (the annotator's own, default "?"). */
  shortcutsKey?: string;
}) {
  return (
    <header className="task-top">
      <div>
        <p className="task-kind">{kind}</p>
        {/* The page's heading: focused when the next item arrives (TaskPageShell). */}
        <h1 className="task-title" tabIndex={-1}>
          {title}
        </h1>
      </div>
      <div className="task-header-tools">
        <TaskProgress progress={progress} />
        <button
          type="button"
          className="button-secondary"
          onClick={onShowShortcuts}
          aria-keyshortcuts={ariaKeys([shortcutsKey])}
        >
          Keyboard shortcuts <kbd>{displayKey(shortcutsKey)}</kbd>
        </button>
      </div>
    </header>
  );
}

/** Screen-reader announcements, and an alert for problems that belong to no field on screen. */
export function TaskAnnouncements({
  announcement,
  alert,
  unplaced,
}: {
  announcement: string;
  alert: string | null;
  unplaced: readonly FieldProblem[];
}) {
  return (
    <>
      <div className="task-live" aria-live="polite" role="status">
        {announcement}
      </div>
      <div className="task-alert" role="alert">
        {alert ? <p>{alert}</p> : null}
        {unplaced.length > 0 ? (
          <ul>
            {unplaced.map((p, i) => (
              <li key={i}>{plainProblem(p)}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}

/** The study's guidelines behind a disclosure button, with its keyboard shortcut shown. */
export function TaskGuidelines({
  id,
  open,
  onToggle,
  label,
  shortcut,
  source,
}: {
  id: string;
  open: boolean;
  onToggle: () => void;
  label: string;
  shortcut: string;
  source: string;
}) {
  return (
    <section className="task-guidelines">
      <h2>
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={id}
          onClick={onToggle}
          aria-keyshortcuts={ariaKeys([shortcut])}
        >
          {label} <kbd>{displayKey(shortcut)}</kbd>
        </button>
      </h2>
      <div id={id} hidden={!open}>
        <Markdown source={source} />
      </div>
    </section>
  );
}

/** The submit button (with its shortcut) and whatever status the task shows beside it. */
export function TaskSubmit({
  submitting,
  disabled,
  text,
  shortcut,
  ariaKeyshortcuts,
  children,
}: {
  submitting: boolean;
  disabled: boolean;
  /** Defaults to "Submit and next". */
  text?: string;
  shortcut: string;
  ariaKeyshortcuts: string;
  children?: ReactNode;
}) {
  return (
    <div className="task-submit">
      <button
        type="submit"
        className="button-primary"
        disabled={submitting || disabled}
        aria-keyshortcuts={ariaKeyshortcuts}
      >
        {submitting ? "Saving…" : (text ?? "Submit and next")} <kbd>{displayKey(shortcut)}</kbd>
      </button>
      {children}
    </div>
  );
}

/** The task's answer form: the browser's own validation and submit are replaced by the task's check. */
export function TaskForm({
  className,
  label,
  onSubmit,
  children,
}: {
  className: string;
  label: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      noValidate
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
