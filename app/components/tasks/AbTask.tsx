/**
 * The A/B reactiveness task: two conversations side by side (stacked on narrow screens) with the
 * target party's turns marked, and one choice — in which conversation does the target party act
 * more reactively. Keyboard-first (AB_SHORTCUTS); no data fetching. Key it by item.
 */
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { AbLabelPayload } from "../../domain/labels.ts";
import { AB_SHORTCUTS, abCommandFor, abProblems, type AbChoice } from "./ab-task-state.ts";
import { FieldErrors, problemsElsewhere } from "./FieldErrors.tsx";
import { ShortcutCheatSheet } from "./ShortcutCheatSheet.tsx";
import { displayKey, handledElsewhere, isTypingTarget, keyName } from "./shortcuts.ts";
import { speakersInOrder, TaskDialogue } from "./TaskDialogue.tsx";
import { TaskAnnouncements, TaskGuidelines, TaskTop } from "./TaskChrome.tsx";
import type { FieldProblem, TaskProgressValue, TaskTurn } from "../../domain/tasks/task-view.ts";

export { AB_SHORTCUTS, type AbChoice };

export interface AbTaskProps {
  conversationA: TaskTurn[];
  conversationB: TaskTurn[];
  targetParty: { id: string; name: string };
  guidelinesMarkdown: string;
  progress: TaskProgressValue;
  /** The annotator's earlier choice when revisiting, else null. */
  initialChoice: AbChoice | null;
  submitting: boolean;
  /** Server validation problems; the path "choice" is shown at the choice. */
  errors: FieldProblem[];
  onSubmit: (payload: AbLabelPayload) => void;
  /** Called when the choice changes, e.g. to keep a draft. */
  onChoiceChange?: (choice: AbChoice) => void;
  /** Guidelines open at first; defaults to open on the annotator's first item only. */
  guidelinesInitiallyOpen?: boolean;
  /** A preview (e.g. an MTurk HIT not yet accepted): both conversations can be read, no choice made or submitted. */
  readOnly?: boolean;
  /** The submit button's text; defaults to "Submit and next". */
  submitText?: string;
}

