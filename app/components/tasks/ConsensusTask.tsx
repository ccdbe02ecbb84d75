/**
 * The snippet consensus task: per topic, each party's position and a 1–5 agreement score, with
 * carry-forward for topics the snippet does not mention. Keyboard-first (CONSENSUS_SHORTCUTS);
 * no data fetching — the page passes data in and gets drafts and the final label back. Key the
 * component by item so a new item starts from fresh state.
 */
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from "react";
import { POSITION_NOT_STATED, POSITION_UNCLEAR, type ConsensusLabel } from "../../domain/labels.ts";
import { AGREEMENT_RUBRIC } from "../../domain/rubric.ts";
import {
  CONSENSUS_SHORTCUTS,
  SPECIAL_POSITION_TEXT,
  carryForwardBlocker,
  consensusFormProblems,
  consensusFormReducer,
  consensusKeyResult,
  formConfigOf,
  initConsensusForm,
  isTopicComplete,
  toConsensusDraft,
  toConsensusLabel,
  type ConsensusDraft,
} from "./consensus-form-state.ts";
import { FieldErrors, problemsAt, problemsElsewhere } from "./FieldErrors.tsx";
import { ShortcutCheatSheet } from "./ShortcutCheatSheet.tsx";
import { displayKey, handledElsewhere, isTypingTarget, keyName } from "./shortcuts.ts";
import { TaskDialogue } from "./TaskDialogue.tsx";
import { TaskAnnouncements, TaskGuidelines, TaskTop } from "./TaskChrome.tsx";
import type { FieldProblem, TaskProgressValue, TaskScenario, TaskTurn } from "../../domain/tasks/task-view.ts";

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
}

const CHEAT_SHEET_NOTES = [
  "Letter keys set the position of the selected party (marked ▸) in the focused topic, then select the next party.",
  "When a row of choices has keyboard focus, ← and → move within it; ↑ and ↓ always move between topics.",
  "Shortcuts are off while you type in a text field; Ctrl/⌘ + Enter still submits.",
];

