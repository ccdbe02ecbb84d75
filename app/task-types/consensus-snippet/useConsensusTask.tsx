/**
 * The consensus task's behaviour: the form state, draft reports, focus requests, server problems
 * and the keyboard. ConsensusTask only lays it out.
 */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import type { ConsensusLabel } from "./label.ts";
import type { FieldProblem, TaskScenario } from "../task-view.ts";
import {
  consensusFormProblems,
  consensusFormReducer,
  consensusKeyResult,
  CONSENSUS_SHORTCUTS,
  formConfigOf,
  initConsensusForm,
  toConsensusDraft,
  toConsensusLabel,
  type ConsensusDraft,
  type ConsensusFormAction,
  type ConsensusFormState,
} from "./consensus-form-state.ts";
import { useTaskKeys } from "../../components/tasks/useTaskKeys.ts";
import { keysOf, type PageShortcut } from "../../domain/shortcuts.ts";
import { bindShortcuts, type KeyOverrides } from "../../domain/hotkeys.ts";

export interface ConsensusTaskInput {
  scenario: TaskScenario;
  previousLabel: ConsensusLabel | null;
  initialLabel: ConsensusDraft | null;
  errors: FieldProblem[];
  submitting: boolean;
  readOnly: boolean;
  /** Background and guidelines open at first. */
  contextOpen: boolean;
  guidelinesPresent: boolean;
  onDraftChange: (draft: ConsensusDraft) => void;
  onSubmit: (label: ConsensusLabel) => void;
  pageShortcuts?: readonly PageShortcut[];
  /** The annotator's own keys (domain/hotkeys.ts). */
  keyOverrides?: KeyOverrides;
}

export function useConsensusTask(input: ConsensusTaskInput) {
  const config = useMemo(() => formConfigOf(input.scenario), [input.scenario]);
  const [state, dispatch] = useReducer(consensusFormReducer, null, () => initConsensusForm(config, input.initialLabel));
  const [backgroundOpen, setBackgroundOpen] = useState(input.contextOpen);
  const [guidelinesOpen, setGuidelinesOpen] = useState(input.contextOpen);
  const [cheatSheetOpen, setCheatSheetOpen] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const [alert, setAlert] = useState("");
  const topicRefs = useRef<(HTMLFieldSetElement | null)[]>([]);
  const shortcuts = useMemo(() => bindShortcuts(CONSENSUS_SHORTCUTS, input.keyOverrides), [input.keyOverrides]);
  const latest = useRef({ state, input, shortcuts });
  latest.current = { state, input, shortcuts };

  useDraftReports(state, () => latest.current.input.onDraftChange(toConsensusDraft(latest.current.state)));
  useEffect(() => {
    if (state.focusRequest === 0) return;
    const element = topicRefs.current[state.focusedTopic];
    element?.focus();
    element?.scrollIntoView?.({ block: "nearest" });
  }, [state.focusRequest]);

  // New server problems: announce them and take the annotator to the first topic concerned.
  const { errors } = input;
  useEffect(() => {
    if (errors.length === 0) return;
    setAlert(
      `This label was not accepted: ${errors.length === 1 ? errors[0].message : `${errors.length} problems, marked below.`}`,
    );
    const index = config.topics.findIndex((t) =>
      errors.some((e) => e.path === `topics.${t.id}` || e.path.startsWith(`topics.${t.id}.`)),
    );
    if (index >= 0) dispatch({ type: "focusTopic", index, moveFocus: true });
  }, [errors, config]);

  const submit = useCallback(() => {
    const { state: now, input: props } = latest.current;
    if (props.submitting || props.readOnly) return;
    const label = toConsensusLabel(now);
    dispatch({ type: "attemptSubmit" });
    if (!label) {
      const missing = consensusFormProblems(now);
      setAlert(
        `Not submitted: ${missing.length} ${missing.length === 1 ? "answer is" : "answers are"} missing. ${missing[0].message}`,
      );
      return;
    }
    setAlert("");
    props.onSubmit(label);
  }, []);

  useTaskKeys({
    cheatSheetOpen,
    submitKeys: keysOf(shortcuts, "submit"),
    closesCheatSheet: (event) => {
      const now = latest.current;
      const result = consensusKeyResult(now.state, event, now.input.previousLabel, now.shortcuts);
      return result?.kind === "ui" && (result.command === "closeOverlay" || result.command === "toggleCheatSheet");
    },
    closeCheatSheet: () => setCheatSheetOpen(false),
    pageShortcuts: input.pageShortcuts,
    onKey: (event) => {
      const { state: now, input: props, shortcuts: bound } = latest.current;
      const result = consensusKeyResult(now, event, props.previousLabel, bound);
      if (!result || (result.kind === "ui" && result.command === "closeOverlay")) return;
      // Read-only: the reading shortcuts (background, guidelines, cheat sheet) still work, answering does not.
      if (props.readOnly && (result.kind !== "ui" || result.command === "submit")) return;
      event.preventDefault();
      if (result.kind !== "ui") {
        if (result.kind === "form") dispatch(result.action);
        setAnnouncement(result.announce);
        return;
      }
      if (result.command === "toggleBackground") setBackgroundOpen((open) => !open);
      else if (result.command === "toggleGuidelines") {
        if (props.guidelinesPresent) setGuidelinesOpen((open) => !open);
      } else if (result.command === "toggleCheatSheet") setCheatSheetOpen(true);
      else if (result.command === "submit") submit();
    },
  });

  return {
    shortcuts,
    config,
    state,
    dispatch: dispatch as (action: ConsensusFormAction) => void,
    topicRefs,
    submit,
    announcement,
    alert,
    backgroundOpen,
    toggleBackground: () => setBackgroundOpen((o) => !o),
    guidelinesOpen,
    toggleGuidelines: () => setGuidelinesOpen((o) => !o),
    cheatSheetOpen,
    setCheatSheetOpen,
  };
}

/**
 * Calls `report` on every change of the answers — not on mount (even when StrictMode runs effects twice), not on focus
 * moves.
 */
function useDraftReports(state: ConsensusFormState, report: () => void): void {
  const reportedTopics = useRef(state.topics);
  useEffect(() => {
    if (reportedTopics.current === state.topics) return;
    reportedTopics.current = state.topics;
    report();
  }, [state.topics]);
}
