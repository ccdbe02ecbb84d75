/**
 * The page around one item's task, shared by the annotator's task page and the MTurk
 * ExternalQuestion page: the page frame (with the item on screen as `data-item`), what the page
 * shows above the task, the action's error, and the task itself wired to the page's action.
 * The two pages differ only in what they pass in.
 */
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { FieldProblem, TaskProgressValue } from "../../task-types/task-view.ts";
import type { TaskView } from "../../task-types/registry.ts";
import { useItemActions, type ItemActionsConfig } from "./ItemActions.tsx";
import { DraftStatusNote } from "./DraftStatusNote.tsx";
import { ItemTask } from "./ItemTask.tsx";
import { LabelComment } from "./LabelComment.tsx";
import { SessionStats, useSessionStats } from "./SessionStats.tsx";
import { mayQueueFor } from "./queued-keys.ts";
import { useKeysWhileLoading, type DroppedKeys } from "./useKeysWhileLoading.ts";
import { useTaskPosting, type TaskPostingOptions } from "./useTaskPosting.ts";
import { plainProblem } from "../../domain/crowd/plain-problems.ts";
import type { KeyOverrides } from "../../domain/hotkeys.ts";

/** What the page's loader gives for the item. */
export interface TaskPageItem {
  itemId: number;
  task: TaskView;
  /** What the type's form starts from (its handlers' task-page part; the type's component reads them). */
  previousLabel: unknown;
  initialLabel: unknown;
  initialChoice: unknown;
  study: { guidelines: string };
  /** The comment of the annotator's latest revision (the comment field starts from it). */
  comment?: string;
  /** The annotator's auto-advance setting (the annotator's page only). */
  autoAdvance?: boolean;
  /** The annotator's own keys for this task type (the annotator's page only; the defaults without). */
  keyOverrides?: KeyOverrides;
}

export interface TaskFailure {
  message: string;
  problems: FieldProblem[];
}

export interface TaskPageShellProps {
  testId: string;
  item: TaskPageItem;
  progress: TaskProgressValue;
  posting: Omit<TaskPostingOptions, "itemId">;
  failure: TaskFailure | null;
  /** List field problems in the page's error too (the annotator page marks them at the fields only). */
  listProblems?: boolean;
  /** Extra attributes on the page frame, e.g. `data-mode`. */
  mode?: string;
  /** Shown above the task: crumbs, notices. */
  header?: ReactNode;
  /** Shown instead of the task (e.g. the MTurk hand-off once the answer is stored). */
  replacement?: ReactNode;
  contextOpen?: boolean;
  readOnly?: boolean;
  submitText?: string;
  /**
   * A submit leads to another item: keys typed until it is on screen are held, and only those that answer nothing act
   * on it (useKeysWhileLoading).
   */
  loadsNextItem?: boolean;
  /** Skip, flag and undo-last (the annotator's page only). */
  itemActions?: ItemActionsConfig;
  /** Shows session statistics, kept under this key (e.g. the study id); none without it. */
  sessionKey?: string;
  /** Offers a comment field whose text is posted with the label as `comment`. */
  commentField?: boolean;
}