export function ConsensusTask(props: ConsensusTaskProps) {
  const { scenario, previousSnippet, snippet, previousLabel, progress, submitting, errors } = props;
  const readOnly = props.readOnly ?? false;
  const config = useMemo(() => formConfigOf(scenario), [scenario]);
  const [state, dispatch] = useReducer(consensusFormReducer, null, () => initConsensusForm(config, props.initialLabel));
  const [backgroundOpen, setBackgroundOpen] = useState(props.backgroundInitiallyOpen ?? progress.done === 0);
  const [guidelinesOpen, setGuidelinesOpen] = useState(props.backgroundInitiallyOpen ?? progress.done === 0);
  const [cheatSheetOpen, setCheatSheetOpen] = useState(false);
  const guidelines = props.guidelinesMarkdown?.trim() ?? "";
  const guidelinesPresent = useRef(guidelines !== "");
  guidelinesPresent.current = guidelines !== "";
  const [announcement, setAnnouncement] = useState("");
  const [alert, setAlert] = useState("");
  const base = useId();
  const topicRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const partyOrder = useMemo(() => scenario.parties.map((p) => p.id), [scenario]);

  // Latest values for the document-level key handler, which is registered once.
  const latest = useRef({ state, previousLabel, submitting, readOnly, cheatSheetOpen, onSubmit: props.onSubmit, onDraftChange: props.onDraftChange });
  latest.current = { state, previousLabel, submitting, readOnly, cheatSheetOpen, onSubmit: props.onSubmit, onDraftChange: props.onDraftChange };

  // Report drafts on every change of the answers — not on mount (even when StrictMode runs effects
  // twice), not on focus moves.
  const reportedTopics = useRef(state.topics);
  useEffect(() => {
    if (reportedTopics.current === state.topics) return;
    reportedTopics.current = state.topics;
    latest.current.onDraftChange(toConsensusDraft(state));
  }, [state.topics]);

  useEffect(() => {
    if (state.focusRequest === 0) return;
    const element = topicRefs.current[state.focusedTopic];
    element?.focus();
    element?.scrollIntoView?.({ block: "nearest" });
  }, [state.focusRequest]);

  // New server problems: announce them and take the annotator to the first topic concerned.
  useEffect(() => {
    if (errors.length === 0) return;
    setAlert(`This label was not accepted: ${errors.length === 1 ? errors[0].message : `${errors.length} problems, marked below.`}`);
    const index = config.topics.findIndex((t) => errors.some((e) => e.path === `topics.${t.id}` || e.path.startsWith(`topics.${t.id}.`)));
    if (index >= 0) dispatch({ type: "focusTopic", index, moveFocus: true });
  }, [errors, config]);

  const submit = useCallback(() => {
    const now = latest.current;
    if (now.submitting || now.readOnly) return;
    const label = toConsensusLabel(now.state);
    dispatch({ type: "attemptSubmit" });
    if (!label) {
      const missing = consensusFormProblems(now.state);
      setAlert(`Not submitted: ${missing.length} ${missing.length === 1 ? "answer is" : "answers are"} missing. ${missing[0].message}`);
      return;
    }
    setAlert("");
    now.onSubmit(label);
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (handledElsewhere(event)) return;
      const name = keyName(event);
      if (isTypingTarget(event.target) && name !== "Mod+Enter") return;
      const now = latest.current;
      const result = consensusKeyResult(now.state, event, now.previousLabel);
      if (now.cheatSheetOpen) {
        // While the list is open only closing it does anything.
        if (result?.kind === "ui" && (result.command === "closeOverlay" || result.command === "toggleCheatSheet")) {
          event.preventDefault();
          setCheatSheetOpen(false);
        }
        return;
      }
      if (!result || (result.kind === "ui" && result.command === "closeOverlay")) return;
      // Read-only: the reading shortcuts (background, guidelines, cheat sheet) still work, answering does not.
      if (now.readOnly && (result.kind !== "ui" || result.command === "submit")) return;
      event.preventDefault();
      if (result.kind !== "ui") {
        if (result.kind === "form") dispatch(result.action);
        setAnnouncement(result.announce);
        return;
      }
      switch (result.command) {
        case "toggleBackground":
          return setBackgroundOpen((open) => !open);
        case "toggleGuidelines":
          return guidelinesPresent.current ? setGuidelinesOpen((open) => !open) : undefined;
        case "toggleCheatSheet":
          return setCheatSheetOpen(true);
        case "submit":
          return submit();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [submit]);

  const localProblems = state.attempted ? consensusFormProblems(state) : [];
  const problems: FieldProblem[] = [...errors, ...localProblems];
  const knownPaths = new Set<string>();
  for (const topic of config.topics) {
    knownPaths.add(`topics.${topic.id}`).add(`topics.${topic.id}.score`).add(`topics.${topic.id}.carriedForward`);
    for (const party of config.parties) knownPaths.add(`topics.${topic.id}.positions.${party.id}`);
  }
  const unplaced = problemsElsewhere(errors, knownPaths);
  const completeCount = config.topics.filter((t) => isTopicComplete(state, t.id)).length;

  return (
    <div className="task task-consensus">
      <TaskTop kind="Consensus in a snippet" title={scenario.title} progress={progress} onShowShortcuts={() => setCheatSheetOpen(true)} />
      <TaskAnnouncements announcement={announcement} alert={alert} unplaced={unplaced} />

      <section className="task-background">
        <h2>
          <button type="button" className="disclosure" aria-expanded={backgroundOpen} aria-controls={`${base}-background`} onClick={() => setBackgroundOpen((o) => !o)} aria-keyshortcuts="i">
            Scenario background <kbd>i</kbd>
          </button>
        </h2>
        <div id={`${base}-background`} hidden={!backgroundOpen}>
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

      {guidelines ? (
        <TaskGuidelines id={`${base}-guidelines`} open={guidelinesOpen} onToggle={() => setGuidelinesOpen((o) => !o)} label="Guidelines" shortcut="m" source={guidelines} />
      ) : null}

      <div className="task-layout">
        <div className="task-conversation">
          <section aria-labelledby={`${base}-prev`}>
            <h2 id={`${base}-prev`} className="task-section-title">
              Preceding snippet <span className="muted">(context only)</span>
            </h2>
            {previousSnippet && previousSnippet.length > 0 ? (
              <TaskDialogue turns={previousSnippet} partyOrder={partyOrder} label="Preceding snippet (context only)" dimmed />
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
        </div>

        <form
          className="task-form"
          noValidate
          aria-label="Consensus label"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {config.topics.map((topicConfig, topicIndex) => {
            const topic = scenario.topics[topicIndex];
            const draft = state.topics[topic.id];
            const focused = topicIndex === state.focusedTopic;
            const blocker = draft.carriedForward ? null : carryForwardBlocker(previousLabel, topic.id);
            const topicPath = `topics.${topic.id}`;
            const idFor = (suffix: string) => `${base}-${topic.id}-${suffix}`;
            const topicProblems = [...problemsAt(problems, topicPath), ...problemsAt(problems, `${topicPath}.carriedForward`)];
            return (
              <fieldset
                key={topic.id}
                ref={(el) => {
                  topicRefs.current[topicIndex] = el;
                }}
                tabIndex={-1}
                className={`topic-card${focused ? " focused" : ""}${isTopicComplete(state, topic.id) ? " complete" : ""}`}
                data-topic={topic.id}
                aria-describedby={topicProblems.length > 0 ? idFor("topic-error") : undefined}
                onFocus={() => dispatch({ type: "focusTopic", index: topicIndex })}
              >
                <legend>
                  <span className="topic-index">
                    {topicIndex + 1}/{config.topics.length}
                  </span>{" "}
                  <code>{topic.id}</code> {topic.name}
                  {draft.carriedForward ? <span className="badge carried-badge">carried forward</span> : null}
                  {isTopicComplete(state, topic.id) ? <span className="done-mark" aria-label="complete">✓</span> : null}
                </legend>
                <p className="muted topic-description">{topic.description}</p>
                <ol className="options task-options">
                  {topic.options.map((o) => (
                    <li key={o.label}>
                      <strong>({o.label})</strong> {o.description}
                    </li>
                  ))}
                </ol>
                {topicProblems.length > 0 ? (
                  <div className="field-error" id={idFor("topic-error")} data-path={topicPath}>
                    {topicProblems.map((p, i) => (
                      <p key={i}>{p.message}</p>
                    ))}
                  </div>
                ) : null}

                <div className="positions">
                  {config.parties.map((party, partyIndex) => {
                    const path = `${topicPath}.positions.${party.id}`;
                    const active = focused && partyIndex === state.activeParty;
                    const invalid = problemsAt(problems, path).length > 0;
                    return (
                      <div
                        key={party.id}
                        className={`position-row${active ? " active" : ""}`}
                        data-party={party.id}
                        onFocus={() => dispatch({ type: "focusParty", topicIndex, partyIndex })}
                      >
                        <span className="position-cursor" aria-hidden="true">
                          {active ? "▸" : ""}
                        </span>
                        <span className={`party-chip party-${partyIndex}`} aria-hidden="true" title={party.name}>
                          {party.name}
                        </span>
                        <RadioGroup.Root
                          className="choice-row"
                          orientation="horizontal"
                          aria-label={`${party.name}'s position on ${topic.name}`}
                          aria-invalid={invalid || undefined}
                          aria-describedby={invalid ? idFor(`pos-${party.id}-error`) : undefined}
                          value={draft.positions[party.id]}
                          disabled={readOnly}
                          onValueChange={(position) => dispatch({ type: "setPosition", topicId: topic.id, partyId: party.id, position })}
                        >
                          {topicConfig.optionLabels.map((label) => (
                            <RadioGroup.Item key={label} value={label} className="choice" aria-label={`Option ${label}: ${topic.options.find((o) => o.label === label)?.description ?? ""}`}>
                              {label}
                            </RadioGroup.Item>
                          ))}
                          {[POSITION_UNCLEAR, POSITION_NOT_STATED].map((value) => (
                            <RadioGroup.Item key={value} value={value} className="choice choice-special">
                              {SPECIAL_POSITION_TEXT[value]}
                            </RadioGroup.Item>
                          ))}
                        </RadioGroup.Root>
                        <FieldErrors id={idFor(`pos-${party.id}-error`)} problems={problems} path={path} />
                      </div>
                    );
                  })}
                </div>

                <ScoreControl
                  idBase={idFor("score")}
                  topicName={topic.name}
                  score={draft.score}
                  problems={problems}
                  path={`${topicPath}.score`}
                  disabled={readOnly}
                  onChange={(score) => dispatch({ type: "setScore", topicId: topic.id, score })}
                />

                <div className="carry-forward">
                  <button
                    type="button"
                    className="button-secondary"
                    aria-pressed={draft.carriedForward}
                    disabled={blocker !== null || readOnly}
                    aria-describedby={idFor("carry-note")}
                    aria-keyshortcuts="r"
                    onClick={() => dispatch({ type: "toggleCarryForward", topicId: topic.id, previous: previousLabel })}
                  >
                    Not mentioned — carry forward <kbd>r</kbd>
                  </button>
                  <span id={idFor("carry-note")} className="muted carry-note">
                    {blocker ??
                      (draft.carriedForward
                        ? "Score and positions copied from your label on the preceding snippet. Press again to undo."
                        : `Copies your score (${previousLabel?.topics[topic.id]?.score}) and positions from the preceding snippet.`)}
                  </span>
                </div>
              </fieldset>
            );
          })}

          <div className="task-submit">
            <button type="submit" className="button-primary" disabled={submitting || readOnly} aria-keyshortcuts="Control+Enter Meta+Enter">
              {submitting ? "Saving…" : (props.submitText ?? "Submit and next")} <kbd>{displayKey("Mod+Enter")}</kbd>
            </button>
            <span className="muted">
              {completeCount} of {config.topics.length} topics complete
            </span>
          </div>
        </form>
      </div>

      <ShortcutCheatSheet open={cheatSheetOpen} onClose={() => setCheatSheetOpen(false)} shortcuts={guidelines ? CONSENSUS_SHORTCUTS : CONSENSUS_SHORTCUTS.filter((s) => s.command !== "toggleGuidelines")}
        notes={CHEAT_SHEET_NOTES} />
    </div>
  );
}

/** The 1–5 agreement score with the rubric: the hovered or focused level is described inline, else the chosen one. */
function ScoreControl({
  idBase,
  topicName,
  score,
  problems,
  path,
  disabled,
  onChange,
}: {
  idBase: string;
  topicName: string;
  score: number | null;
  problems: FieldProblem[];
  path: string;
  disabled: boolean;
  onChange: (score: number) => void;
}) {
  const [previewed, setPreviewed] = useState<number | null>(null);
  const shown = AGREEMENT_RUBRIC.find((r) => r.score === (previewed ?? score));
  const invalid = problemsAt(problems, path).length > 0;
  return (
    <div className="score-control">
      <span id={`${idBase}-label`} className="score-label">
        Agreement on {topicName}
      </span>
      <RadioGroup.Root
        className="choice-row score-row"
        orientation="horizontal"
        aria-labelledby={`${idBase}-label`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${idBase}-error` : undefined}
        value={score === null ? null : String(score)}
        disabled={disabled}
        onValueChange={(value) => onChange(Number(value))}
        onMouseLeave={() => setPreviewed(null)}
        onBlur={() => setPreviewed(null)}
      >
        {AGREEMENT_RUBRIC.map((level) => (
          <RadioGroup.Item
            key={level.score}
            value={String(level.score)}
            className={`choice score-choice score-${level.score}`}
            aria-label={`${level.score}: ${level.label}`}
            aria-describedby={`${idBase}-${level.score}-desc`}
            title={`${level.score} · ${level.label}: ${level.description}`}
            onMouseEnter={() => setPreviewed(level.score)}
            onFocus={() => setPreviewed(level.score)}
          >
            <span className="score-number">{level.score}</span>
            <span className="score-name">{level.label}</span>
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      <div className="visually-hidden">
        {AGREEMENT_RUBRIC.map((level) => (
          <span key={level.score} id={`${idBase}-${level.score}-desc`}>
            {level.description}
          </span>
        ))}
      </div>
      <p className="rubric-note" data-score={shown?.score ?? ""}>
        {shown ? (
          <>
            <strong>
              {shown.score} · {shown.label}:
            </strong>{" "}
            {shown.description}
          </>
        ) : (
          <span className="muted">Hover over or focus a score to read its rubric.</span>
        )}
      </p>
      <FieldErrors id={`${idBase}-error`} problems={problems} path={path} />
    </div>
  );
}
