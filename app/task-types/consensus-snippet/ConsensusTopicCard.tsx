/** One topic of the consensus task: its options, each party's position, the agreement score and carry-forward. */
import * as RadioGroup from "@radix-ui/react-radio-group";
import { memo } from "react";
import { POSITION_NOT_STATED, POSITION_UNCLEAR, type ConsensusLabel } from "./label.ts";
import type { FieldProblem, TaskScenario } from "../task-view.ts";
import {
  SPECIAL_POSITION_TEXT,
  carryForwardBlocker,
  isTopicComplete,
  type ConsensusFormAction,
  type ConsensusFormState,
  type FormConfig,
} from "./consensus-form-state.ts";
import { FieldErrors, problemsAt } from "../../components/tasks/FieldErrors.tsx";
import { ScoreControl } from "../../components/tasks/ScoreControl.tsx";
import { ariaKeys, displayKey } from "../../domain/shortcuts.ts";

type Topic = TaskScenario["topics"][number];

export interface TopicCardProps {
  base: string;
  topic: Topic;
  topicIndex: number;
  config: FormConfig;
  state: ConsensusFormState;
  problems: FieldProblem[];
  previousLabel: ConsensusLabel | null;
  /** The conversation's first snippet: nothing before it, so no carry-forward is offered. */
  firstSnippet: boolean;
  readOnly: boolean;
  dispatch: (action: ConsensusFormAction) => void;
  cardRef: (element: HTMLFieldSetElement | null) => void;
  /** The annotator's carry-forward key (default "r"). */
  carryKey: string;
}

/**
 * A card renders again only when what it shows changes, not on every render of the page around it
 * (the busy state and navigation of a submit, the next item's arrival): its Radix radios are the
 * costliest part of the page to render (issue 32's turnover). `cardRef` is a new function on each
 * render doing the same thing; `problems` is a new array with the same entries.
 */
export const TopicCard = memo(TopicCardView, (before, after) =>
  (Object.keys(after) as (keyof TopicCardProps)[]).every(
    (key) =>
      key === "cardRef" ||
      before[key] === after[key] ||
      (key === "problems" &&
        before.problems.length === after.problems.length &&
        before.problems.every((p, i) => p === after.problems[i])),
  ),
);

function TopicCardView(props: TopicCardProps) {
  const { base, topic, topicIndex, config, state, problems, readOnly, dispatch } = props;
  const draft = state.topics[topic.id];
  const focused = topicIndex === state.focusedTopic;
  const complete = isTopicComplete(state, topic.id);
  const topicPath = `topics.${topic.id}`;
  const idFor = (suffix: string) => `${base}-${topic.id}-${suffix}`;
  const topicProblems = [...problemsAt(problems, topicPath), ...problemsAt(problems, `${topicPath}.carriedForward`)];
  return (
    <fieldset
      ref={props.cardRef}
      tabIndex={-1}
      className={`topic-card${focused ? " focused" : ""}${complete ? " complete" : ""}`}
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
        {complete ? (
          <span className="done-mark" role="img" aria-label="complete">
            ✓
          </span>
        ) : null}
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
        {config.parties.map((party, partyIndex) => (
          <PositionRow
            key={party.id}
            {...props}
            idFor={idFor}
            party={party}
            partyIndex={partyIndex}
            active={focused && partyIndex === state.activeParty}
          />
        ))}
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
      {props.firstSnippet ? null : <CarryForward {...props} idFor={idFor} />}
    </fieldset>
  );
}

/** One party's position on the topic: the option letters, unclear, not stated. */
function PositionRow({
  topic,
  topicIndex,
  config,
  state,
  problems,
  readOnly,
  dispatch,
  idFor,
  party,
  partyIndex,
  active,
}: TopicCardProps & {
  idFor: (suffix: string) => string;
  party: FormConfig["parties"][number];
  partyIndex: number;
  active: boolean;
}) {
  const path = `topics.${topic.id}.positions.${party.id}`;
  const invalid = problemsAt(problems, path).length > 0;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focus bubbling up from the row's radios marks the row active
    <div
      className={`position-row${active ? " active" : ""}`}
      data-party={party.id}
      onFocus={() => dispatch({ type: "focusParty", topicIndex, partyIndex })}
    >
      <span className="position-cursor" aria-hidden="true">
        {active ? "▸" : ""}
      </span>
      <span className={`party-chip party-${partyIndex}`} aria-hidden="true">
        {party.name}
      </span>
      <RadioGroup.Root
        className="choice-row"
        orientation="horizontal"
        aria-label={`${party.name}'s position on ${topic.name}`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? idFor(`pos-${party.id}-error`) : undefined}
        value={state.topics[topic.id].positions[party.id]}
        disabled={readOnly}
        onValueChange={(position) => dispatch({ type: "setPosition", topicId: topic.id, partyId: party.id, position })}
      >
        {config.topics[topicIndex].optionLabels.map((label) => (
          <RadioGroup.Item
            key={label}
            value={label}
            className="choice"
            aria-label={`Option ${label}: ${topic.options.find((o) => o.label === label)?.description ?? ""}`}
          >
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
}

/** "Not mentioned — carry forward": copies the annotator's label on the preceding snippet, or says why it cannot. */
function CarryForward({
  topic,
  state,
  previousLabel,
  readOnly,
  dispatch,
  idFor,
  carryKey,
}: TopicCardProps & { idFor: (suffix: string) => string }) {
  const draft = state.topics[topic.id];
  const blocker = draft.carriedForward ? null : carryForwardBlocker(previousLabel, topic.id);
  return (
    <div className="carry-forward">
      <button
        type="button"
        className="button-secondary"
        aria-pressed={draft.carriedForward}
        disabled={blocker !== null || readOnly}
        aria-describedby={idFor("carry-note")}
        aria-keyshortcuts={ariaKeys([carryKey])}
        onClick={() => dispatch({ type: "toggleCarryForward", topicId: topic.id, previous: previousLabel })}
      >
        Not mentioned — carry forward <kbd>{displayKey(carryKey)}</kbd>
      </button>
      <span id={idFor("carry-note")} className="muted carry-note">
        {blocker ??
          (draft.carriedForward
            ? "Score and positions copied from your label on the preceding snippet. Press again to undo."
            : `Copies your score (${previousLabel?.topics[topic.id]?.score}) and positions from the preceding snippet.`)}
      </span>
    </div>
  );
}
