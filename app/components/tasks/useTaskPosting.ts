/**
 * How a task page talks to its action: drafts are posted a moment after the annotator stops
 * (through a fetcher, so the page stays), the label is posted with the time on task. Shared by
 * the annotator's task page and the MTurk page, which differ only in the fields they add (a client
 * token, a signed assignment token) and where they post.
 */
import { useFetcher, useSubmit } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import type { LabelPayload } from "../../task-types/registry.ts";
import { useAutosave } from "./useAutosave.ts";
import { useDraftStatus } from "./useDraftStatus.ts";
import { useTimeOnTask } from "./useTimeOnTask.ts";

export interface TaskPostingOptions {
  /** The action every post goes to; it names its item, so work can never land on another. */
  action: string;
  itemId: number;
  /** Drafts are saved only while answers can still change. */
  draftsEnabled: boolean;
  /** Added to every post (e.g. a client token or a signed assignment token). */
  fields: Record<string, string>;
}

export function useTaskPosting({ action, itemId, draftsEnabled, fields }: TaskPostingOptions) {
  const submit = useSubmit();
  const draftFetcher = useFetcher<{ ok: boolean; message?: string }>();
  const seconds = useTimeOnTask(itemId);
  const lastDraft = useRef<{ itemId: number; payload: unknown } | null>(null);
  const saveDraftNow = useCallback(
    (payload: unknown) => {
      if (!draftsEnabled || payload === null) return;
      lastDraft.current = { itemId, payload };
      draftFetcher.submit({ ...fields, intent: "draft", payload: JSON.stringify(payload) }, { method: "post", action });
    },
    [draftFetcher, draftsEnabled, fields, action, itemId],
  );
  // A new item starts clean: a draft belongs to the item it was typed on. Derived while rendering, not reset by an
  // effect, so the next item's arrival costs no extra render of the whole task (issue 32's turnover).
  const [draft, setDraft] = useState<{ itemId: number; value: unknown }>({ itemId, value: null });
  const draftValue = draft.itemId === itemId ? draft.value : null;
  const setDraftValue = useCallback((value: unknown) => setDraft({ itemId, value }), [itemId]);
  const autosave = useAutosave(draftValue, saveDraftNow);
  // A draft that was not saved (a busy database) is sent again; the page shows where it stands.
  // Never once the label is sent, nor to another item's address.
  const draftStatus = useDraftStatus(draftFetcher, itemId, () => {
    if (lastDraft.current?.itemId === itemId) saveDraftNow(lastDraft.current.payload);
  });

  const send = useCallback(
    (payload: LabelPayload, extra: Record<string, string> = {}) => {
      autosave.cancel();
      lastDraft.current = null;
      submit(
        {
          ...fields,
          ...extra,
          intent: "submit",
          payload: JSON.stringify(payload),
          secondsOnTask: String(Math.round(seconds() * 10) / 10),
        },
        { method: "post", action },
      );
    },
    [submit, fields, seconds, autosave, action],
  );
  // Before a skip or an undo loads another item in this same page: the draft goes to its own item now, not later to the
  // next one's address.
  const flushDraft = autosave.flush;
  return { setDraftValue, send, flushDraft, draftStatus, seconds };
}
