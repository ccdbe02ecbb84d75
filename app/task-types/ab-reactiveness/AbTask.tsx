/**
 * The A/B reactiveness task: two conversations side by side (two tabs on a phone, AbConversations)
 * with the target party's turns marked, and one choice — in which conversation does the target party act
 * more reactively. Keyboard-first (AB_SHORTCUTS); no data fetching. Key it by item.
 */
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useCallback, useEffect, useId, useMemo, useRef, useState, type RefObject } from "react";
import { type AbLabelPayload, AB_REACTIVENESS } from "./label.ts";
import { AB_SHORTCUTS, abCommandFor, abProblems, type AbChoice } from "./ab-task-state.ts";
import { AbConversations } from "./AbConversations.tsx";
import { FieldErrors, problemsElsewhere } from "../../components/tasks/FieldErrors.tsx";
import { ShortcutCheatSheet } from "../../components/tasks/ShortcutCheatSheet.tsx";
import { speakersInOrder } from "../../components/tasks/TaskDialogue.tsx";
import {
  TaskAnnouncements,
  TaskForm,
  TaskGuidelines,
  TaskSubmit,
  TaskTop,
} from "../../components/tasks/TaskChrome.tsx";
import { useTaskKeys } from "../../components/tasks/useTaskKeys.ts";
import { ariaKeys, displayKey, keysOf, type PageShortcut, type ShortcutSpec } from "../../domain/shortcuts.ts";
import { bindShortcuts, type KeyOverrides } from "../../domain/hotkeys.ts";
import type { FieldProblem, TaskProgressValue, TaskTurn } from "../task-view.ts";

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
  /** The page's shortcuts (skip, flag, undo). */
  pageShortcuts?: readonly PageShortcut[];
  /** The annotator's setting: the choice is the one answer, so choosing submits at once. */
  autoAdvance?: boolean;
  /** The annotator's own keys (domain/hotkeys.ts); AB_SHORTCUTS without. */
  keyOverrides?: KeyOverrides;
}

export function AbTask(props: AbTaskProps) {
  const { conversationA, conversationB, targetParty, progress, errors } = props;
  const readOnly = props.readOnly ?? false;
  const guidelines = props.guidelinesMarkdown.trim();
  const task = useAbTask(props, readOnly);
  const base = useId();
  const partyOrder = useMemo(() => speakersInOrder(conversationA, conversationB), [conversationA, conversationB]);
  const problems: FieldProblem[] = [...errors, ...(task.attempted ? abProblems(task.choice) : [])];
  const unplaced = problemsElsewhere(errors, new Set(["choice"]));

  return (
    <div className="task task-ab">
      <TaskTop
        kind="Which conversation is more reactive?"
        title={
          <>
            Watch <span className="target-name">{targetParty.name}</span>
          </>
        }
        progress={progress}
        onShowShortcuts={() => task.setCheatSheetOpen(true)}
        shortcutsKey={keysOf(task.shortcuts, "toggleCheatSheet")[0]}
      />
      <TaskAnnouncements announcement={task.announcement} alert={task.alert} unplaced={unplaced} />

      <p className="ab-question">
        <span className="ab-question-long">
          Both conversations come from the same scenario; only the temperament of <strong>{targetParty.name}</strong>{" "}
          differs. Judge how {targetParty.name} behaves — not who gets the better deal — and choose the conversation in
          which {targetParty.name} is the more reactive negotiator.
        </span>
        {/* On a phone (ab-task.css) the same in a third of the lines, so the dialogue shows on arrival. */}
        <span className="ab-question-short">
          Only the highlighted party&rsquo;s temperament differs between A and B: judge how it behaves, not who gets the
          better deal.
        </span>
      </p>

      {guidelines ? (
        // A box of its own height when open (ab-task.css), so the dialogue still shows on arrival.
        <div className="ab-guidelines">
          <TaskGuidelines
            id={`${base}-guidelines`}
            open={task.guidelinesOpen}
            onToggle={() => task.setGuidelinesOpen((o) => !o)}
            label="Guidelines: composed or reactive?"
            shortcut={keysOf(task.shortcuts, "toggleGuidelines")[0]}
            source={guidelines}
          />
        </div>
      ) : null}

      <AbConversations
        base={base}
        conversationA={conversationA}
        conversationB={conversationB}
        partyOrder={partyOrder}
        targetPartyId={targetParty.id}
        choice={task.choice}
      />

      <AbChoiceForm
        base={base}
        targetName={targetParty.name}
        task={task}
        problems={problems}
        readOnly={readOnly}
        submitting={props.submitting}
        submitText={props.submitText}
      />

      <ShortcutCheatSheet
        open={task.cheatSheetOpen}
        onClose={() => task.setCheatSheetOpen(false)}
        shortcuts={[
          ...(guidelines ? task.shortcuts : task.shortcuts.filter((s) => s.command !== "toggleGuidelines")),
          ...(props.pageShortcuts ?? []),
        ]}
        notes={[
          "Enter on a button or link keeps its usual meaning; anywhere else it submits.",
          "On a narrow screen the conversations are tabs: on a tab, ← and → (or Home and End) switch between A and B.",
          "Your keys can be changed under Settings.",
        ]}
      />
    </div>
  );
}