export function AbTask(props: AbTaskProps) {
  const { conversationA, conversationB, targetParty, progress, submitting, errors } = props;
  const readOnly = props.readOnly ?? false;
  const [choice, setChoice] = useState<AbChoice | null>(props.initialChoice);
  const [attempted, setAttempted] = useState(false);
  const [guidelinesOpen, setGuidelinesOpen] = useState(props.guidelinesInitiallyOpen ?? progress.done === 0);
  const [cheatSheetOpen, setCheatSheetOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [alert, setAlert] = useState("");
  const base = useId();
  const choiceRef = useRef<HTMLDivElement>(null);
  const partyOrder = useMemo(() => speakersInOrder(conversationA, conversationB), [conversationA, conversationB]);
  const guidelines = props.guidelinesMarkdown.trim();

  const latest = useRef({ choice, submitting, readOnly, cheatSheetOpen, onSubmit: props.onSubmit, onChoiceChange: props.onChoiceChange });
  latest.current = { choice, submitting, readOnly, cheatSheetOpen, onSubmit: props.onSubmit, onChoiceChange: props.onChoiceChange };

  const choose = useCallback((value: AbChoice) => {
    if (latest.current.readOnly) return;
    setChoice(value);
    setAnnouncement(`Conversation ${value} chosen.`);
    latest.current.onChoiceChange?.(value);
  }, []);

  const submit = useCallback(() => {
    const now = latest.current;
    if (now.submitting || now.readOnly) return;
    setAttempted(true);
    if (now.choice === null) {
      setAlert("Not submitted: choose conversation A or B first (keys 1 or 2).");
      choiceRef.current?.focus();
      return;
    }
    setAlert("");
    now.onSubmit({ kind: "ab-reactiveness", choice: now.choice });
  }, []);

  useEffect(() => {
    if (errors.length === 0) return;
    setAlert(`This label was not accepted: ${errors.map((e) => e.message).join(" ")}`);
  }, [errors]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (handledElsewhere(event)) return;
      if (isTypingTarget(event.target) && keyName(event) !== "Mod+Enter") return;
      const command = abCommandFor(event);
      if (latest.current.cheatSheetOpen) {
        if (command === "closeOverlay" || command === "toggleCheatSheet") {
          event.preventDefault();
          setCheatSheetOpen(false);
        }
        return;
      }
      if (!command || command === "closeOverlay") return;
      event.preventDefault();
      switch (command) {
        case "chooseA":
          return choose("A");
        case "chooseB":
          return choose("B");
        case "submit":
          return submit();
        case "toggleGuidelines":
          return setGuidelinesOpen((open) => !open);
        case "toggleCheatSheet":
          return setCheatSheetOpen(true);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [choose, submit]);

  const problems: FieldProblem[] = [...errors, ...(attempted ? abProblems(choice) : [])];
  const unplaced = problemsElsewhere(errors, new Set(["choice"]));
  const choiceInvalid = problems.some((p) => p.path === "choice");

  return (
    <div className="task task-ab">
      <TaskTop kind="Which conversation is more reactive?" title={<>Watch <span className="target-name">{targetParty.name}</span></>} progress={progress} onShowShortcuts={() => setCheatSheetOpen(true)} />
      <TaskAnnouncements announcement={announcement} alert={alert} unplaced={unplaced} />

      <p className="ab-question">
        Both conversations come from the same scenario; only the temperament of <strong>{targetParty.name}</strong> differs. Judge how{" "}
        {targetParty.name} behaves — not who gets the better deal — and choose the conversation in which {targetParty.name} is the more reactive
        negotiator.
      </p>

      {guidelines ? (
        <TaskGuidelines id={`${base}-guidelines`} open={guidelinesOpen} onToggle={() => setGuidelinesOpen((o) => !o)} label="Guidelines: composed or reactive?" shortcut="g" source={guidelines} />
      ) : null}

      <div className="ab-columns">
        {(
          [
            ["A", conversationA],
            ["B", conversationB],
          ] as const
        ).map(([side, turns]) => (
          <section key={side} className={`ab-side${choice === side ? " chosen" : ""}`} aria-labelledby={`${base}-side-${side}`} data-side={side}>
            <h3 id={`${base}-side-${side}`}>Conversation {side}</h3>
            <TaskDialogue turns={turns} partyOrder={partyOrder} label={`Conversation ${side}`} targetPartyId={targetParty.id} />
          </section>
        ))}
      </div>

      <form
        className="ab-form"
        noValidate
        aria-label="Reactiveness choice"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <span id={`${base}-choice-label`} className="score-label">
          In which conversation is {targetParty.name} more reactive?
        </span>
        <RadioGroup.Root
          ref={choiceRef}
          className="choice-row ab-choice"
          orientation="horizontal"
          aria-labelledby={`${base}-choice-label`}
          aria-invalid={choiceInvalid || undefined}
          aria-describedby={choiceInvalid ? `${base}-choice-error` : undefined}
          value={choice}
          disabled={readOnly}
          onValueChange={(value) => choose(value as AbChoice)}
        >
          {(["A", "B"] as const).map((side, i) => (
            <RadioGroup.Item key={side} value={side} className="choice ab-choice-item" aria-keyshortcuts={String(i + 1)}>
              Conversation {side} <kbd>{i + 1}</kbd>
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <FieldErrors id={`${base}-choice-error`} problems={problems} path="choice" />
        <div className="task-submit">
          <button type="submit" className="button-primary" disabled={submitting || readOnly} aria-keyshortcuts="Enter Control+Enter Meta+Enter">
            {submitting ? "Saving…" : (props.submitText ?? "Submit and next")} <kbd>{displayKey("Enter")}</kbd>
          </button>
        </div>
      </form>

      <ShortcutCheatSheet
        open={cheatSheetOpen}
        onClose={() => setCheatSheetOpen(false)}
        shortcuts={guidelines ? AB_SHORTCUTS : AB_SHORTCUTS.filter((s) => s.command !== "toggleGuidelines")}
        notes={["Enter on a button or link keeps its usual meaning; anywhere else it submits."]}
      />
    </div>
  );
}