export function TaskPageShell(props: TaskPageShellProps) {
  const { item, failure } = props;
  const submitting = useNavigation().state === "submitting";
  const { setDraftValue, send, flushDraft, draftStatus, seconds } = useTaskPosting({
    ...props.posting,
    itemId: item.itemId,
  });
  const session = useSessionStats(props.sessionKey);
  const [comment, setComment] = useItemComment(item);

  const loading = useKeysWhileLoading(item.itemId, (key) => mayQueueFor(item.task.kind, key, item.keyOverrides));
  const hold = props.loadsNextItem ? loading.hold : noop;
  const actions = useItemActions(
    props.itemActions,
    () => {
      flushDraft();
      hold();
    },
    item.keyOverrides,
  );
  const busy = props.loadsNextItem === true && loading.busy;
  const { frame, arrival } = useItemArrival(item.itemId, busy);
  return (
    <section
      ref={frame}
      className="task-page"
      data-testid={props.testId}
      data-item={item.itemId}
      data-mode={props.mode}
      data-busy={busy || undefined}
      aria-busy={busy || undefined}
    >
      {props.header}
      <p className="visually-hidden" aria-live="polite" data-testid="item-announcement">
        {arrival}
      </p>
      <div className="task-status-row">
        {props.posting.draftsEnabled ? <DraftStatusNote status={draftStatus} /> : null}
        {props.sessionKey ? (
          <SessionStats entries={session.entries} remaining={props.progress.total - props.progress.done} />
        ) : null}
      </div>
      <TaskError failure={failure} listProblems={props.listProblems ?? false} />
      <LoadingNotice busy={busy} dropped={props.loadsNextItem ? loading.dropped : null} />
      {props.replacement ?? (
        // While the next item loads the old one takes no input (inert: no clicks, no focus).
        <div className="task-page-body" {...(busy ? { inert: "" } : {})}>
          {actions.panel}
          <ItemTask
            itemId={item.itemId}
            task={item.task}
            previousLabel={item.previousLabel}
            initialLabel={item.initialLabel}
            initialChoice={item.initialChoice}
            guidelinesMarkdown={item.study.guidelines}
            progress={props.progress}
            submitting={submitting}
            errors={failure?.problems ?? []}
            contextOpen={props.contextOpen}
            readOnly={props.readOnly}
            submitText={props.submitText}
            pageShortcuts={actions.shortcuts}
            autoAdvance={item.autoAdvance}
            keyOverrides={item.keyOverrides}
            onDraftChange={setDraftValue}
            onSubmit={(payload) => {
              session.record(item.itemId, seconds());
              hold();
              send(payload, props.commentField ? { comment } : {});
            }}
          />
          {props.commentField ? (
            <LabelComment
              value={comment}
              onChange={setComment}
              problems={failure?.problems ?? []}
              disabled={props.readOnly === true}
            />
          ) : null}
        </div>
      )}
    </section>
  );
}

const noop = () => {};

/** The comment being written, starting over from the stored one on each item. */
function useItemComment(item: TaskPageItem) {
  const [comment, setComment] = useState(item.comment ?? "");
  const [forItem, setForItem] = useState(item.itemId);
  if (forItem !== item.itemId) {
    setForItem(item.itemId);
    setComment(item.comment ?? "");
  }
  return [comment, setComment] as const;
}

/**
 * When another item replaces the one on screen (not on the first load): its heading takes focus and a polite live
 * region names it, so a screen reader hears that the next item is there.
 */
function useItemArrival(itemId: number, busy: boolean) {
  const frame = useRef<HTMLElement>(null);
  const [arrival, setArrival] = useState("");
  const shown = useRef(itemId);
  useEffect(() => {
    // Once it can take input: the old item's frame is inert while the next one loads.
    if (busy || shown.current === itemId) return;
    shown.current = itemId;
    const heading = frame.current?.querySelector<HTMLElement>("h1.task-title");
    if (!heading) return;
    heading.focus({ preventScroll: false });
    setArrival(`Next item: ${heading.textContent?.trim() ?? ""}`);
  }, [itemId, busy]);
  return { frame, arrival };
}

/** Says the next item is on its way, or that held keys were not applied and why. */
function LoadingNotice({ busy, dropped }: { busy: boolean; dropped: DroppedKeys | null }) {
  const count = !busy && dropped ? dropped.count : 0;
  const keys = count === 1 ? "The key" : `The ${count} keys`;
  const were = count === 1 ? "was" : "were";
  return (
    <div className="task-loading" role="status" data-testid="task-loading">
      {busy ? (
        <p>
          Saving and loading the next item… keys that move around or open the guidelines are kept for it; answer keys
          are not, so answer once you can see it.
        </p>
      ) : null}
      {count > 0 && dropped?.reason === "refused" ? (
        <p>
          {keys} typed after submitting {were} not applied, because this item is still open.
        </p>
      ) : null}
      {count > 0 && dropped?.reason === "unseen" ? (
        <p data-testid="keys-not-applied">
          {keys} typed before this item appeared {were} not applied: answers count only once you have seen the item.
        </p>
      ) : null}
    </div>
  );
}

/** The action's refusal. Field problems are shown at their fields; listed here only when asked. */
function TaskError({ failure, listProblems }: { failure: TaskFailure | null; listProblems: boolean }) {
  if (!failure || (!listProblems && failure.problems.length > 0)) return null;
  return (
    <div className="form-error" role="alert" data-testid="task-error">
      <p>{failure.message}</p>
      {listProblems && failure.problems.length > 0 ? (
        <ul>
          {failure.problems.map((p, i) => (
            <li key={i}>{plainProblem(p)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
