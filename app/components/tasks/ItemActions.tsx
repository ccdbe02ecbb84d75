/**
 * Skip, flag and undo-last on the annotator's task page: the buttons, their shortcuts (handed to
 * the task, which lists them in its cheat sheet) and the two small dialogs. Skip and undo load
 * another item, so they go through `hold` like a submit; a flag is posted beside the page.
 */
import { useFetcher, useSubmit } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { ITEM_ACTION_SHORTCUTS, type ItemActionCommand } from "../../domain/item-action-shortcuts.ts";
import { ariaKeys, displayKey, type PageShortcut } from "../../domain/shortcuts.ts";
import { bindShortcuts, type KeyOverrides } from "../../domain/hotkeys.ts";

export interface ItemActionsConfig {
  /** Where the page posts (it names the item). */
  action: string;
  /** Added to every post. */
  fields: Record<string, string>;
  allowed: Record<ItemActionCommand, boolean>;
}

type Dialog = "skip" | "flag" | null;
type FlagReply = { ok: true; saved: "flagged" } | { ok: false; message: string };

export function useItemActions(
  config: ItemActionsConfig | undefined,
  hold: () => void,
  keyOverrides?: KeyOverrides,
): { shortcuts: PageShortcut[]; panel: ReactNode } {
  const submit = useSubmit();
  const flagger = useFetcher<FlagReply>();
  const [dialog, setDialog] = useState<Dialog>(null);
  // The item a flag was sent from: its reply is shown only while that item is on screen (an undo or a submit clears
  // it).
  const [flaggedFrom, setFlaggedFrom] = useState<string | null>(null);
  const actionPath = config?.action;
  // A new item (its action path) starts without the last one's reply.
  useEffect(() => setFlaggedFrom(null), [actionPath]);
  const latest = useRef(config);
  latest.current = config;

  const post = (intent: ItemActionCommand, note = "") => {
    const now = latest.current;
    if (!now) return;
    if (intent === "flag") {
      setFlaggedFrom(now.action);
      flagger.submit({ ...now.fields, intent, note }, { method: "post", action: now.action });
      return;
    }
    hold();
    submit({ ...now.fields, intent, note }, { method: "post", action: now.action });
  };
  // Read through a ref, so the shortcut table changes only with what is allowed.
  const run = useRef<Record<ItemActionCommand, () => void>>();
  run.current = { skip: () => setDialog("skip"), flag: () => setDialog("flag"), undo: () => post("undo") };
  const { skip = false, flag = false, undo = false } = config?.allowed ?? {};
  const shortcuts = useMemo(() => {
    const allowed = { skip, flag, undo };
    return bindShortcuts(ITEM_ACTION_SHORTCUTS, keyOverrides)
      .filter((s) => allowed[s.command])
      .map((s) => ({ ...s, run: () => run.current?.[s.command]() }));
  }, [skip, flag, undo, keyOverrides]);
  if (!config) return { shortcuts: [], panel: null };

  const reply = flagger.state === "idle" && flaggedFrom === config.action ? flagger.data : undefined;
  const panel = (
    // biome-ignore lint/a11y/useSemanticElements: a row of buttons; a fieldset would bring form styling
    <div className="item-actions" role="group" aria-label="This item">
      {shortcuts.map((s) => (
        <button
          key={s.command}
          type="button"
          className="button-secondary"
          data-action={s.command}
          onClick={s.run}
          aria-keyshortcuts={ariaKeys(s.keys)}
        >
          {BUTTON_TEXT[s.command as ItemActionCommand]} <kbd>{displayKey(s.keys[0])}</kbd>
        </button>
      ))}
      {reply ? (
        <span
          className={reply.ok ? "muted" : "field-error"}
          role={reply.ok ? "status" : "alert"}
          data-testid="flag-status"
        >
          {reply.ok ? "Flag sent to the study's admins. You can go on with this item." : reply.message}
        </span>
      ) : null}
      <NoteDialog
        open={dialog === "skip"}
        title="Skip this item"
        label="Why are you skipping it? (optional)"
        maxLength={500}
        required={false}
        confirm="Skip this item"
        onCancel={() => setDialog(null)}
        onConfirm={(note) => {
          setDialog(null);
          post("skip", note);
        }}
      />
      <NoteDialog
        open={dialog === "flag"}
        title="Flag this item"
        label="What is wrong with this item? The study's admins will read it."
        maxLength={1000}
        required
        confirm="Send flag"
        onCancel={() => setDialog(null)}
        onConfirm={(note) => {
          setDialog(null);
          post("flag", note);
        }}
      />
    </div>
  );
  return { shortcuts, panel };
}

const BUTTON_TEXT: Record<ItemActionCommand, string> = { skip: "Skip", flag: "Flag", undo: "Undo last" };

/** A modal asking for a short text; Enter (Ctrl/⌘+Enter in the comment box) confirms, Esc cancels. */
function NoteDialog(props: {
  open: boolean;
  title: string;
  label: string;
  maxLength: number;
  required: boolean;
  confirm: string;
  onCancel: () => void;
  onConfirm: (note: string) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState("");
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setNote("");
      setProblem("");
      dialog.showModal();
    } else if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  const confirm = () => {
    if (props.required && note.trim() === "") return setProblem("Write a comment first.");
    props.onConfirm(note.trim());
  };
  const multiline = props.required;
  return (
    <dialog
      ref={ref}
      className="note-dialog"
      aria-label={props.title}
      onClose={() => props.open && props.onCancel()}
      // Keys typed here belong to the dialog, never to the task's shortcuts behind it.
      onKeyDown={(e) => {
        e.stopPropagation();
        if (multiline && e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          confirm();
        }
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          confirm();
        }}
      >
        <h2>{props.title}</h2>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is inside, chosen by `multiline` */}
        <label>
          {props.label}
          {multiline ? (
            <textarea
              value={note}
              maxLength={props.maxLength}
              rows={4}
              onChange={(e) => setNote(e.target.value)}
              aria-invalid={problem ? true : undefined}
              autoFocus
            />
          ) : (
            <input
              type="text"
              value={note}
              maxLength={props.maxLength}
              onChange={(e) => setNote(e.target.value)}
              autoFocus
            />
          )}
        </label>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="note-dialog-buttons">
          <button type="submit" className="button-primary">
            {props.confirm} {multiline ? <kbd>{displayKey("Mod+Enter")}</kbd> : <kbd>Enter</kbd>}
          </button>
          <button type="button" className="button-secondary" onClick={props.onCancel}>
            Cancel <kbd>Esc</kbd>
          </button>
        </div>
      </form>
    </dialog>
  );
}
