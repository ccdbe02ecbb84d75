/**
 * The snippet consensus task: per topic, each party's position and a 1–5 agreement score, with
 * carry-forward for topics the snippet does not mention. Keyboard-first (CONSENSUS_SHORTCUTS);
 * no data fetching — the page passes data in and gets drafts and the final label back. Key the
 * component by item so a new item starts from fresh state.
 */
import { useId, useMemo } from "react";
import type { ConsensusLabel } from "./label.ts";
import {
  CONSENSUS_SHORTCUTS,
  consensusFormProblems,
  isTopicComplete,
  type ConsensusDraft,
  type FormConfig,
} from "./consensus-form-state.ts";
import { TopicCard } from "./ConsensusTopicCard.tsx";
import { problemsElsewhere } from "../../components/tasks/FieldErrors.tsx";
import { ShortcutCheatSheet } from "../../components/tasks/ShortcutCheatSheet.tsx";
import { TaskDialogue } from "../../components/tasks/TaskDialogue.tsx";
import {
  TaskAnnouncements,
  TaskForm,
  TaskGuidelines,
  TaskSubmit,
  TaskTop,
} from "../../components/tasks/TaskChrome.tsx";
import { useConsensusTask } from "./useConsensusTask.tsx";
import { ariaKeys, displayKey, keysOf, type PageShortcut, type ShortcutSpec } from "../../domain/shortcuts.ts";
import type { KeyOverrides } from "../../domain/hotkeys.ts";
import type { FieldProblem, TaskProgressValue, TaskScenario, TaskTurn } from "../task-view.ts";

export { CONSENSUS_SHORTCUTS, type ConsensusDraft };

export interface ConsensusTaskProps {
  scenario: TaskScenario;
  previousSnippet: TaskTurn[] | null;
  snippet: TaskTurn[];
  /** The annotator's own label on the preceding snippet; enables carry-forward. */
  previousLabel: ConsensusLabel | null;
  /** A saved draft or the latest revision when revisiting. */
  initialLabel: ConsensusDraft | null;
  progress: TaskProgressValue;
  submitting: boolean;
  /** Server validation problems; paths like `topics.PRICE.positions.BUYER`. */
  errors: FieldProblem[];
  onDraftChange: (draft: ConsensusDraft) => void;
  onSubmit: (label: ConsensusLabel) => void;
  /** The study's guidelines (Markdown), shown collapsed; omitted or empty: no guidelines section. */
  guidelinesMarkdown?: string;
  /** Scenario background (and guidelines) open at first; defaults to open on the annotator's first item only. */
  backgroundInitiallyOpen?: boolean;
  /** A preview (e.g. an MTurk HIT not yet accepted): everything can be read, nothing answered or submitted. */
  readOnly?: boolean;
  /** The submit button's text; defaults to "Submit and next". */
  submitText?: string;
  /** The page's shortcuts (skip, flag, undo). */
  pageShortcuts?: readonly PageShortcut[];
  /** The annotator's own keys (domain/hotkeys.ts); CONSENSUS_SHORTCUTS without. */
  keyOverrides?: KeyOverrides;
}

const CHEAT_SHEET_NOTES = [
  "Letter keys set the position of the selected party (marked ▸) in the focused topic, then select the next party.",
  "When a row of choices has keyboard focus, ← and → move within it; ↑ and ↓ always move between topics.",
  "Shortcuts are off while you type in a text field; the submit key with Ctrl/⌘ still submits.",
  "Your keys can be changed under Settings.",
];

export function ConsensusTask(props: ConsensusTaskProps) {
  const { scenario, previousLabel, progress, errors } = props;
  const readOnly = props.readOnly ?? false;
  const guidelines = props.guidelinesMarkdown?.trim() ?? "";
  const task = useConsensusTask({
    scenario,
    previousLabel,
    initialLabel: props.initialLabel,
    errors,
    submitting: props.submitting,
    readOnly,
    contextOpen: props.backgroundInitiallyOpen ?? progress.done === 0,
    guidelinesPresent: guidelines !== "",
    onDraftChange: props.onDraftChange,
    onSubmit: props.onSubmit,
    pageShortcuts: props.pageShortcuts,
    keyOverrides: props.keyOverrides,
  });
  const keyOf = (command: string) => keysOf(task.shortcuts, command)[0];
  const { config } = task;
  const base = useId();
  const unplaced = problemsElsewhere(
    errors,
    useMemo(() => knownPaths(config), [config]),
  );

  return (
    <div className="task task-consensus">
      <TaskTop
        kind="Consensus in a snippet"
        title={scenario.title}
        progress={progress}
        onShowShortcuts={() => task.setCheatSheetOpen(true)}
        shortcutsKey={keyOf("toggleCheatSheet")}
      />
      <TaskAnnouncements announcement={task.announcement} alert={task.alert} unplaced={unplaced} />
      <ScenarioBackground
        id={`${base}-background`}
        scenario={scenario}
        open={task.backgroundOpen}
        onToggle={task.toggleBackground}
        shortcut={keyOf("toggleBackground")}
      />
      {guidelines ? (
        <TaskGuidelines
          id={`${base}-guidelines`}
          open={task.guidelinesOpen}
          onToggle={task.toggleGuidelines}
          label="Guidelines"
          shortcut={keyOf("toggleGuidelines")}
          source={guidelines}
        />
      ) : null}

      <div className="task-layout">
        <SnippetConversation
          base={base}
          scenario={scenario}
          previousSnippet={props.previousSnippet}
          snippet={props.snippet}
        />
        <ConsensusForm
          base={base}
          scenario={scenario}
          task={task}
          errors={errors}
          previousLabel={previousLabel}
          firstSnippet={props.previousSnippet === null}
          readOnly={readOnly}
          submitting={props.submitting}
          submitText={props.submitText}
        />
      </div>

      <ShortcutCheatSheet
        open={task.cheatSheetOpen}
        onClose={() => task.setCheatSheetOpen(false)}
        shortcuts={[
          ...shortcutsFor(task.shortcuts, guidelines !== "", props.previousSnippet !== null),
          ...(props.pageShortcuts ?? []),
        ]}
        notes={CHEAT_SHEET_NOTES}
      />
    </div>
  );
}