/** The A/B task's behaviour: the choice, its draft reports, the submit check and the keyboard. */
function useAbTask(props: AbTaskProps, readOnly: boolean) {
  const [choice, setChoice] = useState<AbChoice | null>(props.initialChoice);
  const [attempted, setAttempted] = useState(false);
  const [guidelinesOpen, setGuidelinesOpen] = useState(props.guidelinesInitiallyOpen ?? props.progress.done === 0);
  const [cheatSheetOpen, setCheatSheetOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [alert, setAlert] = useState("");
  const shortcuts = useMemo(() => bindShortcuts(AB_SHORTCUTS, props.keyOverrides), [props.keyOverrides]);
  const choiceRef = useRef<HTMLDivElement>(null);
  const latest = useRef({ choice, readOnly, props, shortcuts });
  latest.current = { choice, readOnly, props, shortcuts };

  const choose = useCallback((value: AbChoice) => {
    if (latest.current.readOnly) return;
    setChoice(value);
    setAnnouncement(`Conversation ${value} chosen.`);
    latest.current.props.onChoiceChange?.(value);
    // Auto-advance (Prodigy's auto-accept): the one answer is given, so it goes as if submitted.
    if (latest.current.props.autoAdvance && !latest.current.props.submitting) {
      setAlert("");
      latest.current.props.onSubmit({ kind: AB_REACTIVENESS, choice: value });
    }
  }, []);

  const submit = useCallback(() => {
    const now = latest.current;
    if (now.props.submitting || now.readOnly) return;
    setAttempted(true);
    if (now.choice === null) {
      setAlert("Not submitted: choose conversation A or B first (keys 1 or 2).");
      choiceRef.current?.focus();
      return;
    }
    setAlert("");
    now.props.onSubmit({ kind: AB_REACTIVENESS, choice: now.choice });
  }, []);

  const { errors } = props;
  useEffect(() => {
    if (errors.length === 0) return;
    setAlert(`This label was not accepted: ${errors.map((e) => e.message).join(" ")}`);
  }, [errors]);

  useTaskKeys({
    cheatSheetOpen,
    submitKeys: keysOf(shortcuts, "submit"),
    closesCheatSheet: (event) =>
      ["closeOverlay", "toggleCheatSheet"].includes(abCommandFor(event, latest.current.shortcuts) ?? ""),
    closeCheatSheet: () => setCheatSheetOpen(false),
    pageShortcuts: props.pageShortcuts,
    onKey: (event) => {
      const command = abCommandFor(event, latest.current.shortcuts);
      if (!command || command === "closeOverlay") return;
      event.preventDefault();
      if (command === "chooseA" || command === "chooseB") choose(command === "chooseA" ? "A" : "B");
      else if (command === "submit") submit();
      else if (command === "toggleGuidelines") setGuidelinesOpen((open) => !open);
      else if (command === "toggleCheatSheet") setCheatSheetOpen(true);
    },
  });

  return {
    shortcuts,
    choice,
    attempted,
    choose,
    submit,
    choiceRef,
    guidelinesOpen,
    setGuidelinesOpen,
    cheatSheetOpen,
    setCheatSheetOpen,
    announcement,
    alert,
  };
}

/** The question, the A/B radio choice (keys 1 and 2) and the submit row. */
function AbChoiceForm({
  base,
  targetName,
  task,
  problems,
  readOnly,
  submitting,
  submitText,
}: {
  base: string;
  targetName: string;
  task: {
    choice: AbChoice | null;
    choose: (value: AbChoice) => void;
    submit: () => void;
    choiceRef: RefObject<HTMLDivElement>;
    shortcuts: readonly ShortcutSpec[];
  };
  problems: FieldProblem[];
  readOnly: boolean;
  submitting: boolean;
  submitText?: string;
}) {
  const choiceInvalid = problems.some((p) => p.path === "choice");
  const chooseKeys = { A: keysOf(task.shortcuts, "chooseA"), B: keysOf(task.shortcuts, "chooseB") };
  const submitKeys = keysOf(task.shortcuts, "submit");
  return (
    <TaskForm className="ab-form" label="Reactiveness choice" onSubmit={task.submit}>
      <span id={`${base}-choice-label`} className="score-label ab-choice-label">
        In which conversation is {targetName} more reactive?
      </span>
      <RadioGroup.Root
        ref={task.choiceRef}
        className="choice-row ab-choice"
        orientation="horizontal"
        aria-labelledby={`${base}-choice-label`}
        aria-invalid={choiceInvalid || undefined}
        aria-describedby={choiceInvalid ? `${base}-choice-error` : undefined}
        value={task.choice}
        disabled={readOnly}
        onValueChange={(value) => task.choose(value as AbChoice)}
      >
        {(["A", "B"] as const).map((side) => (
          // Named by what choosing it says ("A is more reactive"); the key is in aria-keyshortcuts.
          <RadioGroup.Item
            key={side}
            value={side}
            className="choice ab-choice-item"
            aria-label={`${side} is more reactive`}
            aria-keyshortcuts={ariaKeys(chooseKeys[side])}
          >
            {side} is more reactive <kbd>{displayKey(chooseKeys[side][0])}</kbd>
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      <FieldErrors id={`${base}-choice-error`} problems={problems} path="choice" />
      <TaskSubmit
        submitting={submitting}
        disabled={readOnly}
        text={submitText}
        shortcut={submitKeys[0]}
        ariaKeyshortcuts={ariaKeys(submitKeys)}
      />
    </TaskForm>
  );
}