/** What useConsensusTask gives the component: config, form state, dispatch, refs and the toggles. */
type ConsensusTaskModel = ReturnType<typeof useConsensusTask>;

/** The label form: one card per topic, then the submit button with the count of complete topics. */
function ConsensusForm({
  base,
  scenario,
  task,
  errors,
  previousLabel,
  firstSnippet,
  readOnly,
  submitting,
  submitText,
}: {
  base: string;
  scenario: TaskScenario;
  task: ConsensusTaskModel;
  errors: FieldProblem[];
  previousLabel: ConsensusLabel | null;
  firstSnippet: boolean;
  readOnly: boolean;
  submitting: boolean;
  submitText: string | undefined;
}) {
  const { config, state } = task;
  // The form's own problems show only once a submit was attempted; the server's always show.
  const problems: FieldProblem[] = [...errors, ...(state.attempted ? consensusFormProblems(state) : [])];
  const completeCount = config.topics.filter((t) => isTopicComplete(state, t.id)).length;
  const carryKey = keysOf(task.shortcuts, "carryForward")[0];
  const submitKeys = keysOf(task.shortcuts, "submit");
  return (
    <TaskForm className="task-form" label="Consensus label" onSubmit={task.submit}>
      {scenario.topics.map((topic, topicIndex) => (
        <TopicCard
          key={topic.id}
          base={base}
          topic={topic}
          topicIndex={topicIndex}
          config={config}
          state={state}
          problems={problems}
          previousLabel={previousLabel}
          firstSnippet={firstSnippet}
          readOnly={readOnly}
          dispatch={task.dispatch}
          carryKey={carryKey}
          cardRef={(el) => {
            task.topicRefs.current[topicIndex] = el;
          }}
        />
      ))}
      <TaskSubmit
        submitting={submitting}
        disabled={readOnly}
        text={submitText}
        shortcut={submitKeys[0]}
        ariaKeyshortcuts={ariaKeys(submitKeys)}
      >
        <span className="muted">
          {completeCount} of {config.topics.length} topics complete
        </span>
      </TaskSubmit>
    </TaskForm>
  );
}

/** The task's shortcuts as listed: without guidelines no guidelines key, on a first snippet no carry-forward. */
function shortcutsFor(shortcuts: readonly ShortcutSpec[], hasGuidelines: boolean, hasPreviousSnippet: boolean) {
  return shortcuts.filter(
    (s) => (hasGuidelines || s.command !== "toggleGuidelines") && (hasPreviousSnippet || s.command !== "carryForward"),
  );
}

/** Every payload path a field on screen shows problems for; the rest go to the alert. */
function knownPaths(config: FormConfig): Set<string> {
  const paths = new Set<string>();
  for (const topic of config.topics) {
    paths.add(`topics.${topic.id}`).add(`topics.${topic.id}.score`).add(`topics.${topic.id}.carriedForward`);
    for (const party of config.parties) paths.add(`topics.${topic.id}.positions.${party.id}`);
  }
  return paths;
}

/** The scenario's background and parties behind a disclosure button (shortcut i by default). */
function ScenarioBackground({
  id,
  scenario,
  open,
  onToggle,
  shortcut,
}: {
  id: string;
  scenario: TaskScenario;
  open: boolean;
  onToggle: () => void;
  shortcut: string;
}) {
  return (
    <section className="task-background">
      <h2>
        <button
          type="button"
          className="disclosure"
          aria-expanded={open}
          aria-controls={id}
          onClick={onToggle}
          aria-keyshortcuts={ariaKeys([shortcut])}
        >
          Scenario background <kbd>{displayKey(shortcut)}</kbd>
        </button>
      </h2>
      <div id={id} hidden={!open}>
        <p className="background">{scenario.background}</p>
        <ul className="task-parties">
          {scenario.parties.map((party, i) => (
            <li key={party.id}>
              <span className={`party-chip party-${i}`}>{party.name}</span> {party.role}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The preceding snippet (dimmed, context only) and the snippet to label. */
function SnippetConversation({
  base,
  scenario,
  previousSnippet,
  snippet,
}: {
  base: string;
  scenario: TaskScenario;
  previousSnippet: TaskTurn[] | null;
  snippet: TaskTurn[];
}) {
  const partyOrder = useMemo(() => scenario.parties.map((p) => p.id), [scenario]);
  return (
    // A region of its own that scrolls beside the form on wide screens: focusable so keys can scroll it (axe's
    // scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section className="task-conversation" aria-label="Conversation" tabIndex={0}>
      <section aria-labelledby={`${base}-prev`}>
        <h2 id={`${base}-prev`} className="task-section-title">
          Preceding snippet <span className="muted">(context only)</span>
        </h2>
        {previousSnippet && previousSnippet.length > 0 ? (
          <TaskDialogue
            turns={previousSnippet}
            partyOrder={partyOrder}
            label="Preceding snippet (context only)"
            dimmed
          />
        ) : (
          <p className="muted">This is the start of the conversation: there is no preceding snippet.</p>
        )}
      </section>
      <section aria-labelledby={`${base}-current`}>
        <h2 id={`${base}-current`} className="task-section-title">
          Snippet to label
        </h2>
        <TaskDialogue turns={snippet} partyOrder={partyOrder} label="Snippet to label" />
      </section>
    </section>
  );
}
